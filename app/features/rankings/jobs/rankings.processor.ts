import {
  enqueueSearchConsolePull,
  type RankingsTickJob,
  type RankingsWeeklyJob,
  type RefreshPostJob,
  type SearchConsoleAllJob,
  type SearchConsolePullJob,
} from './rankings.server'
import { clockNow } from '#app/platform/clock.server'
import {
  findRefreshSuggestions,
  RefreshError,
  refreshFailureMessage,
  refreshPost,
  reopenSuggestion,
  sendDigests,
} from '#app/features/rankings/rankings-insights.server'
import { rankingsTick } from '#app/features/rankings/rankings.server'
import { activeConnections, pullSearchConsole, SearchConsoleError } from '#app/features/rankings/search-console.server'
import { isFinalError } from '#app/features/content/posts-pipeline.server'
import { UnrecoverableError, type ProcessorContext } from '#app/platform/queue/processor'

/** The hourly tracking tick: plans the day and works through its share of the SERP checks. */
export async function processRankingsTick(data: RankingsTickJob, ctx: ProcessorContext) {
  const result = await rankingsTick(clockNow(data.now))
  ctx.log('rankings tick', result)
  return result
}

/** Fans the daily Search Console pull out to one job per connected user. */
export async function processSearchConsoleAll(data: SearchConsoleAllJob) {
  const users = await activeConnections()
  for (const userId of users) await enqueueSearchConsolePull({ userId, now: data.now })
  return { users: users.length }
}

export async function processSearchConsolePull(data: SearchConsolePullJob, ctx: ProcessorContext) {
  try {
    const result = await pullSearchConsole(data.userId, clockNow(data.now))
    ctx.log('search console pull', { userId: data.userId, ...result })
    return result
  } catch (error) {
    if (error instanceof SearchConsoleError && !error.retryable) throw new UnrecoverableError(error.message)
    throw error
  }
}

/** Monday: refresh suggestions first, then the digest that lists them. */
export async function processRankingsWeekly(data: RankingsWeeklyJob, ctx: ProcessorContext) {
  const now = clockNow(data.now)
  const suggestions = await findRefreshSuggestions(now)
  const digests = await sendDigests(now)
  ctx.log('rankings weekly', { ...suggestions, ...digests })
  return { ...suggestions, ...digests }
}

/**
 * 'Refresh this post'. An error no retry fixes (AI off or refused, no market) or the last attempt's error reopens
 * the suggestion with a message for /rankings; nothing of a failed attempt is written.
 */
export async function processRefreshPost(data: RefreshPostJob, ctx: ProcessorContext) {
  try {
    const result = await refreshPost(data.suggestionId)
    ctx.log('refresh post', { suggestionId: data.suggestionId, ...result })
    return result
  } catch (error) {
    const last = ctx.job.attemptsMade + 1 >= (ctx.job.opts.attempts ?? 1)
    const final = error instanceof RefreshError ? !error.retryable : isFinalError(error)
    if (final || last) {
      await reopenSuggestion(data.suggestionId, refreshFailureMessage(error))
      throw new UnrecoverableError(error instanceof Error ? error.message : String(error))
    }
    throw error
  }
}
