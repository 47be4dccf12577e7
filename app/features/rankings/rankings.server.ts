import { and, eq, inArray, isNotNull, isNull, sql, type Placeholder } from 'drizzle-orm'
import { isUuid } from '#app/platform/security/ids'
import { findCountry } from '#app/platform/markets/markets'
import {
  addDays,
  domainOf,
  findPosition,
  normalizeKeyword,
  positionChange,
  RANKINGS_PAGE_SIZE,
  TRACKED_KEYWORD_LIMITS,
  utcDay,
  type PositionPoint,
} from './rankings'
import { db, schema, sqlClient } from '#app/platform/db/client.server'
import { getEnv, services } from '#app/platform/env.server'
import { redis } from '#app/platform/redis.server'
import { getSerp } from '#app/features/keywords/serp.server'
import { hourlyShare, retryAt, STALE_CLAIM_MS } from '#app/platform/work/daily-units'

/**
 * Rank tracking: which keywords a user tracks (published posts' keywords and starred saved keywords, within the
 * plan's limit), the daily check list (one SERP call per distinct keyword, market and day, shared by every user
 * tracking it, claimed by workers with SKIP LOCKED so several workers and a crashed one never double up), and the
 * figures /rankings and the API show.
 */
const tk = schema.trackedKeywords
const kp = schema.keywordPositions

/** Attempts of one check within its day before the day is recorded as a gap. */
export const MAX_CHECK_ATTEMPTS = 4

export async function trackingLimit(userId: string): Promise<number> {
  const [sub] = await db
    .select({ status: schema.subscriptions.status })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
    .limit(1)
  return sub && (sub.status === 'active' || sub.status === 'past_due')
    ? TRACKED_KEYWORD_LIMITS.premium
    : TRACKED_KEYWORD_LIMITS.trial
}

/** The number of tracked keywords a subscription status allows. */
function limitForStatus(status: string | null) {
  return status === 'active' || status === 'past_due' ? TRACKED_KEYWORD_LIMITS.premium : TRACKED_KEYWORD_LIMITS.trial
}

/** `status`: the user's subscription status when the caller already has it (no statement of its own then). */
export async function trackingUsage(userId: string, status?: string | null) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(tk)
    .where(eq(tk.userId, userId))
  const limit = status === undefined ? await trackingLimit(userId) : limitForStatus(status)
  return { tracked: row?.count ?? 0, limit }
}

/**
 * /profile's Rankings card, as columns of the page's one statement (issue 17): the keywords tracked and whether the
 * weekly digest is on (on until turned off); `toRankingsCard` adds the plan's limit from the subscription status.
 */
export function rankingsCardColumns(userId: string | Placeholder) {
  const prefs = schema.rankingsPreferences
  return {
    tracked: sql<number>`(select count(*)::int from ${tk} where ${tk.userId} = ${userId})`,
    digest: sql<boolean | null>`(select ${prefs.digestEnabled} from ${prefs} where ${prefs.userId} = ${userId})`,
  }
}

export function toRankingsCard(row: { tracked: number | null; digest: boolean | null }, status: string | null) {
  return { tracked: row.tracked ?? 0, limit: limitForStatus(status), digestEnabled: row.digest ?? true }
}

type TrackInput = {
  userId: string
  keyword: string
  countryCode: string
  languageCode: string
  countryName?: string
  savedKeywordId?: string | null
  postId?: string | null
  starred: boolean
}

/**
 * Tracks a keyword in a market, or marks an existing row starred / linked to a post. The plan's limit is enforced
 * in one transaction under a per-user advisory lock, so two concurrent requests cannot both take the last place.
 */
export async function trackKeyword(
  input: TrackInput,
): Promise<{ ok: true; id: string } | { ok: false; reason: 'limit'; limit: number }> {
  const norm = normalizeKeyword(input.keyword)
  const limit = await trackingLimit(input.userId)
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'tracked:' + input.userId}))`)
    const [existing] = await tx
      .select({ id: tk.id })
      .from(tk)
      .where(
        and(
          eq(tk.userId, input.userId),
          eq(tk.keywordNorm, norm),
          eq(tk.countryCode, input.countryCode),
          eq(tk.languageCode, input.languageCode),
        ),
      )
      .limit(1)
    if (existing) {
      await tx
        .update(tk)
        .set({
          ...(input.starred ? { starred: true } : {}),
          ...(input.postId ? { postId: input.postId } : {}),
          ...(input.savedKeywordId ? { savedKeywordId: input.savedKeywordId } : {}),
        })
        .where(eq(tk.id, existing.id))
      return { ok: true as const, id: existing.id }
    }
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(tk)
      .where(eq(tk.userId, input.userId))
    if ((count?.n ?? 0) >= limit) return { ok: false as const, reason: 'limit' as const, limit }
    const [row] = await tx
      .insert(tk)
      .values({
        userId: input.userId,
        keyword: input.keyword.trim(),
        keywordNorm: norm,
        countryCode: input.countryCode,
        languageCode: input.languageCode,
        countryName: input.countryName ?? findCountry(input.countryCode)?.label ?? '',
        starred: input.starred,
        postId: input.postId ?? null,
        savedKeywordId: input.savedKeywordId ?? null,
      })
      .returning({ id: tk.id })
    return { ok: true as const, id: row!.id }
  })
}

/** The star on a saved keyword (its own market). */
export async function starSavedKeyword(userId: string, savedKeywordId: string) {
  if (!isUuid(savedKeywordId)) return { ok: false as const, reason: 'not_found' as const }
  const [kw] = await db
    .select()
    .from(schema.savedKeywords)
    .where(and(eq(schema.savedKeywords.id, savedKeywordId), eq(schema.savedKeywords.userId, userId)))
    .limit(1)
  if (!kw) return { ok: false as const, reason: 'not_found' as const }
  return trackKeyword({
    userId,
    keyword: kw.keyword,
    countryCode: kw.countryCode,
    languageCode: kw.languageCode,
    countryName: kw.countryName,
    savedKeywordId: kw.id,
    starred: true,
  })
}

/**
 * Removes the star: a starred-only keyword stops being tracked (its history goes with it); a published post's
 * keyword stays tracked. `id` is a saved keyword id or a tracked keyword id.
 */
export async function unstar(userId: string, id: string) {
  const row = await findTracked(userId, id)
  if (!row) return { ok: false as const, reason: 'not_found' as const }
  if (row.postId) await db.update(tk).set({ starred: false }).where(eq(tk.id, row.id))
  else await db.delete(tk).where(eq(tk.id, row.id))
  return { ok: true as const, stillTracked: Boolean(row.postId) }
}

async function findTracked(userId: string, id: string) {
  if (!isUuid(id)) return undefined
  const [row] = await db
    .select()
    .from(tk)
    .where(and(eq(tk.userId, userId), sql`(${tk.id} = ${id} or ${tk.savedKeywordId} = ${id})`))
    .limit(1)
  return row
}

/**
 * Every published post's keyword is tracked in its keyword's market (or the user's), as long as the plan allows.
 * Idempotent; run by the daily job before it plans the day (and after a publish).
 */
export async function syncPublishedPosts(userId?: string) {
  const posts = schema.blogPosts
  const rows = await db
    .select({
      postId: posts.id,
      userId: posts.userId,
      keyword: posts.keyword,
      kwCountry: schema.savedKeywords.countryCode,
      kwCountryName: schema.savedKeywords.countryName,
      kwLanguage: schema.savedKeywords.languageCode,
      savedKeywordId: schema.savedKeywords.id,
      userCountry: schema.users.countryCode,
      userLanguage: schema.users.languageCode,
    })
    .from(posts)
    .innerJoin(schema.users, eq(schema.users.id, posts.userId))
    .leftJoin(schema.savedKeywords, eq(schema.savedKeywords.id, posts.keywordId))
    .where(
      and(
        isNotNull(posts.publishedUrl),
        isNull(posts.deletingAt),
        userId ? eq(posts.userId, userId) : undefined,
        sql`not exists (select 1 from ${tk} where ${tk.postId} = ${posts.id})`,
      ),
    )
  let tracked = 0
  for (const r of rows) {
    const countryCode = r.kwCountry ?? r.userCountry
    const languageCode = r.kwLanguage ?? r.userLanguage
    if (!countryCode || !languageCode || !r.keyword.trim()) continue
    const result = await trackKeyword({
      userId: r.userId,
      keyword: r.keyword,
      countryCode,
      languageCode,
      countryName: r.kwCountryName ?? undefined,
      savedKeywordId: r.savedKeywordId,
      postId: r.postId,
      starred: false,
    })
    if (result.ok) tracked++
  }
  return { tracked }
}

// ---------------------------------------------------------------------------
// The daily checks
// ---------------------------------------------------------------------------

/**
 * Puts today's checks on the list: one per distinct keyword and market. A check already done today is opened
 * again only when somebody started tracking that keyword since (the SERP answer is then served from the cache).
 */
export async function planDay(day: string) {
  const q = sqlClient()
  const inserted = await q`
    insert into rank_checks (keyword_norm, country_code, language_code, day)
    select distinct keyword_norm, country_code, language_code, ${day} from tracked_keywords
    on conflict do nothing
    returning keyword_norm`
  await q`
    update rank_checks c set status = 'pending', next_attempt_at = null
    where c.day = ${day} and c.status = 'done' and exists (
      select 1 from tracked_keywords t
      where t.keyword_norm = c.keyword_norm and t.country_code = c.country_code and t.language_code = c.language_code
        and not exists (select 1 from keyword_positions p where p.tracked_keyword_id = t.id and p.day = ${day}))`
  return { planned: inserted.length }
}

/** Checks of earlier days that never succeeded become gaps ('error' rows), never 'not ranked'. */
export async function closeEarlierDays(day: string) {
  const q = sqlClient()
  const open = await q<{ keyword_norm: string; country_code: string; language_code: string; day: string }[]>`
    update rank_checks set status = 'failed', error = coalesce(error, 'not checked within the day')
    where day < ${day} and status in ('pending', 'running')
    returning keyword_norm, country_code, language_code, day`
  for (const c of open) await recordGap(c.keyword_norm, c.country_code, c.language_code, c.day)
  return { closed: open.length }
}

async function recordGap(keywordNorm: string, countryCode: string, languageCode: string, day: string) {
  await sqlClient()`
    insert into keyword_positions (tracked_keyword_id, day, status, position, url)
    select id, ${day}, 'error', null, null from tracked_keywords
    where keyword_norm = ${keywordNorm} and country_code = ${countryCode} and language_code = ${languageCode}
    on conflict (tracked_keyword_id, day) do nothing`
}

type Claimed = { keyword_norm: string; country_code: string; language_code: string; day: string; attempts: number }

async function claimNext(day: string, at: Date): Promise<Claimed | undefined> {
  // Raw queries take times as ISO strings (drizzle's postgres driver passes timestamps through untouched).
  const now = at.toISOString()
  const staleBefore = new Date(at.getTime() - STALE_CLAIM_MS).toISOString()
  const [row] = await sqlClient()<Claimed[]>`
    update rank_checks c set status = 'running', claimed_at = ${now}, attempts = c.attempts + 1
    from (
      select keyword_norm, country_code, language_code, day from rank_checks
      where day = ${day} and (
        (status = 'pending' and (next_attempt_at is null or next_attempt_at <= ${now}))
        or (status = 'running' and claimed_at < ${staleBefore}))
      order by keyword_norm, country_code, language_code
      limit 1
      for update skip locked
    ) n
    where c.keyword_norm = n.keyword_norm and c.country_code = n.country_code and c.language_code = n.language_code
      and c.day = n.day
    returning c.keyword_norm, c.country_code, c.language_code, c.day, c.attempts`
  return row
}

/** Waits while every worker together has used this minute's SERP budget (a Redis counter per minute). */
async function takeRateToken() {
  const perMinute = getEnv().RANKINGS_SERP_PER_MINUTE
  for (;;) {
    const minute = Math.floor(Date.now() / 60_000)
    const key = `${getEnv().QUEUE_PREFIX}:rankings:serp-rate:${minute}`
    const used = await redis().incr(key)
    if (used === 1) await redis().expire(key, 120)
    if (used <= perMinute) return
    await new Promise((r) => setTimeout(r, (minute + 1) * 60_000 - Date.now() + 10))
  }
}

/** Stores the positions of everybody tracking this keyword and market, from one SERP answer. */
async function applySerp(check: Claimed, items: Array<{ rank: number; url: string; domain: string }>) {
  const rows = await db
    .select({ id: tk.id, website: schema.users.website, publishedUrl: schema.blogPosts.publishedUrl })
    .from(tk)
    .innerJoin(schema.users, eq(schema.users.id, tk.userId))
    .leftJoin(schema.blogPosts, eq(schema.blogPosts.id, tk.postId))
    .where(
      and(
        eq(tk.keywordNorm, check.keyword_norm),
        eq(tk.countryCode, check.country_code),
        eq(tk.languageCode, check.language_code),
      ),
    )
  if (rows.length === 0) return 0
  const values = rows.map((r) => {
    const domains = [domainOf(r.website), domainOf(r.publishedUrl)].filter((d): d is string => Boolean(d))
    const found = findPosition(items, domains)
    return {
      trackedKeywordId: r.id,
      day: check.day,
      status: found ? ('ranked' as const) : ('not_ranked' as const),
      position: found?.position ?? null,
      url: found?.url ?? null,
    }
  })
  await db
    .insert(kp)
    .values(values)
    .onConflictDoUpdate({
      target: [kp.trackedKeywordId, kp.day],
      set: {
        status: sql`excluded.status`,
        position: sql`excluded.position`,
        url: sql`excluded.url`,
        checkedAt: sql`now()`,
      },
    })
  const ranked = values.filter((v) => v.position !== null)
  if (ranked.length > 0) {
    await db.execute(sql`
      update tracked_keywords t set best_position = least(coalesce(t.best_position, p.position), p.position)
      from keyword_positions p
      where p.tracked_keyword_id = t.id and p.day = ${check.day} and p.position is not null
        and t.id in (${sql.join(
          ranked.map((r) => sql`${r.trackedKeywordId}::uuid`),
          sql`, `,
        )})`)
  }
  return values.length
}

export type CheckRunResult = { checked: number; failed: number; retrying: number; stoppedBecause?: string }

/**
 * Works through up to `max` of the day's checks. Each SERP failure is retried later the same day (30 minutes,
 * then an hour…); after MAX_CHECK_ATTEMPTS the day is recorded as a gap. Without DataForSEO nothing is claimed.
 */
export async function runRankChecks(opts: { day: string; now: Date; max: number }): Promise<CheckRunResult> {
  const result: CheckRunResult = { checked: 0, failed: 0, retrying: 0 }
  if (!services().dataforseo) return { ...result, stoppedBecause: 'not_configured' }
  for (let i = 0; i < opts.max; i++) {
    const check = await claimNext(opts.day, opts.now)
    if (!check) break
    await takeRateToken()
    const answer = await getSerp({
      keyword: check.keyword_norm,
      countryCode: check.country_code,
      languageCode: check.language_code,
      depth: 100,
      maxAgeDays: 0,
    }).catch((error: unknown) => ({ ok: false as const, reason: error instanceof Error ? error.message : 'error' }))
    const key = sql`keyword_norm = ${check.keyword_norm} and country_code = ${check.country_code}
      and language_code = ${check.language_code} and day = ${check.day}`
    if (answer.ok) {
      await applySerp(check, answer.serp.items)
      await db.execute(sql`update rank_checks set status = 'done', error = null where ${key}`)
      result.checked++
      continue
    }
    if (answer.reason === 'not_configured') {
      await db.execute(sql`update rank_checks set status = 'pending', attempts = attempts - 1 where ${key}`)
      return { ...result, stoppedBecause: 'not_configured' }
    }
    if (check.attempts >= MAX_CHECK_ATTEMPTS) {
      await db.execute(sql`update rank_checks set status = 'failed', error = ${answer.reason} where ${key}`)
      await recordGap(check.keyword_norm, check.country_code, check.language_code, check.day)
      result.failed++
    } else {
      const next = retryAt(opts.now, check.attempts).toISOString()
      await db.execute(
        sql`update rank_checks set status = 'pending', error = ${answer.reason}, next_attempt_at = ${next} where ${key}`,
      )
      result.retrying++
    }
  }
  return result
}

/**
 * The hourly tick: closes earlier days, plans today, and works through today's share of the open checks, so that
 * the day's checks are spread over the hours left (the last hour takes whatever is left).
 */
export async function rankingsTick(now: Date) {
  const day = utcDay(now)
  await syncPublishedPosts()
  const closed = await closeEarlierDays(day)
  const planned = await planDay(day)
  const [open] = await sqlClient()<{ n: number }[]>`
    select count(*)::int as n from rank_checks where day = ${day} and status in ('pending', 'running')`
  const max = hourlyShare(open?.n ?? 0, now)
  const run = await runRankChecks({ day, now, max })
  return { day, ...closed, ...planned, open: open?.n ?? 0, ...run }
}

// ---------------------------------------------------------------------------
// Reading: the /rankings table, histories, the API
// ---------------------------------------------------------------------------

export type RankingRow = {
  id: string
  keyword: string
  countryCode: string
  countryName: string
  languageCode: string
  starred: boolean
  postId: string | null
  postTitle: string | null
  savedKeywordId: string | null
  latest: PositionPoint | null
  url: string | null
  change7: number | null
  change28: number | null
  best: number | null
  spark: PositionPoint[]
  source: 'serp' | 'search_console'
}

/**
 * The table, newest movers first. One query gives every tracked keyword with its latest check and the checks 7 and
 * 28 days before it (primary-key lookups, so the cost does not grow with the history); without DataForSEO one
 * query gives Search Console's average positions instead. With `page`, only that page's rows are returned, with
 * their sparklines (one more query, for those rows only).
 */
export async function listRankings(userId: string, opts: { market?: string; page?: number } = {}) {
  const q = sqlClient()
  const market = opts.market && /^\d{1,10}$/.test(opts.market) ? opts.market : null
  type Status = PositionPoint['status']
  const keywords = await q<
    {
      id: string
      keyword: string
      keyword_norm: string
      country_code: string
      country_name: string
      language_code: string
      starred: boolean
      post_id: string | null
      post_title: string | null
      saved_keyword_id: string | null
      best_position: number | null
      day: string | null
      status: Status | null
      position: number | null
      url: string | null
      status7: Status | null
      position7: number | null
      status28: Status | null
      position28: number | null
    }[]
  >`
    select t.id, t.keyword, t.keyword_norm, t.country_code, t.country_name, t.language_code, t.starred, t.post_id,
      p.title as post_title, t.saved_keyword_id, t.best_position, l.day, l.status, l.position, l.url,
      w7.status as status7, w7.position as position7, w28.status as status28, w28.position as position28
    from tracked_keywords t
    left join blog_posts p on p.id = t.post_id and p.deleting_at is null
    left join lateral (
      select day, status, position, url from keyword_positions k
      where k.tracked_keyword_id = t.id order by k.day desc limit 1
    ) l on true
    left join keyword_positions w7 on w7.tracked_keyword_id = t.id and w7.day = to_char(l.day::date - 7, 'YYYY-MM-DD')
    left join keyword_positions w28 on w28.tracked_keyword_id = t.id and w28.day = to_char(l.day::date - 28, 'YYYY-MM-DD')
    where t.user_id = ${userId} ${market ? q`and t.country_code = ${market}` : q``}
    order by t.created_at desc`
  const asOf = keywords.reduce((m, k) => (k.day && k.day > m ? k.day : m), '')
  // The sparkline window (and what counts as today's position): the 28 days up to the newest check of any row.
  const from = asOf ? addDays(asOf, -28) : ''
  let source: RankingRow['source'] = 'serp'
  const gsc = new Map<string, PositionPoint[]>()
  if (!services().dataforseo && keywords.length > 0) {
    source = 'search_console'
    const norms = [...new Set(keywords.map((k) => k.keyword_norm))]
    const rows = await q<{ query: string; day: string; position: number }[]>`
      with last as (select max(day) as d from search_console_stats where user_id = ${userId})
      select s.query, s.day, round(sum(s.position * s.impressions) / nullif(sum(s.impressions), 0))::int as position
      from search_console_stats s, last
      where s.user_id = ${userId} and s.query = any(${norms}) and s.day >= to_char(last.d::date - 28, 'YYYY-MM-DD')
      group by s.query, s.day order by s.query, s.day`
    for (const r of rows) {
      const list = gsc.get(r.query) ?? []
      list.push({ day: r.day, position: r.position, status: 'ranked' })
      gsc.set(r.query, list)
    }
  }
  const point = (day: string | null, status: Status | null, position: number | null): PositionPoint | null =>
    day && status ? { day, status, position } : null
  const all: RankingRow[] = keywords.map((k) => {
    let latest: PositionPoint | null
    let change7: number | null
    let change28: number | null
    let best: number | null
    if (source === 'serp') {
      latest = k.day && k.day >= from ? point(k.day, k.status, k.position) : null
      const ref = latest?.day ?? asOf
      // No check of any row yet (a keyword starred a moment ago): no day to count back from.
      const known = ref
        ? [latest, point(addDays(ref, -7), k.status7, k.position7), point(addDays(ref, -28), k.status28, k.position28)]
        : []
      const points = known.filter((p): p is PositionPoint => p !== null)
      change7 = ref ? positionChange(points, ref, 7) : null
      change28 = ref ? positionChange(points, ref, 28) : null
      best = k.best_position
    } else {
      const points = gsc.get(k.keyword_norm) ?? []
      latest = points[points.length - 1] ?? null
      const ref = latest?.day ?? asOf
      change7 = ref ? positionChange(points, ref, 7) : null
      change28 = ref ? positionChange(points, ref, 28) : null
      best = points.reduce<number | null>(
        (b, p) => (p.position !== null && (b === null || p.position < b) ? p.position : b),
        null,
      )
    }
    return {
      id: k.id,
      keyword: k.keyword,
      countryCode: k.country_code,
      countryName: k.country_name,
      languageCode: k.language_code,
      starred: k.starred,
      postId: k.post_id,
      postTitle: k.post_title,
      savedKeywordId: k.saved_keyword_id,
      latest,
      url: latest ? k.url : null,
      change7,
      change28,
      best,
      spark: source === 'serp' ? [] : (gsc.get(k.keyword_norm) ?? []),
      source,
    }
  })
  all.sort((a, b) => Math.abs(b.change7 ?? 0) - Math.abs(a.change7 ?? 0) || a.keyword.localeCompare(b.keyword))
  const pageCount = Math.max(1, Math.ceil(all.length / RANKINGS_PAGE_SIZE))
  const page = opts.page === undefined ? null : Math.min(Math.max(1, Math.floor(opts.page) || 1), pageCount)
  const rows = page === null ? all : all.slice((page - 1) * RANKINGS_PAGE_SIZE, page * RANKINGS_PAGE_SIZE)
  if (page !== null && source === 'serp' && rows.length > 0) {
    const points = await q<{ id: string; day: string; status: Status; position: number | null }[]>`
      select tracked_keyword_id as id, day, status, position from keyword_positions
      where tracked_keyword_id = any(${rows.map((r) => r.id)}::uuid[]) and day >= ${from}
      order by tracked_keyword_id, day`
    const byId = new Map(rows.map((r) => [r.id, r]))
    for (const p of points) byId.get(p.id)?.spark.push({ day: p.day, status: p.status, position: p.position })
  }
  const markets = [
    ...new Map(
      (market
        ? await q<{ country_code: string; country_name: string }[]>`
            select distinct country_code, country_name from tracked_keywords where user_id = ${userId}`
        : keywords
      ).map((k) => [k.country_code, k.country_name || k.country_code]),
    ),
  ].map(([value, label]) => ({ value, label }))
  return { asOf: asOf || null, rows, markets, market, total: all.length, page: page ?? 1, pageCount }
}

/** Every recorded day of one tracked keyword (by tracked or saved keyword id), oldest first. */
export async function keywordHistory(userId: string, id: string, opts: { days?: number } = {}) {
  const row = await findTracked(userId, id)
  if (!row) return null
  const days = Math.min(Math.max(opts.days ?? 365, 1), 3650)
  const points = await sqlClient()<
    { day: string; status: PositionPoint['status']; position: number | null; url: string | null }[]
  >`
    select day, status, position, url from keyword_positions
    where tracked_keyword_id = ${row.id}
      and day >= to_char((select max(day) from keyword_positions where tracked_keyword_id = ${row.id})::date - ${days}::int, 'YYYY-MM-DD')
    order by day`
  return { keyword: row, points }
}

/** Search Console clicks and impressions per day for one page (a post's published URL). */
export async function pageTraffic(userId: string, page: string | null, days = 365) {
  if (!page) return []
  const rows = await sqlClient()<{ day: string; clicks: number; impressions: number }[]>`
    select day, sum(clicks)::int as clicks, sum(impressions)::int as impressions from search_console_stats
    where user_id = ${userId} and page = ${page}
      and day >= to_char((select max(day) from search_console_stats where user_id = ${userId})::date - ${days}::int, 'YYYY-MM-DD')
    group by day order by day`
  return rows.map((r) => ({ day: r.day, clicks: r.clicks, impressions: r.impressions }))
}

/** The tracked keyword of a post and its history, for the post page's chart. */
export async function postRankings(userId: string, postId: string) {
  const [row] = await db
    .select({ id: tk.id })
    .from(tk)
    .where(and(eq(tk.userId, userId), eq(tk.postId, postId)))
    .limit(1)
  const [post] = await db
    .select({ publishedUrl: schema.blogPosts.publishedUrl })
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.id, postId), eq(schema.blogPosts.userId, userId)))
    .limit(1)
  const history = row ? await keywordHistory(userId, row.id) : null
  const traffic = await pageTraffic(userId, post?.publishedUrl ?? null)
  if (!history && traffic.length === 0) return null
  return {
    keyword: history?.keyword.keyword ?? '',
    points: (history?.points ?? []).map((p) => ({ day: p.day, position: p.position, status: p.status })),
    traffic,
  }
}

export function toApiRanking(row: RankingRow) {
  return {
    id: row.id,
    keyword: row.keyword,
    countryCode: row.countryCode,
    countryName: row.countryName,
    languageCode: row.languageCode,
    starred: row.starred,
    postId: row.postId,
    savedKeywordId: row.savedKeywordId,
    position: row.latest?.position ?? null,
    status: row.latest?.status ?? 'unchecked',
    checkedOn: row.latest?.day ?? null,
    url: row.url,
    change7: row.change7,
    change28: row.change28,
    best: row.best,
    source: row.source,
  }
}

export async function trackedIdsForSavedKeywords(userId: string, savedKeywordIds: string[]) {
  if (savedKeywordIds.length === 0) return new Set<string>()
  const rows = await db
    .select({ id: tk.savedKeywordId })
    .from(tk)
    .where(and(eq(tk.userId, userId), eq(tk.starred, true), inArray(tk.savedKeywordId, savedKeywordIds)))
  return new Set(rows.map((r) => r.id!))
}

export { addDays, utcDay }

/** The user's saved keywords that are not starred for tracking yet (the 'Track a keyword' list), by keyword. */
export async function untrackedSavedKeywords(userId: string, limit = 500) {
  return db
    .select({
      id: schema.savedKeywords.id,
      keyword: schema.savedKeywords.keyword,
      country: schema.savedKeywords.countryName,
    })
    .from(schema.savedKeywords)
    .where(
      and(
        eq(schema.savedKeywords.userId, userId),
        sql`not exists (select 1 from tracked_keywords t where t.saved_keyword_id = ${schema.savedKeywords.id} and t.starred)`,
      ),
    )
    .orderBy(schema.savedKeywords.keyword)
    .limit(limit)
}

/** The published URL of a tracked keyword's post, or null. */
export async function trackedPostUrl(postId: string | null) {
  if (!postId) return null
  const [post] = await db
    .select({ url: schema.blogPosts.publishedUrl })
    .from(schema.blogPosts)
    .where(eq(schema.blogPosts.id, postId))
  return post?.url ?? null
}
