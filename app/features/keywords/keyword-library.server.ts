import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import {
  DEFAULT_ORDER,
  DIFFICULTY_FILTERS,
  KEYWORD_TOTAL_CAP,
  MAX_BULK_KEYWORDS,
  type KeywordListParams,
  type KeywordSort,
  type SortOrder,
} from './keyword-library'
import { db, schema } from '#app/platform/db/client.server'
import { BadCursorError, exactTime, TIMESTAMP } from '#app/platform/lists/keyset.server'
import { containsPattern, decodeCursor, encodeCursor } from '#app/platform/lists/list-params'
import { isUuid } from '#app/platform/security/ids'
import { metricColumns, withMetrics } from './keywords.server'
import type { KeywordColumn } from './keyword-metrics'

/**
 * The saved keywords' library at any size (issue 21): keyset pages with search, filters and sorting, and deletes.
 * Every page query walks an index in its sort order from the cursor (never OFFSET); see drizzle/0012_libraries.sql.
 */
const kw = schema.savedKeywords

/** The sort key of each column, tie-broken by id; every column of a key sorts in the same direction. */
const sortKeys: Record<KeywordSort, Array<{ expr: SQL; cast: string; select: SQL }>> = {
  date: [
    { expr: sql`${kw.createdAt}`, cast: 'timestamptz', select: exactTime(kw.createdAt) },
    {
      expr: sql`coalesce(${kw.avgMonthlySearches}, -1)`,
      cast: 'integer',
      select: sql`coalesce(${kw.avgMonthlySearches}, -1)`,
    },
  ],
  keyword: [{ expr: sql`lower(${kw.keyword})`, cast: 'text', select: sql`lower(${kw.keyword})` }],
  volume: [
    {
      expr: sql`coalesce(${kw.avgMonthlySearches}, -1)`,
      cast: 'integer',
      select: sql`coalesce(${kw.avgMonthlySearches}, -1)`,
    },
  ],
  difficulty: [
    {
      expr: sql`coalesce(${kw.difficultyScore}, -1)`,
      cast: 'integer',
      select: sql`coalesce(${kw.difficultyScore}, -1)`,
    },
  ],
}

function keywordFilters(userId: string, params: KeywordListParams): SQL {
  const where: SQL[] = [sql`${kw.userId} = ${userId}`, sql`${kw.searchedViaAutoPilot} = false`]
  if (params.q) where.push(sql`${kw.keyword} ilike ${containsPattern(params.q)}`)
  // Bands and ranges are written over coalesce(column, -1), the expressions of the volume and difficulty indexes,
  // so that the capped count and the page read a range of an index instead of every row of a large account. Scores
  // and volumes are never negative: `>= min` (min >= 0) keeps excluding the rows without a figure, as `is null` maps
  // to `= -1`.
  if (params.difficulty) {
    const band = DIFFICULTY_FILTERS[params.difficulty]
    const score = sql`coalesce(${kw.difficultyScore}, -1)`
    if (band.min === null) where.push(sql`${score} = -1`)
    else {
      where.push(sql`${score} >= ${band.min}`)
      if (band.max !== null) where.push(sql`${score} <= ${band.max}`)
    }
  }
  if (params.minVolume !== undefined || params.maxVolume !== undefined) {
    const volume = sql`coalesce(${kw.avgMonthlySearches}, -1)`
    where.push(sql`${volume} >= ${params.minVolume ?? 0}`)
    if (params.maxVolume !== undefined) where.push(sql`${volume} <= ${params.maxVolume}`)
  }
  if (params.country) where.push(sql`${kw.countryCode} = ${params.country}`)
  if (params.language) where.push(sql`${kw.languageCode} = ${params.language}`)
  return and(...where)!
}

export function keywordSort(params: KeywordListParams): { sort: KeywordSort; order: SortOrder } {
  const sort = params.sort ?? 'date'
  return { sort, order: params.order ?? DEFAULT_ORDER[sort] }
}

const listColumns = {
  id: kw.id,
  keyword: kw.keyword,
  avgMonthlySearches: kw.avgMonthlySearches,
  difficultyScore: kw.difficultyScore,
  createdAt: kw.createdAt,
  source: kw.source,
  countryCode: kw.countryCode,
  countryName: kw.countryName,
  languageCode: kw.languageCode,
  languageName: kw.languageName,
  searchedViaAutoPilot: kw.searchedViaAutoPilot,
  // Issue 36: intent, CPC, competition, trend, SERP features and where a domain ranks.
  ...metricColumns,
}

/**
 * Whether the user starred the row's keyword for rank tracking (issue 16), in the page's own query: the user's
 * starred saved-keyword ids (at most their plan's limit, read through the tracked_keywords unique index on user_id)
 * are hashed once by Postgres, not looked up per row. Qualified by hand: in a sql`` template Drizzle writes bare
 * column names, which inside the subquery would mean tracked_keywords' own "id".
 */
const trackedColumn = (userId: string) =>
  sql<boolean>`("saved_keywords"."id" in (select "tracked_keywords"."saved_keyword_id" from "tracked_keywords" where "tracked_keywords"."user_id" = ${userId} and "tracked_keywords"."starred" and "tracked_keywords"."saved_keyword_id" is not null))`

/**
 * One page of the keywords a user searched by hand (Auto Pilot's are hidden), in the chosen sort (by default the
 * spec's: newest first, then higher volume), with the filtered total and the next page's cursor.
 */
export async function pageKeywords(userId: string, params: KeywordListParams, opts: { limit: number }) {
  const { sort, order } = keywordSort(params)
  const keys = [...sortKeys[sort], { expr: sql`${kw.id}`, cast: 'uuid', select: sql`${kw.id}::text` }]
  const filters = keywordFilters(userId, params)
  let after: SQL | null = null
  if (params.cursor) {
    const values = decodeCursor(params.cursor)
    const tag = `${sort}.${order}`
    if (!values || values[0] !== tag || values.length !== keys.length + 1) throw new BadCursorError()
    const keyValues = values.slice(1)
    keys.forEach((k, i) => {
      const v = keyValues[i]
      const ok =
        k.cast === 'integer'
          ? typeof v === 'number' && Number.isInteger(v)
          : k.cast === 'uuid'
            ? typeof v === 'string' && isUuid(v)
            : k.cast === 'timestamptz'
              ? typeof v === 'string' && TIMESTAMP.test(v)
              : typeof v === 'string'
      if (!ok) throw new BadCursorError()
    })
    const left = sql.join(
      keys.map((k) => k.expr),
      sql`, `,
    )
    const right = sql.join(
      keys.map((k, i) => sql`${keyValues[i]}::${sql.raw(k.cast)}`),
      sql`, `,
    )
    after = order === 'desc' ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`
  }
  const dir = sql.raw(order)
  // The total is counted up to a cap: an exact count of a 100,000-keyword account (or of a broad filter over it)
  // would read every matching row on every page view (issue 21); past the cap the screens say '10,000+'. It is a
  // subquery of the page's own statement (uncorrelated: Postgres counts once), not a statement of its own (issue 39).
  const cappedCount = (where: SQL) =>
    sql<number>`(select count(*)::int from ${db
      .select({ one: sql`1`.as('one') })
      .from(kw)
      .where(where)
      .limit(KEYWORD_TOTAL_CAP + 1)
      .as('capped')})`
  const rows = await db
    .select({
      ...listColumns,
      tracked: trackedColumn(userId),
      key: sql<Array<string | number>>`json_build_array(${sql.join(
        keys.map((k) => k.select),
        sql`, `,
      )})`,
      total: cappedCount(filters),
    })
    .from(kw)
    .where(after ? and(filters, after) : filters)
    .orderBy(...keys.map((k) => sql`${k.expr} ${dir}`))
    .limit(opts.limit + 1)
  // A page past the last row (a cursor at the end) has no row to carry the total: counted on its own.
  const counted =
    rows[0]?.total ??
    (after ? ((await db.select({ total: cappedCount(filters) }).from(sql`(select 1) as one`))[0]?.total ?? 0) : 0)
  const page = rows.slice(0, opts.limit)
  const last = page[page.length - 1]
  return {
    rows: page.map(({ key: _key, total: _total, ...row }) => withMetrics(row)),
    total: Math.min(counted, KEYWORD_TOTAL_CAP),
    /** True when there are more than `total` (the count stopped at KEYWORD_TOTAL_CAP). */
    totalCapped: counted > KEYWORD_TOTAL_CAP,
    sort,
    order,
    nextCursor: rows.length > opts.limit && last ? encodeCursor([`${sort}.${order}`, ...last.key]) : null,
  }
}

/** Deletes some of a user's saved keywords; answers the ids deleted (someone else's ids delete nothing). */
export async function deleteKeywords(userId: string, ids: string[]): Promise<string[]> {
  const valid = [...new Set(ids.filter(isUuid))].slice(0, MAX_BULK_KEYWORDS)
  if (valid.length === 0) return []
  const rows = await db
    .delete(kw)
    .where(and(eq(kw.userId, userId), inArray(kw.id, valid)))
    .returning({ id: kw.id })
  return rows.map((r) => r.id)
}

/** Issue 36: stores the optional columns the user shows on /keywords (users.keyword_columns; [] shows none). */
export async function saveKeywordColumns(userId: string, columns: readonly KeywordColumn[]) {
  await db
    .update(schema.users)
    .set({ keywordColumns: [...columns], updatedAt: new Date() })
    .where(eq(schema.users.id, userId))
}
