import { sqlClient } from '#app/platform/db/client.server'
import { addDays, utcDay } from '#app/platform/dates'
import { comparableUrl } from '#app/features/keywords/serp'
import { ENGINE_LABELS, isoWeek, KEYWORD_ENGINES, PROMPT_ENGINES, WEEKS, type AiEngine } from './visibility'
import { change, wilson, type Change, type Rate } from './wilson'
import { rateSentence } from './describe'
import { aiCheckUsage } from './usage.server'

/**
 * What the AI visibility screens, the API, the digest and the refresh suggestions read (issue 37, decision 0371):
 * the weekly roll-up `ai_weekly` only (joined to the tracked keywords and prompts for their names). Every figure is
 * a rate with its 95% interval; a week without answers is a gap (rate null), never a zero.
 */

/** Keywords per page of /rankings/ai (prompts are few: all of them). */
export const AI_KEYWORDS_PAGE_SIZE = 10

export type WeekFigures = {
  week: string
  /** Answers counted, and checks that failed for good (never counted in a rate). */
  answers: number
  gaps: number
  present: Rate
  mentioned: Rate
  cited: Rate
}

export type EngineView = {
  engine: AiEngine
  label: string
  /** The latest week of the window (the current one). */
  latest: WeekFigures
  /** The latest week against the one before: 'up'/'down' only when the intervals do not overlap. */
  change: { present: Change; mentioned: Change; cited: Change }
  /** Oldest first, one entry per week of the window (answers 0 where nothing was checked). */
  history: WeekFigures[]
  /** The user's pages cited over the window, most cited first. */
  citedPages: Array<{ url: string; count: number }>
  /** Competitors named or cited over the window, most often first. */
  competitors: Array<{ domain: string; count: number }>
  /** How many distinct pages and competitors there were in all (the lists above stop at 10). */
  citedPageCount: number
  competitorCount: number
}

export type SubjectView = {
  kind: 'keyword' | 'prompt'
  id: string
  /** The keyword or the prompt's text (plain text). */
  label: string
  engines: EngineView[]
}

type WeeklyRow = {
  subject_kind: 'keyword' | 'prompt'
  subject_id: string
  engine: AiEngine
  week: string
  answers: number
  gaps: number
  present: number
  mentioned: number
  cited: number
  cited_urls: Record<string, number>
  competitors: Record<string, number>
}

/** The ISO weeks (Mondays) of a window of `weeks` weeks ending with the week of `now`, oldest first. */
export function weeksEnding(now: Date, weeks: number) {
  const last = isoWeek(utcDay(now))
  return Array.from({ length: weeks }, (_, i) => addDays(last, -7 * (weeks - 1 - i)))
}

function figures(week: string, row: WeeklyRow | undefined): WeekFigures {
  const answers = row?.answers ?? 0
  // Counts come from the checks' roll-up; a count above the answers would be a bug there, not a rate to show.
  const safe = (n: number | undefined) => Math.min(answers, Math.max(0, n ?? 0))
  return {
    week,
    answers,
    gaps: row?.gaps ?? 0,
    present: wilson(safe(row?.present), answers),
    mentioned: wilson(safe(row?.mentioned), answers),
    cited: wilson(safe(row?.cited), answers),
  }
}

function ranked(counts: Map<string, number>) {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
}

function engineView(engine: AiEngine, weeks: string[], rows: WeeklyRow[]): EngineView {
  const byWeek = new Map(rows.map((r) => [r.week, r]))
  const history = weeks.map((w) => figures(w, byWeek.get(w)))
  const latest = history[history.length - 1]!
  const before = history[history.length - 2] ?? figures('', undefined)
  const pages = new Map<string, number>()
  const competitors = new Map<string, number>()
  for (const row of rows) {
    for (const [url, n] of Object.entries(row.cited_urls ?? {})) pages.set(url, (pages.get(url) ?? 0) + Number(n))
    for (const [domain, n] of Object.entries(row.competitors ?? {}))
      competitors.set(domain, (competitors.get(domain) ?? 0) + Number(n))
  }
  return {
    engine,
    label: ENGINE_LABELS[engine],
    latest,
    change: {
      present: change(before.present, latest.present),
      mentioned: change(before.mentioned, latest.mentioned),
      cited: change(before.cited, latest.cited),
    },
    history,
    citedPages: ranked(pages)
      .slice(0, 10)
      .map(([url, count]) => ({ url, count })),
    competitors: ranked(competitors)
      .slice(0, 10)
      .map(([domain, count]) => ({ domain, count })),
    citedPageCount: pages.size,
    competitorCount: competitors.size,
  }
}

function subjectViews(
  kind: 'keyword' | 'prompt',
  subjects: Array<{ id: string; label: string }>,
  weeks: string[],
  rows: WeeklyRow[],
): SubjectView[] {
  const engines = kind === 'keyword' ? KEYWORD_ENGINES : PROMPT_ENGINES
  const bySubject = new Map<string, WeeklyRow[]>()
  for (const row of rows)
    if (row.subject_kind === kind) bySubject.set(row.subject_id, [...(bySubject.get(row.subject_id) ?? []), row])
  return subjects.map((s) => {
    const own = bySubject.get(s.id) ?? []
    return {
      kind,
      id: s.id,
      label: s.label,
      engines: engines.map((engine) =>
        engineView(
          engine,
          weeks,
          own.filter((r) => r.engine === engine),
        ),
      ),
    }
  })
}

async function weeklyRows(userId: string, firstWeek: string, filter: { keywordIds?: string[]; promptIds?: string[] }) {
  const q = sqlClient()
  const keywordIds = filter.keywordIds ?? []
  const promptIds = filter.promptIds ?? []
  if (keywordIds.length === 0 && promptIds.length === 0) return []
  return q<WeeklyRow[]>`
    select subject_kind, subject_id, engine, week, answers, gaps, present, mentioned, cited, cited_urls, competitors
    from ai_weekly
    where user_id = ${userId} and week >= ${firstWeek}
      and ((subject_kind = 'keyword' and subject_id = any(${keywordIds}::uuid[]))
        or (subject_kind = 'prompt' and subject_id = any(${promptIds}::uuid[])))`
}

/** This month's AI checks against the plan's bound (the checks' own count, `aiCheckUsage`). */
export function aiChecksThisMonth(userId: string, now: Date = new Date()) {
  return aiCheckUsage(userId, undefined, now)
}

export type AiOverview = {
  weeks: string[]
  keywords: SubjectView[]
  prompts: SubjectView[]
  /** Keywords tracked in all (the page shows one page of them), prompts active. */
  trackedKeywords: number
  page: number
  pageCount: number
  /** Whether any check result reached this user in the window (else: checks not yet run). */
  anyChecks: boolean
  usage: { used: number; limit: number; month: string }
}

/**
 * Per tracked keyword (a page of them, alphabetical; all with `page: 'all'`) and per active prompt: each engine's
 * rates of the latest week with their intervals, the change from the week before, the weekly history, the cited pages
 * and the competitors. Three statements: the subjects, the weekly rows, the month's usage.
 */
export async function aiVisibilityOverview(
  userId: string,
  { weeks = WEEKS.default, page = 1, now = new Date() }: { weeks?: number; page?: number | 'all'; now?: Date } = {},
): Promise<AiOverview> {
  const q = sqlClient()
  const window = weeksEnding(now, weeks)
  const limit = page === 'all' ? null : AI_KEYWORDS_PAGE_SIZE
  const pageNumber = page === 'all' ? 1 : Math.max(1, Math.floor(page))
  const [keywords, prompts, usage] = await Promise.all([
    q<{ id: string; label: string; total: number }[]>`
      select id, keyword as label, count(*) over ()::int as total from tracked_keywords
      where user_id = ${userId}
      order by lower(keyword), id
      ${limit === null ? q`` : q`limit ${limit} offset ${(pageNumber - 1) * limit}`}`,
    q<{ id: string; label: string }[]>`
      select id, text as label from ai_prompts where user_id = ${userId} and status = 'active' order by created_at, id`,
    aiChecksThisMonth(userId, now),
  ])
  const rows = await weeklyRows(userId, window[0]!, {
    keywordIds: keywords.map((k) => k.id),
    promptIds: prompts.map((p) => p.id),
  })
  const [any] =
    rows.length > 0
      ? [{ any: true }]
      : await q<{ any: boolean }[]>`select exists(select 1 from ai_weekly where user_id = ${userId}) as any`
  let total = keywords[0]?.total ?? 0
  if (keywords.length === 0 && pageNumber > 1) {
    const [count] = await q<{ n: number }[]>`select count(*)::int as n from tracked_keywords where user_id = ${userId}`
    total = count?.n ?? 0
  }
  return {
    weeks: window,
    keywords: subjectViews('keyword', keywords, window, rows),
    prompts: subjectViews('prompt', prompts, window, rows),
    trackedKeywords: total,
    page: pageNumber,
    pageCount: limit === null ? 1 : Math.max(1, Math.ceil(total / limit)),
    anyChecks: Boolean(any?.any),
    usage,
  }
}

/** One tracked keyword's view (null when it is not this user's). */
export async function aiVisibilityForKeyword(
  userId: string,
  trackedKeywordId: string,
  { weeks = WEEKS.default, now = new Date() }: { weeks?: number; now?: Date } = {},
): Promise<SubjectView | null> {
  const [keyword] = await sqlClient()<{ id: string; label: string }[]>`
    select id, keyword as label from tracked_keywords where id = ${trackedKeywordId} and user_id = ${userId}`
  if (!keyword) return null
  const window = weeksEnding(now, weeks)
  const rows = await weeklyRows(userId, window[0]!, { keywordIds: [keyword.id] })
  return subjectViews('keyword', [keyword], window, rows)[0]!
}

export type PostCitation = {
  engine: AiEngine
  label: string
  kind: 'keyword' | 'prompt'
  subject: string
  /** Answers that cited the post over the weeks read, and answers counted. */
  count: number
  answers: number
}

/** Which AI answers cited this post (its published URL) over the last four weeks: per engine and subject. */
export async function aiVisibilityForPost(userId: string, postId: string, now: Date = new Date()) {
  const q = sqlClient()
  const [post] = await q<{ url: string | null }[]>`
    select published_url as url from blog_posts where id = ${postId} and user_id = ${userId}`
  if (!post?.url) return null
  const target = comparableUrl(post.url)
  const firstWeek = weeksEnding(now, 4)[0]!
  const rows = await q<
    {
      subject_kind: 'keyword' | 'prompt'
      engine: AiEngine
      subject: string | null
      answers: number
      cited_urls: Record<string, number>
    }[]
  >`
    select w.subject_kind, w.engine, coalesce(t.keyword, p.text) as subject, w.answers, w.cited_urls
    from ai_weekly w
    left join tracked_keywords t on w.subject_kind = 'keyword' and t.id = w.subject_id
    left join ai_prompts p on w.subject_kind = 'prompt' and p.id = w.subject_id
    where w.user_id = ${userId} and w.week >= ${firstWeek} and w.cited > 0`
  const found = new Map<string, PostCitation>()
  for (const row of rows) {
    if (!row.subject) continue
    const count = Object.entries(row.cited_urls ?? {})
      .filter(([url]) => comparableUrl(url) === target)
      .reduce((sum, [, n]) => sum + Number(n), 0)
    const key = `${row.engine}\u0000${row.subject_kind}\u0000${row.subject}`
    const entry = found.get(key) ?? {
      engine: row.engine,
      label: ENGINE_LABELS[row.engine],
      kind: row.subject_kind,
      subject: row.subject,
      count: 0,
      answers: 0,
    }
    entry.count += count
    entry.answers += row.answers
    found.set(key, entry)
  }
  return {
    url: post.url,
    citations: [...found.values()].filter((c) => c.count > 0).sort((a, b) => b.count - a.count),
  }
}

const CHANGE_WORDS: Record<Change, string> = {
  up: 'up from',
  down: 'down from',
  none: 'no clear change from',
  unknown: 'no answers to compare in',
}

/**
 * The digest's AI visibility lines (Monday: the last whole week against the week before), per engine over all the
 * user's keywords (cited by Google's AI answers) and prompts (named by the assistants). Empty when nothing was checked.
 */
export async function aiDigestLines(userId: string, now: Date = new Date()) {
  const current = isoWeek(utcDay(now))
  const last = addDays(current, -7)
  const before = addDays(current, -14)
  const rows = await sqlClient()<
    {
      engine: AiEngine
      subject_kind: 'keyword' | 'prompt'
      week: string
      answers: number
      mentioned: number
      cited: number
    }[]
  >`
    select w.engine, w.subject_kind, w.week, sum(w.answers)::int as answers, sum(w.mentioned)::int as mentioned,
      sum(w.cited)::int as cited
    from ai_weekly w
    where w.user_id = ${userId} and w.week in (${last}, ${before})
      and ((w.subject_kind = 'keyword' and exists (select 1 from tracked_keywords t where t.id = w.subject_id and t.user_id = ${userId}))
        or (w.subject_kind = 'prompt' and exists (select 1 from ai_prompts p where p.id = w.subject_id and p.status = 'active')))
    group by w.engine, w.subject_kind, w.week`
  const lines: string[] = []
  for (const engine of [...KEYWORD_ENGINES, ...PROMPT_ENGINES] as AiEngine[]) {
    const kind = (KEYWORD_ENGINES as readonly AiEngine[]).includes(engine) ? 'keyword' : 'prompt'
    const measure = kind === 'keyword' ? 'cited' : 'mentioned'
    const of = (week: string) => {
      const row = rows.find((r) => r.engine === engine && r.subject_kind === kind && r.week === week)
      return wilson(Math.min(row?.[measure] ?? 0, row?.answers ?? 0), row?.answers ?? 0)
    }
    const now_ = of(last)
    if (now_.total === 0) continue
    const then = of(before)
    const what = kind === 'keyword' ? `${ENGINE_LABELS[engine]} cited your site` : `${ENGINE_LABELS[engine]} named you`
    const head = rateSentence(now_, what, 'last week')
    const tail =
      then.total === 0 ? '' : `; ${CHANGE_WORDS[change(then, now_)]} ${then.hits} of ${then.total} the week before`
    lines.push(`${head}${tail}`)
  }
  return lines
}

/**
 * A refresh reason for a tracked keyword: over the last four weeks Google's AI Overviews were shown, cited
 * competitors and never the user's site. Null when that is not so (or nothing was checked).
 */
export async function aiRefreshReason(userId: string, trackedKeywordId: string, now: Date = new Date()) {
  const firstWeek = weeksEnding(now, 4)[0]!
  const rows = await sqlClient()<{ present: number; cited: number; competitors: Record<string, number> }[]>`
    select present, cited, competitors from ai_weekly
    where user_id = ${userId} and subject_kind = 'keyword' and subject_id = ${trackedKeywordId}
      and engine = 'google_ai_overview' and week >= ${firstWeek}`
  const present = rows.reduce((s, r) => s + r.present, 0)
  const cited = rows.reduce((s, r) => s + r.cited, 0)
  const competitors = [...new Set(rows.flatMap((r) => Object.keys(r.competitors ?? {})))].sort()
  if (present === 0 || cited > 0 || competitors.length === 0) return null
  return { kind: 'ai_competitors' as const, competitors: competitors.slice(0, 5), count: competitors.length }
}

/** A subject as the JSON API answers it (the same figures as the page). */
export function toApiSubject(subject: SubjectView) {
  return {
    id: subject.id,
    kind: subject.kind,
    [subject.kind === 'keyword' ? 'keyword' : 'prompt']: subject.label,
    engines: subject.engines.map((e) => ({
      engine: e.engine,
      label: e.label,
      week: e.latest.week,
      answers: e.latest.answers,
      gaps: e.latest.gaps,
      present: e.latest.present,
      mentioned: e.latest.mentioned,
      cited: e.latest.cited,
      change: e.change,
      citedPages: e.citedPages,
      competitors: e.competitors,
      history: e.history,
    })),
  }
}
