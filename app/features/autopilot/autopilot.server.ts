import { and, desc, eq, ne, sql } from 'drizzle-orm'
import {
  AUTOPILOT_MESSAGES,
  normalizeKeyword,
  pickBestKeyword,
  type AutopilotStatusRow,
} from '#app/features/autopilot/settings/autopilot'
import { MAX_QUERY_LENGTH, normalizeQuery } from '#app/features/keywords/keywords'
import { canUseAutopilot } from '#app/features/billing/billing.server'
import { getSettings, updateSettings } from '#app/features/autopilot/settings/settings.server'
import { findOverlap } from '#app/features/content/cannibalisation.server'
import { db, schema } from '#app/platform/db/client.server'
import { researchKeywordsWithoutQuota } from '#app/features/keywords/keywords.server'
import { createPost } from '#app/features/content/posts.server'
import { gateAutopilotPost } from '#app/features/publishing/review.server'

/**
 * Auto Pilot above publishing (its settings, schedule and webhook are below it, in ./settings/): the status list,
 * the run itself (research keyword ideas from the business details, pick the best unused one, write a post
 * through the posts pipeline) and the publication of the finished post to the user's webhook.
 */

export { AUTOPILOT_MESSAGES, canUseAutopilot }

// ---------------------------------------------------------------------------
// Status list
// ---------------------------------------------------------------------------

/** The keywords Auto Pilot chose, newest first, with their post once it is written. Empty while Auto Pilot is off. */
export async function getStatusList(
  userId: string,
  limit = 50,
): Promise<Array<AutopilotStatusRow & { createdAt: string; postStatus: string | null }>> {
  const settings = await getSettings(userId)
  if (!settings.enabled) return []
  const rows = await db
    .select({
      createdAt: schema.autopilotRuns.createdAt,
      keyword: schema.savedKeywords.keyword,
      avgMonthlySearches: schema.savedKeywords.avgMonthlySearches,
      difficultyScore: schema.savedKeywords.difficultyScore,
      postId: schema.blogPosts.id,
      postStatus: schema.blogPosts.status,
    })
    .from(schema.autopilotRuns)
    .innerJoin(schema.savedKeywords, eq(schema.savedKeywords.id, schema.autopilotRuns.keywordId))
    .leftJoin(schema.blogPosts, eq(schema.blogPosts.id, schema.autopilotRuns.postId))
    .where(eq(schema.autopilotRuns.userId, userId))
    .orderBy(desc(schema.autopilotRuns.createdAt))
    .limit(limit)
  return rows.map((r) => ({
    keyword: r.keyword,
    avgMonthlySearches: r.avgMonthlySearches,
    difficultyScore: r.difficultyScore,
    blogPost: r.postId && r.postStatus === 'completed' ? { _id: r.postId } : {},
    createdAt: r.createdAt.toISOString(),
    postStatus: r.postStatus ?? null,
  }))
}

// ---------------------------------------------------------------------------
// The run (worker)
// ---------------------------------------------------------------------------

/** A seed query from free text: normalized like a search and cut at a word boundary to the query limit. */
export function seedQuery(text: string | null | undefined): string | null {
  const normalized = normalizeQuery(text ?? '')
  if (!normalized) return null
  if (normalized.length <= MAX_QUERY_LENGTH) return normalized
  const cut = normalized.slice(0, MAX_QUERY_LENGTH + 1)
  const atSpace = cut.lastIndexOf(' ')
  return (atSpace > 10 ? cut.slice(0, atSpace) : cut.slice(0, MAX_QUERY_LENGTH)).trim()
}

/**
 * Claims a run slot for a user: one row per (user, slot). A slot whose run failed (the job will be retried) or
 * whose worker died long ago may be claimed again; any other existing row means the slot has run.
 */
async function claimSlot(userId: string, slot: string) {
  const rows = await db.execute<{ id: string }>(sql`
    insert into ${schema.autopilotRuns} (user_id, slot, status) values (${userId}, ${slot}, 'running')
    on conflict (user_id, slot) do update set status = 'running', note = null, updated_at = now()
      where ${schema.autopilotRuns}.status = 'failed'
         or (${schema.autopilotRuns}.status = 'running' and ${schema.autopilotRuns}.updated_at < now() - interval '15 minutes')
    returning id`)
  return [...rows][0]?.id ?? null
}

async function finishRun(runId: string, values: Partial<typeof schema.autopilotRuns.$inferInsert>) {
  await db
    .update(schema.autopilotRuns)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.autopilotRuns.id, runId))
}

export type RunOutcome =
  | { status: 'off' | 'duplicate' }
  | { status: 'skipped'; note: string }
  | { status: 'completed'; postId: string; keywordId: string; keyword: string }

type Market = { countryCode: string; countryName: string; languageCode: string; languageName: string }
type Skip = (note: string, notice?: string) => Promise<RunOutcome>
type Log = (msg: string, extra?: Record<string, unknown>) => void

/** The post a retried run of this slot already created, if any (the run then picks up where it stopped). */
async function postOfSlot(userId: string, requestKey: string) {
  const [existing] = await db
    .select({ id: schema.blogPosts.id, keywordId: schema.blogPosts.keywordId, keyword: schema.blogPosts.keyword })
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.userId, userId), eq(schema.blogPosts.requestKey, requestKey)))
    .limit(1)
  return existing?.keywordId ? { ...existing, keywordId: existing.keywordId } : null
}

/** The user's seed queries (product/service, ideal customer; none without business details) and market. */
function seedsAndMarket(user: typeof schema.users.$inferSelect): { seeds: string[]; market: Market } {
  const seeds = [
    ...new Set([seedQuery(user.productService), seedQuery(user.marketSegment)].filter((s): s is string => Boolean(s))),
  ]
  const market = {
    countryCode: user.countryCode || '2840',
    countryName: user.countryName || 'United States',
    languageCode: user.languageCode || '1000',
    languageName: user.languageName || 'English',
  }
  return { seeds, market }
}

/**
 * Researches every seed (saved as Auto Pilot's keywords). Returns a skip outcome when research is unavailable,
 * throws the first error when every seed failed otherwise (the job retries), and null when at least one worked.
 */
async function researchSeeds(userId: string, seeds: string[], market: Market, skip: Skip, log: Log) {
  const errors: unknown[] = []
  for (const query of seeds) {
    try {
      await researchKeywordsWithoutQuota(userId, { query, ...market }, { viaAutoPilot: true })
    } catch (error) {
      errors.push(error)
      log('autopilot research failed', { userId, query, error: (error as Error).message })
    }
  }
  if (errors.length < seeds.length) return null
  const first = errors[0] as Error
  if (first?.name === 'KeywordsUnavailableError')
    return skip('keyword research unavailable', AUTOPILOT_MESSAGES.unavailableNotice)
  throw first
}

/** Keywords Auto Pilot passes over in one run because they overlap existing posts, before it gives up. */
const MAX_OVERLAP_SKIPS = 5

/** The best unused keyword Auto Pilot found for this market (pickBestKeyword), or null. */
async function pickKeyword(userId: string, market: Market, skipped: string[] = []) {
  const candidates = await db
    .select({
      id: schema.savedKeywords.id,
      keyword: schema.savedKeywords.keyword,
      avgMonthlySearches: schema.savedKeywords.avgMonthlySearches,
      difficultyScore: schema.savedKeywords.difficultyScore,
    })
    .from(schema.savedKeywords)
    .where(
      and(
        eq(schema.savedKeywords.userId, userId),
        eq(schema.savedKeywords.searchedViaAutoPilot, true),
        eq(schema.savedKeywords.countryCode, market.countryCode),
        eq(schema.savedKeywords.languageCode, market.languageCode),
      ),
    )
  const written = await db
    .select({ keyword: schema.blogPosts.keyword })
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.userId, userId), ne(schema.blogPosts.status, 'failed')))
  return pickBestKeyword(candidates, [...written.map((w) => normalizeKeyword(w.keyword)), ...skipped])
}

/**
 * One Auto Pilot run for a slot: claim the slot, research keyword ideas from the business details, pick the best
 * unused one, write its post through the posts pipeline. Throws on errors worth retrying (the job retries; the
 * slot can then be claimed again); records skipped runs with a note and shows the user a notice when something
 * needs their attention.
 */
export async function runAutopilot(userId: string, slot: string, log: Log = () => {}): Promise<RunOutcome> {
  const settings = await getSettings(userId)
  if (!settings.enabled) return { status: 'off' }
  const runId = await claimSlot(userId, slot)
  if (!runId) return { status: 'duplicate' }

  const skip: Skip = async (note, notice) => {
    await finishRun(runId, { status: 'skipped', note })
    if (notice) await updateSettings(userId, { notice })
    log('autopilot run skipped', { userId, slot, note })
    return { status: 'skipped', note }
  }

  try {
    if (!(await canUseAutopilot(userId)))
      return await skip('plan does not include Auto Pilot', AUTOPILOT_MESSAGES.planNotice)
    const requestKey = `autopilot-${slot}`

    const existing = await postOfSlot(userId, requestKey)
    if (existing) {
      await finishRun(runId, { status: 'completed', postId: existing.id, keywordId: existing.keywordId })
      return { status: 'completed', postId: existing.id, keywordId: existing.keywordId, keyword: existing.keyword }
    }

    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId)).limit(1)
    if (!user) return await skip('user not found')
    const { seeds, market } = seedsAndMarket(user)
    if (seeds.length === 0) return await skip('no business details', AUTOPILOT_MESSAGES.detailsNotice)
    const researchSkipped = await researchSeeds(userId, seeds, market, skip, log)
    if (researchSkipped) return researchSkipped

    // No cannibalisation: a keyword too close to an existing post or page of the user is skipped (a few tries).
    const skipped: string[] = []
    let chosen = await pickKeyword(userId, market)
    while (chosen && skipped.length < MAX_OVERLAP_SKIPS) {
      const overlap = await findOverlap(userId, chosen.keyword)
      if (!overlap) break
      log('autopilot skipped an overlapping keyword', { userId, keyword: chosen.keyword, overlaps: overlap.title })
      skipped.push(normalizeKeyword(chosen.keyword))
      chosen = await pickKeyword(userId, market, skipped)
    }
    if (chosen && skipped.length >= MAX_OVERLAP_SKIPS) chosen = null
    if (!chosen)
      return await skip(
        skipped.length ? 'every unused keyword overlaps an existing post' : 'no unused keyword',
        AUTOPILOT_MESSAGES.noKeywordNotice,
      )

    const created = await createPost({ userId, keywordId: chosen.id, requestKey, source: 'autopilot' })
    if (!created.ok) {
      if (created.reason === 'quota') return await skip('blog post quota used up', AUTOPILOT_MESSAGES.quotaNotice)
      if (created.reason === 'unavailable') throw new Error('post generation is unavailable')
      return await skip(`post could not be created (${created.reason})`)
    }
    await finishRun(runId, { status: 'completed', keywordId: chosen.id, postId: created.postId, note: null })
    if (settings.notice) await updateSettings(userId, { notice: null })
    log('autopilot run wrote a post', { userId, slot, keyword: chosen.keyword, postId: created.postId })
    return { status: 'completed', postId: created.postId, keywordId: chosen.id, keyword: chosen.keyword }
  } catch (error) {
    await finishRun(runId, { status: 'failed', note: String((error as Error)?.message ?? error).slice(0, 500) }).catch(
      () => {},
    )
    throw error
  }
}

/**
 * A finished Auto Pilot post goes through the review gate (app/server/publishing/review.server.ts): published to
 * Auto Pilot's destinations and webhook when it passes the user's bar, otherwise held for review.
 */
export async function publishAutopilotPost(postId: string) {
  return gateAutopilotPost(postId)
}
