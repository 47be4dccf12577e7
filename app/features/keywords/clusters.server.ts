import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { services } from '#app/platform/env.server'
import {
  CLUSTER_KEYWORD_CAP,
  CLUSTER_MESSAGES,
  CLUSTER_SERP_MAX_AGE_DAYS,
  CLUSTER_TOP,
  clusterKeywords,
  type ClusterMarket,
  type ClusterMember,
  type ClusterRunView,
  type KeywordCluster,
} from './clusters'
import { chargeLookupIn, lookupAllowed, LookupOverQuota, type Lookup } from './lookups.server'
import { normalizeSerpKeyword, serpDay } from './serp'
import { getSerp, serpMarket } from './serp.server'
import { enqueueClusterSerps } from './jobs/cluster-serps.server'

/**
 * Issue 36, point 3 (decision 0363): clustering runs and clusters.
 * - `startClusterRun` starts (or answers) the user's run for a market: one run in progress per user and market (the
 *   unique index keyword_cluster_runs_active_idx), refused at the keyword search limit (a run is one 'clusters'
 *   lookup, subject `country|language`, charged once per UTC day when it completes: a run that could read nothing
 *   charges nothing).
 * - the worker's `runClusterSerps` reads the results page of each of the newest CLUSTER_KEYWORD_CAP saved keywords
 *   that has none from the last CLUSTER_SERP_MAX_AGE_DAYS days (getSerp, depth 10, shared cache), a few at a time.
 * - `listClusters` groups on read: the saved keywords and their newest results page in serp_cache.
 */
const runs = schema.keywordClusterRuns
const saved = schema.savedKeywords

/** How many results pages a run reads at once. */
const SERP_CONCURRENCY = 4
/** A run still 'queued' or 'running' after this long lost its job (Redis emptied, say): a new click replaces it. */
const STALE_RUN_MS = 15 * 60_000

type RunRow = typeof runs.$inferSelect

export function toRunView(row: RunRow): ClusterRunView {
  return {
    id: row.id,
    status: row.status,
    keywordCount: row.keywordCount,
    fetchedCount: row.fetchedCount,
    failedCount: row.failedCount,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  }
}

const lookupOf = (market: ClusterMarket): Lookup => ({
  kind: 'clusters',
  subject: `${market.countryCode}|${market.languageCode}`,
  countryCode: market.countryCode,
  languageCode: market.languageCode,
})

const marketWhere = (userId: string, market: ClusterMarket) =>
  and(
    eq(saved.userId, userId),
    eq(saved.searchedViaAutoPilot, false),
    eq(saved.countryCode, market.countryCode),
    eq(saved.languageCode, market.languageCode),
  )

/** The markets of the user's saved keywords (searched by hand), the one with most keywords first. */
export async function clusterMarkets(userId: string) {
  const rows = await db
    .select({
      countryCode: saved.countryCode,
      languageCode: saved.languageCode,
      countryName: sql<string>`max(${saved.countryName})`,
      languageName: sql<string>`max(${saved.languageName})`,
      count: sql<number>`count(*)::int`,
    })
    .from(saved)
    .where(and(eq(saved.userId, userId), eq(saved.searchedViaAutoPilot, false)))
    .groupBy(saved.countryCode, saved.languageCode)
    .orderBy(sql`count(*) desc`, saved.countryCode, saved.languageCode)
    .limit(50)
  return rows.map((r) => ({
    ...r,
    label: [r.countryName || r.countryCode, r.languageName || r.languageCode].join(' · '),
  }))
}

/** The newest saved keywords of the market (at most CLUSTER_KEYWORD_CAP), as clustering reads them. */
async function marketKeywords(userId: string, market: ClusterMarket) {
  return db
    .select({ id: saved.id, keyword: saved.keyword, volume: saved.avgMonthlySearches })
    .from(saved)
    .where(marketWhere(userId, market))
    .orderBy(desc(saved.createdAt), desc(saved.id))
    .limit(CLUSTER_KEYWORD_CAP)
}

/** The top-10 URLs of the newest results page (at most CLUSTER_SERP_MAX_AGE_DAYS old) of each keyword, by keyword. */
async function freshSerpUrls(keywords: string[], market: ClusterMarket): Promise<Map<string, string[]>> {
  const m = serpMarket(market.countryCode, market.languageCode)
  const normalized = [...new Set(keywords.map(normalizeSerpKeyword))].filter(Boolean)
  if (!m || normalized.length === 0) return new Map()
  const oldest = serpDay(new Date(Date.now() - CLUSTER_SERP_MAX_AGE_DAYS * 86_400_000))
  const c = schema.serpCache
  const rows = await db
    .selectDistinctOn([c.keyword], {
      keyword: c.keyword,
      urls: sql<
        string[] | null
      >`jsonb_path_query_array(${c.result}, ${`$.items[0 to ${CLUSTER_TOP - 1}].url`}::jsonpath)`,
    })
    .from(c)
    .where(
      and(
        inArray(c.keyword, normalized),
        eq(c.countryCode, String(m.location_code)),
        eq(c.languageCode, m.language_code),
        sql`${c.fetchedOn} >= ${oldest}`,
        sql`${c.depth} >= ${CLUSTER_TOP}`,
      ),
    )
    .orderBy(c.keyword, desc(c.fetchedOn))
  return new Map(rows.map((r) => [r.keyword, Array.isArray(r.urls) ? r.urls.filter((u) => typeof u === 'string') : []]))
}

/** The user's newest run for the market, or null. */
export async function latestClusterRun(userId: string, market: ClusterMarket): Promise<ClusterRunView | null> {
  const [row] = await db
    .select()
    .from(runs)
    .where(
      and(
        eq(runs.userId, userId),
        eq(runs.countryCode, market.countryCode),
        eq(runs.languageCode, market.languageCode),
      ),
    )
    .orderBy(desc(runs.createdAt))
    .limit(1)
  return row ? toRunView(row) : null
}

async function activeRun(userId: string, market: ClusterMarket) {
  const [row] = await db
    .select()
    .from(runs)
    .where(
      and(
        eq(runs.userId, userId),
        eq(runs.countryCode, market.countryCode),
        eq(runs.languageCode, market.languageCode),
        inArray(runs.status, ['queued', 'running']),
      ),
    )
    .limit(1)
  return row ?? null
}

export type StartClusterRunResult =
  { ok: true; run: ClusterRunView; started: boolean } | { ok: false; reason: 'quota' | 'no_keywords' | 'unavailable' }

/**
 * 'Group by topic': a run in progress for the market is answered as it is (a second click starts nothing); else,
 * within the plan's keyword searches (a run made already today is free), a new run is written and its job queued.
 */
export async function startClusterRun(userId: string, market: ClusterMarket): Promise<StartClusterRunResult> {
  if (!services().dataforseo) return { ok: false, reason: 'unavailable' }
  let active: RunRow | null = await activeRun(userId, market)
  if (active && Date.now() - active.createdAt.getTime() > STALE_RUN_MS) {
    await db
      .update(runs)
      .set({ status: 'failed', error: CLUSTER_MESSAGES.stalled, finishedAt: new Date() })
      .where(and(eq(runs.id, active.id), inArray(runs.status, ['queued', 'running'])))
    active = null
  }
  if (active) return { ok: true, run: toRunView(active), started: false }

  const [some] = await db.select({ id: saved.id }).from(saved).where(marketWhere(userId, market)).limit(1)
  if (!some) return { ok: false, reason: 'no_keywords' }
  if (!(await lookupAllowed(userId, lookupOf(market)))) return { ok: false, reason: 'quota' }

  const [inserted] = await db
    .insert(runs)
    .values({ userId, countryCode: market.countryCode, languageCode: market.languageCode })
    .onConflictDoNothing()
    .returning()
  if (!inserted) {
    // Another click won the race: answer its run.
    const other = await activeRun(userId, market)
    if (other) return { ok: true, run: toRunView(other), started: false }
    return { ok: false, reason: 'unavailable' }
  }
  try {
    await enqueueClusterSerps({ runId: inserted.id })
  } catch (error) {
    console.error('[clusters] could not enqueue a clustering run', error)
    await db
      .update(runs)
      .set({ status: 'failed', error: CLUSTER_MESSAGES.unavailable, finishedAt: new Date() })
      .where(eq(runs.id, inserted.id))
    return { ok: false, reason: 'unavailable' }
  }
  return { ok: true, run: toRunView(inserted), started: true }
}

// ---------------------------------------------------------------------------------------------------------------
// The worker's side
// ---------------------------------------------------------------------------------------------------------------

/** Thrown when every read failed and the job has attempts left: BullMQ retries it later. */
export class ClusterRunRetry extends Error {
  override name = 'ClusterRunRetry'
}

/**
 * Reads the missing results pages of a run. Idempotent: a finished run is left alone; a retry (or a run taken over
 * from a killed worker) reads only what is still missing, since every page read is in the shared cache.
 * `lastAttempt`: no retry follows, so a run that could read nothing is marked failed instead of thrown.
 */
export async function runClusterSerps(runId: string, opts: { lastAttempt: boolean }) {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId)).limit(1)
  if (!run || run.status === 'done' || run.status === 'failed') return { skipped: true }
  const market = { countryCode: run.countryCode, languageCode: run.languageCode }
  await db
    .update(runs)
    .set({ status: 'running' })
    .where(and(eq(runs.id, runId), inArray(runs.status, ['queued', 'running'])))

  const keywords = await marketKeywords(run.userId, market)
  const fresh = await freshSerpUrls(
    keywords.map((k) => k.keyword),
    market,
  )
  const missing = [...new Set(keywords.map((k) => normalizeSerpKeyword(k.keyword)).filter((k) => k && !fresh.has(k)))]
  const distinct = new Set(keywords.map((k) => normalizeSerpKeyword(k.keyword)).filter(Boolean)).size
  let fetched = distinct - missing.length
  let failed = 0
  let notConfigured = false
  await db.update(runs).set({ keywordCount: distinct, fetchedCount: fetched, failedCount: 0 }).where(eq(runs.id, runId))

  let next = 0
  const work = async () => {
    while (next < missing.length) {
      const keyword = missing[next++]!
      const answer = await getSerp({ keyword, ...market, depth: 10, maxAgeDays: CLUSTER_SERP_MAX_AGE_DAYS })
      if (answer.ok) fetched++
      else {
        failed++
        if (answer.reason === 'not_configured') notConfigured = true
      }
      await db.update(runs).set({ fetchedCount: fetched, failedCount: failed }).where(eq(runs.id, runId))
    }
  }
  await Promise.all(Array.from({ length: Math.min(SERP_CONCURRENCY, missing.length) }, work))

  const readNothing = missing.length > 0 && failed === missing.length
  if (readNothing && !notConfigured && !opts.lastAttempt)
    throw new ClusterRunRetry(`none of ${missing.length} results pages could be read`)
  if (readNothing) {
    await db
      .update(runs)
      .set({
        status: 'failed',
        error: notConfigured ? CLUSTER_MESSAGES.notConfigured : CLUSTER_MESSAGES.failed,
        finishedAt: new Date(),
      })
      .where(and(eq(runs.id, runId), inArray(runs.status, ['queued', 'running'])))
    return { failed: true, keywords: distinct, fetched, missed: failed }
  }
  // Done (with the pages that could not be read counted): one 'clusters' lookup, charged with the run's end.
  const finish = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
    tx
      .update(runs)
      .set({ status: 'done', error: null, finishedAt: new Date() })
      .where(and(eq(runs.id, runId), inArray(runs.status, ['queued', 'running'])))
      .returning({ id: runs.id })
  try {
    await db.transaction(async (tx) => {
      const [done] = await finish(tx)
      if (done) await chargeLookupIn(tx, run.userId, lookupOf(market))
    })
  } catch (error) {
    if (!(error instanceof LookupOverQuota)) throw error
    // The user spent their last search while the run went on: the pages are read (and shared); the run is done.
    await db.transaction((tx) => finish(tx))
  }
  return { keywords: distinct, fetched, missed: failed }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the clusters
// ---------------------------------------------------------------------------------------------------------------

/** Where a keyword's post stands, by keyword id (publishing's postProgressForKeywords, handed down by the route). */
export type PostsFor<P> = (userId: string, keywordIds: string[]) => Promise<Map<string, P>>

export type ClusterView<P> = KeywordCluster & {
  /** The post of the cluster: its main keyword's, else the first member's that has one. */
  post: { keywordId: string; keyword: string; progress: P } | null
}

export type ClusterList<P> = {
  clusters: Array<ClusterView<P>>
  unclustered: ClusterMember[]
  /** Keywords grouped: the newest CLUSTER_KEYWORD_CAP of the market. */
  keywordCount: number
  /** Keywords without a results page from the last CLUSTER_SERP_MAX_AGE_DAYS days ('Group by topic' reads them). */
  withoutSerp: number
}

/** The clusters of the user's saved keywords of a market, computed now from their newest results pages. */
export async function listClusters<P>(
  userId: string,
  market: ClusterMarket,
  postsFor: PostsFor<P>,
): Promise<ClusterList<P>> {
  const keywords = await marketKeywords(userId, market)
  const serps = await freshSerpUrls(
    keywords.map((k) => k.keyword),
    market,
  )
  let withoutSerp = 0
  const items = keywords.map((k) => {
    const urls = serps.get(normalizeSerpKeyword(k.keyword))
    if (!urls) withoutSerp++
    return { id: k.id, keyword: k.keyword, volume: k.volume, urls: urls ?? [] }
  })
  const { clusters, unclustered } = clusterKeywords(items)
  const ids = clusters.flatMap((c) => [c.main.id, ...c.members.map((m) => m.id)])
  const progress = ids.length ? await postsFor(userId, ids) : new Map<string, P>()
  return {
    clusters: clusters.map((c) => {
      const withPost = [c.main, ...c.members].find((m) => progress.has(m.id))
      return {
        ...c,
        post: withPost
          ? { keywordId: withPost.id, keyword: withPost.keyword, progress: progress.get(withPost.id)! }
          : null,
      }
    }),
    unclustered,
    keywordCount: keywords.length,
    withoutSerp,
  }
}
