import { z } from 'zod'
import { defineJob, jobId, queue, QUEUES } from '#app/platform/queue/queues.server'

/**
 * The rankings queue: the hourly tracking tick, the daily Search Console pull (fanned out per user), the weekly
 * refresh suggestions and digest, and one post refresh. Every payload may carry `now` (ISO): the time the job runs
 * at (app/server/clock.server.ts); the schedulers leave it out, so the system clock applies.
 */
export const RANKINGS_QUEUE = QUEUES.rankings

const now = z.string().datetime().optional()

export const rankingsPayloads = {
  tick: z.object({ now }),
  searchConsoleAll: z.object({ now }),
  searchConsolePull: z.object({ userId: z.string().uuid(), now }),
  weekly: z.object({ now }),
  refreshPost: z.object({ suggestionId: z.string().uuid() }),
}
export type RankingsTickJob = z.infer<typeof rankingsPayloads.tick>
export type SearchConsoleAllJob = z.infer<typeof rankingsPayloads.searchConsoleAll>
export type SearchConsolePullJob = z.infer<typeof rankingsPayloads.searchConsolePull>
export type RankingsWeeklyJob = z.infer<typeof rankingsPayloads.weekly>
export type RefreshPostJob = z.infer<typeof rankingsPayloads.refreshPost>

export const RANKINGS_JOBS = {
  tick: 'tick',
  searchConsoleAll: 'search-console-all',
  searchConsolePull: 'search-console-pull',
  weekly: 'weekly',
  refreshPost: 'refresh-post',
} as const

/** Repeating schedules (idempotent: upserted by id at every worker start). */
export async function scheduleRankings() {
  const q = queue(RANKINGS_QUEUE)
  await q.upsertJobScheduler(
    'rankings-tick',
    { pattern: '5 * * * *', tz: 'UTC' },
    { name: RANKINGS_JOBS.tick, data: {} },
  )
  await q.upsertJobScheduler(
    'rankings-search-console',
    { pattern: '30 6 * * *', tz: 'UTC' },
    { name: RANKINGS_JOBS.searchConsoleAll, data: {} },
  )
  await q.upsertJobScheduler(
    'rankings-weekly',
    { pattern: '0 7 * * 1', tz: 'UTC' },
    { name: RANKINGS_JOBS.weekly, data: {} },
  )
}

/** A tick run on demand (after a star, or by a test at a chosen time); one per hour of `now` at most. */
export async function enqueueRankingsTick(data: RankingsTickJob = {}) {
  const payload = rankingsPayloads.tick.parse(data)
  const at = payload.now ?? new Date().toISOString()
  return queue(RANKINGS_QUEUE).add(RANKINGS_JOBS.tick, payload, {
    jobId: jobId('rank-tick', at.slice(0, 13), payload.now ? 'at' : 'now', String(Date.now())),
  })
}

export async function enqueueSearchConsoleAll(data: SearchConsoleAllJob = {}) {
  const payload = rankingsPayloads.searchConsoleAll.parse(data)
  return queue(RANKINGS_QUEUE).add(RANKINGS_JOBS.searchConsoleAll, payload, {
    jobId: jobId('gsc-all', (payload.now ?? new Date().toISOString()).slice(0, 10), String(Date.now())),
  })
}

/** One user's pull for a day (the same user and day never runs twice at once). */
export async function enqueueSearchConsolePull(data: SearchConsolePullJob, opts: { immediate?: boolean } = {}) {
  const payload = rankingsPayloads.searchConsolePull.parse(data)
  const day = (payload.now ?? new Date().toISOString()).slice(0, 10)
  return queue(RANKINGS_QUEUE).add(RANKINGS_JOBS.searchConsolePull, payload, {
    jobId: jobId('gsc', payload.userId, day, ...(opts.immediate ? [String(Date.now())] : [])),
    attempts: 6,
    backoff: { type: 'exponential', delay: 60_000 },
  })
}

export async function enqueueRankingsWeekly(data: RankingsWeeklyJob = {}) {
  const payload = rankingsPayloads.weekly.parse(data)
  return queue(RANKINGS_QUEUE).add(RANKINGS_JOBS.weekly, payload, {
    jobId: jobId('rank-weekly', (payload.now ?? new Date().toISOString()).slice(0, 10), String(Date.now())),
  })
}

export async function enqueueRefreshPost(data: RefreshPostJob) {
  const payload = rankingsPayloads.refreshPost.parse(data)
  return queue(RANKINGS_QUEUE).add(RANKINGS_JOBS.refreshPost, payload, {
    // Each start of a refresh is its own job (startRefresh lets one through per click): a failed job is kept for a
    // week and would swallow the retry of a reopened suggestion if the id were the suggestion's alone.
    jobId: jobId('refresh', payload.suggestionId, String(Date.now())),
    attempts: 4,
    backoff: { type: 'exponential', delay: 10_000 },
  })
}

/** The job definitions the worker registers its processors with. */
export const rankingsJobs = {
  tick: defineJob(QUEUES.rankings, RANKINGS_JOBS.tick, rankingsPayloads.tick),
  searchConsoleAll: defineJob(QUEUES.rankings, RANKINGS_JOBS.searchConsoleAll, rankingsPayloads.searchConsoleAll),
  searchConsolePull: defineJob(QUEUES.rankings, RANKINGS_JOBS.searchConsolePull, rankingsPayloads.searchConsolePull),
  weekly: defineJob(QUEUES.rankings, RANKINGS_JOBS.weekly, rankingsPayloads.weekly),
  refreshPost: defineJob(QUEUES.rankings, RANKINGS_JOBS.refreshPost, rankingsPayloads.refreshPost),
}
