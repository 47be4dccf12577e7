import { isUuid } from '#app/platform/security/ids'
import { stripControlCharacters } from '#app/platform/security/safe-text'
import { and, eq, inArray, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm'
import { enqueueGeneratePost, removeGeneratePostJob } from '#app/features/content/jobs/post-generation.server'
import { MAX_BULK_KEYWORDS } from '#app/features/keywords/keyword-library'
import { POST_STATUS_FILTERS, type PostListParams } from './library'
import { containsPattern, decodeCursor, encodeCursor } from '#app/platform/lists/list-params'
import { BadCursorError, exactTime, TIMESTAMP } from '#app/platform/lists/keyset.server'
import { excerpt, type PostStatus } from './posts'
import { findOverlaps } from './cannibalisation.server'
import { db, preparedQuery, schema, sqlClient } from '#app/platform/db/client.server'
import { aiConfigured } from '#app/platform/ai/openai.server'
import type { PostProgress } from '#app/ui/post-progress'
import { isInProgressConflict } from './posts.server'
import { consumeQuota } from '#app/features/billing/quota.server'

/**
 * The posts' library at any size (issue 21): keyset pages of a user's posts with search and filters, deletes, and
 * 'Create posts' for several saved keywords in one transaction (the keywords' own library is in
 * app/features/keywords/keyword-library.server.ts). Every page query walks an index in
 * its sort order from the cursor (never OFFSET); see drizzle/0012_libraries.sql for the indexes.
 */
const posts = schema.blogPosts
const kw = schema.savedKeywords

// ---------------------------------------------------------------------------------------------------------------
// Posts
// ---------------------------------------------------------------------------------------------------------------

/** The library's order: newest first, ties by id (the page index's order). */
const POST_ORDER = [sql`${posts.createdAt} desc`, sql`${posts.id} desc`] as const

function postFilters(userId: string | Placeholder, params: PostListParams): SQL {
  // A post being deleted (issue 33: its live copies are coming down) is in no list.
  const where: SQL[] = [sql`${posts.userId} = ${userId}`, sql`${posts.deletingAt} is null`]
  if (params.status) {
    const statuses = POST_STATUS_FILTERS[params.status].statuses as readonly PostStatus[]
    where.push(inArray(posts.status, [...statuses]))
  }
  if (params.source) where.push(eq(posts.source, params.source))
  if (params.language) where.push(eq(posts.language, params.language))
  if (params.review) where.push(eq(posts.reviewStatus, params.review))
  if (params.q) {
    const pattern = containsPattern(params.q)
    where.push(sql`(${posts.title} ilike ${pattern} or ${posts.keyword} ilike ${pattern})`)
  }
  return and(...where)!
}

function postCursorCondition(cursor: string | undefined): SQL | null {
  if (!cursor) return null
  const values = decodeCursor(cursor)
  if (!values || values.length !== 3 || values[0] !== 'p') throw new BadCursorError()
  const [, at, id] = values
  if (typeof at !== 'string' || !TIMESTAMP.test(at) || typeof id !== 'string' || !isUuid(id)) throw new BadCursorError()
  return sql`(${posts.createdAt}, ${posts.id}) < (${at}::timestamptz, ${id}::uuid)`
}

type PostPageOptions = {
  limit: number
  /**
   * The library screen's other figures, read by the statement that counts the list (one round trip instead of
   * three): the drafts waiting for review and the languages of all the user's posts (the filter's choices, from the
   * (user_id, language) index).
   */
  summary?: boolean
}

/** A post's columns for a card (its excerpt is made from the first 4,000 chars of the Markdown). */
function postColumns() {
  return {
    id: posts.id,
    title: posts.title,
    keyword: posts.keyword,
    status: posts.status,
    source: posts.source,
    language: posts.language,
    failureReason: posts.failureReason,
    seoScore: posts.seoScore,
    reviewStatus: posts.reviewStatus,
    createdAt: posts.createdAt,
    at: exactTime(posts.createdAt).as('at'),
    text: sql<string>`left(${posts.contentMarkdown}, 4000)`.as('text'),
  }
}

/**
 * One page of a user's posts as the library's cards, newest first, with the total of the filtered list and the cursor
 * of the next page (the API's pages with whole posts: `pagePostsJson`).
 */
export async function pagePosts(userId: string, params: PostListParams, opts: PostPageOptions) {
  const plain = !params.cursor && !params.q && !params.status && !params.source && !params.language && !params.review
  if (plain && opts.summary) return firstPageWithSummary(userId, opts.limit)
  const filters = postFilters(userId, params)
  const after = postCursorCondition(params.cursor)
  const rowsQuery = postRows(after ? and(filters, after)! : filters).limit(opts.limit + 1)
  const counted = opts.summary ? postSummary(filters, userId) : postCount(filters)
  const [rows, [count]] = await Promise.all([rowsQuery, counted])
  return postPage(rows, opts.limit, count)
}

/** The number of posts a filtered list holds. */
function postCount(filters: SQL) {
  return db
    .select({ total: sql<number>`count(*)::int` })
    .from(posts)
    .where(filters)
}

/**
 * A post as `GET /api/blogposts` answers it, written as JSON text by Postgres: the fields and order of the spec's
 * answer, the title falling back to the keyword, milliseconds cut as `Date#toISOString` cuts them, and
 * `failure_reason` only on a failed post.
 */
const apiPostFields = sql`'_id', ${posts.id}, 'post_id', ${posts.id},
  'title', coalesce(nullif(${posts.title}, ''), ${posts.keyword}), 'content', ${posts.contentMarkdown},
  'createdAt', to_char(${posts.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'status', ${posts.status}, 'source', ${posts.source}, 'language', ${posts.language}, 'seo_score', ${posts.seoScore}`
const apiPostJson = sql<string>`case when ${posts.status} = 'failed'
  then json_build_object(${apiPostFields}, 'failure_reason', ${posts.failureReason})
  else json_build_object(${apiPostFields}) end`

/**
 * One page of the posts API: each post's JSON as the bytes Postgres sent (`raw`), with the filtered list's total and
 * the next page's cursor. A page is up to 500 whole posts (~3 MB): made into JS objects and encoded again, it cost
 * the web process more than Postgres's reading of it (issue 21: 53 ms p50 for the default page); this way the
 * text is never decoded, only joined.
 */
export async function pagePostsJson(userId: string, params: PostListParams, limit: number) {
  const filters = postFilters(userId, params)
  const after = postCursorCondition(params.cursor)
  const query = db
    .select({ json: apiPostJson, at: exactTime(posts.createdAt), id: posts.id })
    .from(posts)
    .where(after ? and(filters, after)! : filters)
    .orderBy(...POST_ORDER)
    .limit(limit + 1)
    .toSQL()
  const [raw, [count]] = await Promise.all([
    sqlClient()
      .unsafe(query.sql, query.params as never[], { prepare: true })
      .raw(),
    postCount(filters),
  ])
  const rows = (raw as unknown as Buffer[][]).map(([json, at, id]) => ({
    json: json!,
    at: at!.toString('utf8'),
    id: id!.toString('utf8'),
  }))
  const page = postPage(rows, limit, count)
  return { items: page.rows.map((row) => row.json), total: page.total, nextCursor: page.nextCursor }
}

/** A page's rows in the library's order; the caller adds the limit. */
function postRows(where: SQL) {
  return db
    .select(postColumns())
    .from(posts)
    .where(where)
    .orderBy(...POST_ORDER)
}

/**
 * The total of the filtered list with the library screen's other figures (the drafts waiting for review, the
 * languages of all the user's posts), in one statement: one row, the user's own.
 */
function postSummary(filters: SQL, userId: string | Placeholder) {
  return db
    .select(postSummaryColumns(filters, userId))
    .from(schema.users)
    .where(sql`${schema.users.id} = ${userId}`)
}

/** The summary's figures as uncorrelated subqueries: Postgres computes each once per statement, whatever it reads. */
function postSummaryColumns(filters: SQL, userId: string | Placeholder) {
  return {
    total: sql<number>`(select count(*)::int from ${posts} where ${filters})`,
    waiting: sql<number>`(select count(*)::int from ${posts}
      where ${posts.userId} = ${userId} and ${posts.reviewStatus} = 'waiting' and ${posts.deletingAt} is null)`,
    languages: sql<string[]>`array(select distinct ${posts.language} from ${posts}
      where ${posts.userId} = ${userId} order by 1 limit 100)`,
    // Issue 39: whether a post is being deleted, so that the screen reads the deletions only when there are some.
    deleting: sql<boolean>`exists (select 1 from ${posts}
      where ${posts.userId} = ${userId} and ${posts.deletingAt} is not null)`,
  }
}

/** The page (at most `limit` of the `limit + 1` rows read), its figures, and the next page's cursor if there is one. */
function postPage<R extends { at: string; id: string }>(
  rows: R[],
  limit: number,
  count: { total: number; waiting?: number; languages?: string[]; deleting?: boolean } | undefined,
) {
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  return {
    rows: page,
    total: count?.total ?? 0,
    waitingForReview: count?.waiting ?? 0,
    languages: count?.languages ?? [],
    /** With the summary: whether any of the user's posts is being deleted (without it, unknown: true). */
    anyDeleting: count?.deleting ?? true,
    nextCursor: rows.length > limit && last ? encodeCursor(['p', last.at, last.id]) : null,
  }
}

/**
 * The library as most visits open it (the first page, no search or filter, with the screen's figures): one prepared
 * statement (issue 17: drizzle's query building was ~3% of the page's CPU, and each statement is a round trip): the
 * user's row with the figures, joined to the page's posts (LATERAL), so that an account with no posts gets its
 * figures too (one row whose post columns are null). The pool is identified by its client so that a reconnect
 * prepares again.
 */
const firstPageQuery = preparedQuery((d) => {
  const userId = sql.placeholder('userId')
  const filters = postFilters(userId, {})
  const columns = postColumns()
  const page = d
    .select(columns)
    .from(posts)
    .where(filters)
    .orderBy(...POST_ORDER)
    .limit(sql.placeholder('limit'))
    .as('page')
  const pageColumns = Object.fromEntries(Object.keys(columns).map((k) => [k, page[k as keyof typeof columns]])) as {
    [K in keyof typeof columns]: (typeof page)[K]
  }
  return d
    .select({ ...postSummaryColumns(filters, userId), ...pageColumns })
    .from(schema.users)
    .leftJoinLateral(page, sql`true`)
    .where(sql`${schema.users.id} = ${userId}`)
    .orderBy(sql`${page.createdAt} desc`, sql`${page.id} desc`)
    .prepare('library_first_page')
})

async function firstPageWithSummary(userId: string, limit: number) {
  const rows = await firstPageQuery().execute({ userId, limit: limit + 1 })
  // The post columns are all there or all null (no post): a row with an id is a whole card row.
  const cards = rows.filter((r) => r.id !== null) as Array<Awaited<ReturnType<typeof postRows>>[number]>
  return postPage(cards, limit, rows[0])
}

export type LibraryCard = {
  /** The SEO score (issue 14), shown as a badge on the card. */
  seoScore: number | null
  id: string
  title: string
  keyword: string
  status: PostStatus
  source: 'manual' | 'autopilot'
  failureReason: string | null
  createdAt: string
  excerpt: string
  /** Review before publishing (issue 15): null (not needed), 'waiting', 'approved' or 'rejected'. */
  reviewStatus: 'waiting' | 'approved' | 'rejected' | null
  /**
   * Issue 35: where the post stands (word count, reviewed, scheduled, published where), added by the page from
   * publishing's `postProgressForPosts`.
   */
  progress?: PostProgress | null
}

type PostRow = Awaited<ReturnType<typeof pagePosts>>['rows'][number]

export function toCard(r: PostRow): LibraryCard {
  return {
    id: r.id,
    title: r.title || r.keyword,
    keyword: r.keyword,
    status: r.status,
    source: r.source,
    failureReason: r.failureReason,
    createdAt: r.createdAt.toISOString(),
    excerpt: r.status === 'completed' ? excerpt(r.text, { title: r.title }) : '',
    seoScore: r.seoScore ?? null,
    reviewStatus: r.reviewStatus ?? null,
  }
}

/** Cards of some of a user's posts (the library's polling while they are written). */
export async function postCardsById(userId: string, ids: string[]): Promise<LibraryCard[]> {
  const valid = ids.filter(isUuid).slice(0, 100)
  if (valid.length === 0) return []
  const rows = await db
    .select(postColumns())
    .from(posts)
    .where(and(eq(posts.userId, userId), inArray(posts.id, valid), isNull(posts.deletingAt)))
  return rows.map(toCard)
}

/** The languages the user's posts are written in (for the filter), from the (user_id, language) index. */
export async function postLanguages(userId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ language: posts.language })
    .from(posts)
    .where(eq(posts.userId, userId))
    .orderBy(posts.language)
    .limit(100)
  return rows.map((r) => r.language)
}

/**
 * Deletes a post of this user: true when it existed. Its webhook deliveries and Auto Pilot runs are kept as history
 * (their post_id becomes null, by the foreign keys); the quota unit it took is not given back (decision 0210).
 * A job still waiting for it is removed; a running one finds the post gone and stops.
 */
export async function deletePost(userId: string, postId: string): Promise<boolean> {
  if (!isUuid(postId)) return false
  const [row] = await db
    .delete(posts)
    .where(and(eq(posts.id, postId), eq(posts.userId, userId)))
    .returning({ id: posts.id, status: posts.status })
  if (!row) return false
  if (row.status === 'queued' || row.status === 'generating') {
    try {
      await removeGeneratePostJob(postId)
    } catch (error) {
      console.error('[library] could not remove the job of a deleted post', error)
    }
  }
  return true
}

class QuotaExceeded extends Error {}

/** A selected keyword left out because the user already has a post (or page) for a very similar search. */
export type SkippedKeyword = { keyword: string; overlapTitle: string }

export type BulkCreateResult =
  | { ok: true; created: number; postIds: string[]; skipped: SkippedKeyword[] }
  | { ok: false; reason: 'quota' | 'not_found' | 'unavailable' | 'in_progress' }
  | { ok: false; reason: 'overlap'; skipped: SkippedKeyword[] }

/**
 * 'Create posts' for several saved keywords in one transaction: the posts (one per keyword and request key, so a
 * repeated request makes no more) and their quota units are written together, or nothing is: a selection larger
 * than what is left of the quota is refused whole. The generation jobs are queued after the commit.
 */
export async function createPostsForKeywords(input: {
  userId: string
  keywordIds: string[]
  requestKey: string
}): Promise<BulkCreateResult> {
  const requestKey = stripControlCharacters(input.requestKey).trim().slice(0, 150)
  const ids = [...new Set(input.keywordIds)]
  if (!requestKey || ids.length === 0 || ids.length > MAX_BULK_KEYWORDS || !ids.every((id) => isUuid(id)))
    return { ok: false, reason: 'not_found' }
  if (!aiConfigured()) return { ok: false, reason: 'unavailable' }

  const keywords = await db
    .select({ id: kw.id, keyword: kw.keyword, languageName: kw.languageName })
    .from(kw)
    .where(and(eq(kw.userId, input.userId), inArray(kw.id, ids)))
  if (keywords.length !== ids.length) return { ok: false, reason: 'not_found' }
  // A keyword whose post is still being written (by another request) gets no second one.
  const busy = await db
    .select({ id: posts.id })
    .from(posts)
    .where(
      and(
        eq(posts.userId, input.userId),
        inArray(posts.keywordId, ids),
        inArray(posts.status, ['queued', 'generating']),
        sql`${posts.requestKey} not like ${`${requestKey.replace(/[\\%_]/g, '\\$&')}:%`}`,
      ),
    )
    .limit(1)
  if (busy.length > 0) return { ok: false, reason: 'in_progress' }
  // No cannibalisation: a keyword the user already covers is left out (and named); a repeat of this very request
  // is not an overlap with its own posts.
  const overlaps = await findOverlaps(
    input.userId,
    keywords.map((k) => ({ keyword: k.keyword, exceptRequestKey: `${requestKey}:${k.id}` })),
  )
  const skipped = keywords.flatMap((k, i) => {
    const o = overlaps[i]
    return o ? [{ keyword: k.keyword, overlapTitle: o.title }] : []
  })
  const toWrite = keywords.filter((_, i) => !overlaps[i])
  if (!toWrite.length) return { ok: false, reason: 'overlap', skipped }

  let created: string[]
  try {
    created = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(posts)
        .values(
          toWrite.map((k) => ({
            userId: input.userId,
            keywordId: k.id,
            requestKey: `${requestKey}:${k.id}`,
            source: 'manual' as const,
            keyword: k.keyword,
            language: k.languageName || 'English',
            title: k.keyword,
          })),
        )
        .onConflictDoNothing({ target: [posts.userId, posts.requestKey] })
        .returning({ id: posts.id })
      if (inserted.length > 0) {
        const quota = await consumeQuota(input.userId, 'blogPosts', tx, inserted.length)
        if (!quota.ok) throw new QuotaExceeded()
      }
      return inserted.map((r) => r.id)
    })
  } catch (error) {
    if (error instanceof QuotaExceeded) return { ok: false, reason: 'quota' }
    if (isInProgressConflict(error)) return { ok: false, reason: 'in_progress' }
    console.error('[library] could not create posts', error)
    return { ok: false, reason: 'unavailable' }
  }

  // A job that cannot be queued now is queued later by the stale-post check (reconcileStalePosts).
  await Promise.all(
    created.map((postId) =>
      enqueueGeneratePost({ postId }).catch((error: unknown) =>
        console.error('[library] could not enqueue a generation job', error),
      ),
    ),
  )
  return { ok: true, created: created.length, postIds: created, skipped }
}
