import { and, eq, sql } from 'drizzle-orm'
import { postImagesOf } from '#app/features/content/images/storage.server'
import { stripRawHtml, urlSet, type Source } from '#app/features/content/content'
import { isUuid } from '#app/platform/security/ids'
import { sectionsOf, splitTitle } from '#app/features/content/post-editor'
import { cleanSectionBody } from '#app/features/content/posts'
import {
  addDays,
  describeReason,
  domainMatches,
  domainOf,
  isoWeek,
  RANKINGS_MESSAGES,
  utcDay,
  type StrikingQuery,
  type SuggestionReason,
} from './rankings'
import { comparableUrl } from '#app/features/keywords/serp'
import {
  briefSectionPrompt,
  MAX_REFRESH_SECTIONS,
  refreshBriefJsonSchema,
  refreshBriefPrompt,
  refreshBriefSchema,
  type BriefInput,
} from '#app/features/content/brief-prompts.server'
import {
  briefResearch,
  finishPost,
  linkingContext,
  mergeEvidence,
  sectionFacts,
  storedEvidence,
  stripFinish,
  targetWords,
} from '#app/features/content/content-engine.server'
import { db, schema, sqlClient } from '#app/platform/db/client.server'
import { unverifiedPolicyOf } from '#app/features/content/content-settings.server'
import { getEnv } from '#app/platform/env.server'
import { mailConfigured, sendMail } from '#app/platform/mail/mail.server'
import { AiOutputError, chatJson, chatText } from '#app/platform/ai/openai.server'
import { failureReason } from '#app/features/content/posts-pipeline.server'
import { evidenceOf, readUrls, research as runResearch, type Research } from '#app/features/content/research.server'
import { storedPostBody } from '#app/platform/security/sanitize.server'
import { allowMarkdownLinks } from '#app/platform/markdown/links'
import { aiDigestLines, aiRefreshReason } from '#app/features/visibility/read.server'

/**
 * What the rankings data says to do: refresh suggestions (found weekly), the refresh of a post itself, and the
 * weekly digest e-mail.
 */
const SLIP_POSITIONS = 5
const CLICK_DROP = 0.3
const STRIKING_MIN_IMPRESSIONS = 50
const STRIKING_MAX_QUERIES = 3

/** Whether a query's words all appear in the post (then it is covered and not suggested). */
export function covers(markdown: string, query: string) {
  const text = markdown.toLowerCase()
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 2)
    .every((w) => text.includes(w))
}

/**
 * Finds, for every published post, whether its keyword slipped 5+ positions over 28 days, whether its clicks fell
 * 30% against the previous 28 days, and which Search Console queries sit at positions 8–20 with many impressions
 * without being covered. One row per post and ISO week (re-running the job updates it while it is open).
 */
export async function findRefreshSuggestions(now: Date, userId?: string) {
  const q = sqlClient()
  const week = isoWeek(now)
  const posts = await q<
    {
      id: string
      user_id: string
      published_url: string
      content_markdown: string
      tracked_id: string | null
    }[]
  >`
    select p.id, p.user_id, p.published_url, p.content_markdown, t.id as tracked_id
    from blog_posts p left join tracked_keywords t on t.post_id = p.id
    where p.published_url is not null and p.status = 'completed' and p.deleting_at is null ${userId ? q`and p.user_id = ${userId}` : q``}`
  let found = 0
  for (const post of posts) {
    const reasons: SuggestionReason[] = []
    if (post.tracked_id) {
      const [pos] = await q<{ now: number | null; then: number | null; has_now: boolean; has_then: boolean }[]>`
        with last as (select max(day) as d from keyword_positions where tracked_keyword_id = ${post.tracked_id} and status <> 'error')
        select
          (select position from keyword_positions, last where tracked_keyword_id = ${post.tracked_id} and day = last.d) as now,
          (select position from keyword_positions, last where tracked_keyword_id = ${post.tracked_id} and status <> 'error'
            and day = to_char(last.d::date - 28, 'YYYY-MM-DD')) as then,
          exists(select 1 from keyword_positions, last where tracked_keyword_id = ${post.tracked_id} and day = last.d) as has_now,
          exists(select 1 from keyword_positions, last where tracked_keyword_id = ${post.tracked_id} and status <> 'error'
            and day = to_char(last.d::date - 28, 'YYYY-MM-DD')) as has_then`
      if (pos?.has_now && pos.has_then && pos.then !== null) {
        const after = pos.now ?? 101
        if (after - pos.then >= SLIP_POSITIONS) reasons.push({ kind: 'slipped', from: pos.then, to: pos.now })
      }
    }
    const end = addDays(utcDay(now), -2)
    const [clicks] = await q<{ recent: number; previous: number }[]>`
      select
        coalesce(sum(clicks) filter (where day > ${addDays(end, -28)}), 0)::int as recent,
        coalesce(sum(clicks) filter (where day <= ${addDays(end, -28)} and day > ${addDays(end, -56)}), 0)::int as previous
      from search_console_stats
      where user_id = ${post.user_id} and page = ${post.published_url} and day > ${addDays(end, -56)} and day <= ${end}`
    if (clicks && clicks.previous >= 10 && clicks.recent <= clicks.previous * (1 - CLICK_DROP))
      reasons.push({ kind: 'clicks_down', before: clicks.previous, after: clicks.recent })
    const candidates = await q<StrikingQuery[]>`
      select query, sum(impressions)::int as impressions,
        (sum(position * impressions) / nullif(sum(impressions), 0))::float8 as position
      from search_console_stats
      where user_id = ${post.user_id} and page = ${post.published_url} and day > ${addDays(end, -28)} and day <= ${end}
      group by query
      having sum(impressions) >= ${STRIKING_MIN_IMPRESSIONS}
        and sum(position * impressions) / nullif(sum(impressions), 0) between 8 and 20
      order by sum(impressions) desc
      limit 20`
    const queries = candidates
      .filter((c) => !covers(post.content_markdown, c.query))
      .slice(0, STRIKING_MAX_QUERIES)
      .map((c) => ({ query: c.query, impressions: c.impressions, position: Math.round(c.position * 10) / 10 }))
    if (queries.length) reasons.push({ kind: 'striking_distance', queries: queries.length })
    // Issue 37: AI Overviews cite competitors for the post's keyword and not the user's site.
    const ai = post.tracked_id ? await aiRefreshReason(post.user_id, post.tracked_id, now) : null
    if (ai) reasons.push(ai)
    if (reasons.length === 0) continue
    await db
      .insert(schema.refreshSuggestions)
      .values({ userId: post.user_id, postId: post.id, week, reasons, queries })
      .onConflictDoUpdate({
        target: [schema.refreshSuggestions.userId, schema.refreshSuggestions.postId, schema.refreshSuggestions.week],
        set: { reasons, queries },
        setWhere: sql`${schema.refreshSuggestions.status} = 'open'`,
      })
    found++
  }
  return { week, found }
}

export async function listSuggestions(userId: string) {
  const rows = await db
    .select({
      id: schema.refreshSuggestions.id,
      postId: schema.refreshSuggestions.postId,
      week: schema.refreshSuggestions.week,
      reasons: schema.refreshSuggestions.reasons,
      queries: schema.refreshSuggestions.queries,
      status: schema.refreshSuggestions.status,
      failureReason: schema.refreshSuggestions.failureReason,
      title: schema.blogPosts.title,
      reviewStatus: schema.blogPosts.reviewStatus,
    })
    .from(schema.refreshSuggestions)
    .innerJoin(schema.blogPosts, eq(schema.blogPosts.id, schema.refreshSuggestions.postId))
    .where(
      and(
        eq(schema.refreshSuggestions.userId, userId),
        sql`${schema.refreshSuggestions.week} = (select max(week) from refresh_suggestions where user_id = ${userId})`,
      ),
    )
  return rows.map((r) => ({
    ...r,
    reasons: r.reasons as SuggestionReason[],
    queries: r.queries as StrikingQuery[],
  }))
}

/** Claims a suggestion for refreshing (only an open one of this user): the job does the work. */
export async function startRefresh(userId: string, suggestionId: string) {
  if (!isUuid(suggestionId)) return null
  const [row] = await db
    .update(schema.refreshSuggestions)
    .set({ status: 'refreshing', failureReason: null })
    .where(
      and(
        eq(schema.refreshSuggestions.id, suggestionId),
        eq(schema.refreshSuggestions.userId, userId),
        eq(schema.refreshSuggestions.status, 'open'),
      ),
    )
    .returning({ id: schema.refreshSuggestions.id, postId: schema.refreshSuggestions.postId })
  return row ?? null
}

/** A refresh that cannot be written; `retryable` when trying again later may help (the research was unavailable). */
export class RefreshError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
    this.name = 'RefreshError'
  }
}

/** Words of one added section. */
const REFRESH_SECTION_WORDS = 300
const CALL_TIMEOUT_MS = 90_000

/** Research without the user's own pages (their site, and the post's own copies): the competitors it cites. */
function competitorsOnly(research: Research, site: string | null, ownUrls: string[]): Research {
  if (!research.serp) return research
  const ownUrl = urlSet(ownUrls)
  const own = (url: string) => ownUrl(url) || (site !== null && domainMatches(domainOf(url) ?? '', [site]))
  return {
    ...research,
    serp: { ...research.serp, items: research.serp.items.filter((i) => !own(i.url)) },
    pages: research.pages.filter((p) => !own(p.url)),
  }
}

/** The sources a post already cites (its 'Sources' list, or else its citation links), in their order. */
export function citedSources(markdown: string): Source[] {
  const list = /\n## Sources\s*\n([\s\S]*)$/.exec(markdown)?.[1] ?? ''
  const listed = [...list.matchAll(/^\d+\.\s+\[([^\]\n]*)\]\(\s*([^)\s]+)\s*\)/gm)].map((m) => ({
    title: m[1]!,
    url: m[2]!,
  }))
  const linked = [...markdown.matchAll(/\[\[\d{1,2}\]\(\s*([^)\s]+)\s*\)\]/g)].map((m) => ({
    title: m[1]!,
    url: m[1]!,
  }))
  const out: Source[] = []
  for (const s of [...listed, ...linked])
    if (!out.some((o) => comparableUrl(o.url) === comparableUrl(s.url))) out.push(s)
  return out
}

/** A section heading that covers its query (the model's, when it does; otherwise the query itself). */
function headingFor(heading: string, query: string | undefined) {
  const clean = heading.replace(/^#+\s*/, '').trim()
  if (!query || covers(clean, query)) return clean
  return query.charAt(0).toUpperCase() + query.slice(1)
}

/**
 * Refreshes a post with the content engine: fresh research for its keyword and market (through the research
 * cache), the user's business context and voice, a brief of only what the refresh adds (one section per
 * striking-distance query, or for a post that only slipped, what the current top pages cover and the post lacks)
 * with facts from the research, the sections written with the engine's section prompt, then the engine's finish
 * (citations and one merged 'Sources' list, internal links, the CTA, claims, a fresh score and JSON-LD) and the
 * sanitized HTML. Same title and slug. Saved in one transaction as a version with origin 'refresh', the post
 * waiting for review (approving publishes the update to the destinations).
 * Idempotent: only a suggestion being refreshed is worked on, and the write claims it, so a second run (or a run
 * after a killed one) writes nothing twice. Nothing is written before everything is ready.
 */
export async function refreshPost(suggestionId: string) {
  const [s] = await db
    .select()
    .from(schema.refreshSuggestions)
    .where(eq(schema.refreshSuggestions.id, suggestionId))
    .limit(1)
  if (!s || s.status !== 'refreshing') return { outcome: 'skipped' as const }
  const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, s.postId)).limit(1)
  if (!post || post.status !== 'completed') return { outcome: 'missing' as const }
  const [market] = post.keywordId
    ? await db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.id, post.keywordId)).limit(1)
    : []
  if (!market) throw new RefreshError(RANKINGS_MESSAGES.refreshNoMarket, false)

  const [research, linking] = await Promise.all([
    runResearch({ keyword: post.keyword, countryCode: market.countryCode, languageCode: market.languageCode }),
    linkingContext(post),
  ])
  if (research.status === 'none' || !research.serp) throw new RefreshError(RANKINGS_MESSAGES.refreshNoResearch, true)
  const site = domainOf(linking.business?.website ?? null)
  const copies = await db
    .select({ url: schema.publications.remoteUrl })
    .from(schema.publications)
    .where(eq(schema.publications.postId, post.id))
  const competitors = competitorsOnly(research, site, [
    ...(post.publishedUrl ? [post.publishedUrl] : []),
    ...copies.flatMap((c) => (c.url ? [c.url] : [])),
  ])
  const language = post.language || 'English'
  const input: BriefInput = {
    keyword: post.keyword,
    language,
    targetWords: targetWords(competitors),
    research: briefResearch(competitors),
    business: linking.business,
  }
  // Today's fact store (the competitors' pages read), then what the post was written from.
  const fresh = evidenceOf(competitors)
  const evidence = mergeEvidence(fresh, storedEvidence(post))
  const queries = s.queries as StrikingQuery[]
  const current = stripFinish(post.contentMarkdown)
  const existing = sectionsOf(splitTitle(current).body).map((x) => x.heading)

  // Round trip 1: what the refresh adds. Round trip 2: every new section at once.
  const planned = await chatJson({
    ...refreshBriefPrompt({ ...input, title: post.title, headings: existing, queries }),
    jsonSchema: refreshBriefJsonSchema(
      fresh.facts.map((f) => f.id),
      queries.length || null,
    ),
    parse: refreshBriefSchema,
    maxRetries: 0,
    timeoutMs: CALL_TIMEOUT_MS,
  })
  const plan = {
    title: post.title,
    reader: planned.data.reader,
    angle: planned.data.angle,
    sections: planned.data.sections
      .slice(0, queries.length || MAX_REFRESH_SECTIONS)
      .map((section, i) => ({ ...section, heading: headingFor(section.heading, queries[i]?.query) })),
  }
  const bodies = await Promise.all(
    plan.sections.map(async (_, index) => {
      const answer = await chatText({
        ...briefSectionPrompt({
          ...input,
          brief: plan,
          index,
          facts: sectionFacts(plan, index, fresh),
          links: linking.internal.filter((_, i) => i % plan.sections.length === index),
          existingHeadings: existing,
          words: REFRESH_SECTION_WORDS,
        }),
        maxRetries: 0,
        timeoutMs: CALL_TIMEOUT_MS,
      })
      return answer.data
    }),
  )

  // The model's links are held to the research and the user's own pages; the post's own links stay as they are.
  const allowedUrl = urlSet([...readUrls(competitors), ...linking.own.map((o) => o.url)])
  const allowed = (url: string) => allowedUrl(url) || (site !== null && domainOf(url) === site)
  const added = plan.sections.flatMap((section, i) => {
    const body = cleanSectionBody(allowMarkdownLinks(stripRawHtml(bodies[i]!), allowed))
    return body ? [`## ${section.heading}\n\n${body}`] : []
  })
  if (added.length === 0) throw new AiOutputError('every new section came back empty')
  const now = new Date()
  const finished = finishPost({
    markdown: insertBeforeClosing(current, added.join('\n\n')),
    keyword: post.keyword,
    title: post.title,
    slug: post.slug,
    metaDescription: post.metaDescription,
    language,
    evidence,
    // No third round trip here: an unverified figure of the new sections is removed (or kept marked, if the user
    // chose that), never shown as sourced.
    policy: (await unverifiedPolicyOf(post.userId)) === 'mark' ? 'mark' : 'remove',
    targetWords: input.targetWords,
    own: linking.own,
    internal: linking.internal,
    business: linking.business,
    publishedUrl: post.publishedUrl,
    publishedAt: post.publishedAt ?? post.completedAt ?? post.createdAt,
    modifiedAt: now,
    authorLinks: true,

    images: await postImagesOf(post.id),
  })
  // Sanitized once, here, like every save of the editor.
  const body = storedPostBody(finished.markdown)
  // What the editor finishes a later save with (the fact store is the post's `evidence`).
  const context = {
    own: linking.own,
    internal: linking.internal,
    targetWords: input.targetWords,
  }

  const written = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(schema.refreshSuggestions)
      .set({ status: 'done', failureReason: null })
      .where(and(eq(schema.refreshSuggestions.id, s.id), eq(schema.refreshSuggestions.status, 'refreshing')))
      .returning({ id: schema.refreshSuggestions.id })
    if (!claimed) return false
    const [hasGenerated] = await tx
      .select({ id: schema.postVersions.id })
      .from(schema.postVersions)
      .where(eq(schema.postVersions.postId, post.id))
      .limit(1)
    if (!hasGenerated)
      await tx.insert(schema.postVersions).values({
        postId: post.id,
        origin: 'generated',
        title: post.title,
        slug: post.slug,
        metaDescription: post.metaDescription,
        contentMarkdown: post.contentMarkdown,
        contentHtml: post.contentHtml,
        seoScore: post.seoScore,
        createdAt: post.completedAt ?? post.createdAt,
      })
    await tx.insert(schema.postVersions).values({
      postId: post.id,
      origin: 'refresh',
      title: post.title,
      slug: post.slug,
      metaDescription: post.metaDescription,
      contentMarkdown: finished.markdown,
      contentHtml: body.contentHtml,
      seoScore: finished.score.score,
      createdAt: now,
    })
    await tx
      .update(schema.blogPosts)
      .set({
        contentMarkdown: finished.markdown,
        ...body,
        seoScore: finished.score.score,
        seoChecklist: finished.score.items,
        claims: finished.claims,
        evidence,
        jsonLd: finished.jsonLd,
        steps: sql`coalesce(${schema.blogPosts.steps}, '{}'::jsonb) || ${JSON.stringify({ context, brief: { data: plan } })}::jsonb`,
        reviewStatus: 'waiting',
        editedAt: now,
      })
      .where(eq(schema.blogPosts.id, post.id))
    return true
  })
  if (!written) return { outcome: 'skipped' as const }
  return { outcome: 'refreshed' as const, sections: added.length, score: finished.score.score }
}

/** Puts new sections before the FAQ / conclusion (the article's last H2s), or at the end. */
export function insertBeforeClosing(markdown: string, addition: string) {
  const lines = markdown.split('\n')
  const closing = lines.findIndex((l) =>
    /^##\s+.*(faq|frequently asked|conclusion|final thoughts|wrapping up)/i.test(l),
  )
  if (closing < 0) return `${markdown.trimEnd()}\n\n${addition}\n`
  return [...lines.slice(0, closing), addition, '', ...lines.slice(closing)].join('\n')
}

/** What /rankings says about a refresh that failed for good. */
export function refreshFailureMessage(error: unknown): string {
  if (error instanceof RefreshError) return error.message
  return RANKINGS_MESSAGES.refreshFailed(failureReason(error))
}

/** A refresh that failed for good: the suggestion opens again, with why, so it can be tried again. */
export async function reopenSuggestion(suggestionId: string, reason: string | null = null) {
  await db
    .update(schema.refreshSuggestions)
    .set({ status: 'open', failureReason: reason })
    .where(and(eq(schema.refreshSuggestions.id, suggestionId), eq(schema.refreshSuggestions.status, 'refreshing')))
}

// ---------------------------------------------------------------------------
// The weekly digest
// ---------------------------------------------------------------------------

export async function setDigestEnabled(userId: string, enabled: boolean) {
  await db
    .insert(schema.rankingsPreferences)
    .values({ userId, digestEnabled: enabled })
    .onConflictDoUpdate({
      target: schema.rankingsPreferences.userId,
      set: { digestEnabled: enabled, updatedAt: new Date() },
    })
}

type DigestData = {
  /** Issue 37: the AI visibility lines (empty when nothing was checked). */
  ai?: string[]
  enteredTop10: Array<{ keyword: string; position: number }>
  movers: Array<{ keyword: string; from: number | null; to: number | null; change: number }>
  suggestions: Array<{ title: string; reasons: string[] }>
}

/**
 * How far back a keyword's own latest check may be for the digest: a week (a keyword no longer checked drops out).
 */
const DIGEST_LATEST_DAYS = 7

/**
 * The digest's figures. Each keyword compares its OWN latest check with its check 7 days before that (decision
 * 0371): the digest goes out Monday 07:00 while the day's checks are spread over the hours, so one latest day for
 * all of a user's keywords would drop every keyword not yet checked that morning.
 */
export async function digestData(userId: string, now: Date = new Date()): Promise<DigestData> {
  const q = sqlClient()
  const since = addDays(utcDay(now), -DIGEST_LATEST_DAYS)
  const moves = await q<{ keyword: string; now: number | null; then: number | null }[]>`
    select t.keyword, n.position as now, w.position as then
    from tracked_keywords t
    join lateral (
      select p.day, p.position from keyword_positions p
      where p.tracked_keyword_id = t.id and p.status <> 'error' and p.day >= ${since}
      order by p.day desc limit 1) n on true
    join keyword_positions w on w.tracked_keyword_id = t.id and w.day = to_char(n.day::date - 7, 'YYYY-MM-DD') and w.status <> 'error'
    where t.user_id = ${userId}`
  const enteredTop10 = moves
    .filter((m) => m.now !== null && m.now <= 10 && (m.then === null || m.then > 10))
    .map((m) => ({ keyword: m.keyword, position: m.now! }))
  const movers = moves
    .map((m) => ({ keyword: m.keyword, from: m.then, to: m.now, change: (m.then ?? 101) - (m.now ?? 101) }))
    .filter((m) => m.change !== 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change))
    .slice(0, 5)
  const suggestions = (await listSuggestions(userId))
    .filter((s) => s.status === 'open')
    .map((s) => ({ title: s.title, reasons: s.reasons.map(describeReason) }))
  return { enteredTop10, movers, suggestions, ai: await aiDigestLines(userId, now) }
}

function esc(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

export function renderDigest(name: string, data: DigestData) {
  const appUrl = getEnv().APP_URL
  const rankings = new URL('/rankings', appUrl).toString()
  const profile = new URL('/profile', appUrl).toString()
  const aiPage = new URL('/rankings/ai', appUrl).toString()
  const fmt = (p: number | null) => (p === null ? 'not in top 100' : `#${p}`)
  const text = [
    `Hi ${name || 'there'},`,
    '',
    'Your rankings this week:',
    '',
    'Entered the top 10:',
    ...(data.enteredTop10.length
      ? data.enteredTop10.map((e) => `- ${e.keyword}: #${e.position}`)
      : ['- none this week']),
    '',
    'Biggest movers:',
    ...(data.movers.length
      ? data.movers.map((m) => `- ${m.keyword}: ${fmt(m.from)} → ${fmt(m.to)} (${m.change > 0 ? '+' : ''}${m.change})`)
      : ['- no changes']),
    '',
    'Posts to refresh:',
    ...(data.suggestions.length
      ? data.suggestions.map((s) => `- ${s.title}: ${s.reasons.join('; ')}`)
      : ['- nothing to refresh']),
    '',
    ...(data.ai?.length
      ? ['AI visibility:', ...data.ai.map((line) => `- ${line}`), `See AI visibility: ${aiPage}`, '']
      : []),
    `See all rankings: ${rankings}`,
    `Stop these e-mails on your profile: ${profile}`,
  ].join('\n')
  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`
  const html = [
    `<p>Hi ${esc(name || 'there')},</p>`,
    '<h2>Entered the top 10</h2>',
    data.enteredTop10.length
      ? list(data.enteredTop10.map((e) => `${esc(e.keyword)}: #${e.position}`))
      : '<p>None this week.</p>',
    '<h2>Biggest movers</h2>',
    data.movers.length
      ? list(data.movers.map((m) => `${esc(m.keyword)}: ${fmt(m.from)} → ${fmt(m.to)}`))
      : '<p>No changes.</p>',
    '<h2>Posts to refresh</h2>',
    data.suggestions.length
      ? list(data.suggestions.map((s) => `${esc(s.title)}: ${esc(s.reasons.join('; '))}`))
      : '<p>Nothing to refresh.</p>',
    ...(data.ai?.length
      ? ['<h2>AI visibility</h2>', list(data.ai.map(esc)), `<p><a href="${aiPage}">See AI visibility</a></p>`]
      : []),
    `<p><a href="${rankings}">See all rankings</a></p>`,
    `<p style="font-size:12px;color:#666">You get this weekly summary because you track keywords on Rankwell. <a href="${profile}">Turn it off on your profile</a>.</p>`,
  ].join('\n')
  return { subject: 'Your weekly rankings on Rankwell', text, html }
}

/**
 * Sends the week's digest to every user who tracks keywords and has not opted out: claimed per user and week
 * first (so a retried job never sends twice), released again when sending fails.
 */
export async function sendDigests(now: Date) {
  if (!mailConfigured()) return { sent: 0, skipped: 'smtp' }
  const week = isoWeek(now)
  const users = await sqlClient()<{ id: string; email: string; name: string }[]>`
    select u.id, u.email, u.name from users u
    where exists (select 1 from tracked_keywords t where t.user_id = u.id)
      and coalesce((select digest_enabled from rankings_preferences r where r.user_id = u.id), true)`
  let sent = 0
  for (const user of users) {
    const [claimed] = await sqlClient()<{ user_id: string; previous: string | null }[]>`
      insert into rankings_preferences (user_id, last_digest_week) values (${user.id}, ${week})
      on conflict (user_id) do update set last_digest_week = excluded.last_digest_week
        where rankings_preferences.last_digest_week is distinct from excluded.last_digest_week
          and rankings_preferences.digest_enabled
      returning user_id, null::text as previous`
    if (!claimed) continue
    try {
      const message = renderDigest(user.name, await digestData(user.id, now))
      await sendMail({ to: user.email, ...message })
      sent++
    } catch (error) {
      await db
        .update(schema.rankingsPreferences)
        .set({ lastDigestWeek: null })
        .where(and(eq(schema.rankingsPreferences.userId, user.id), eq(schema.rankingsPreferences.lastDigestWeek, week)))
      throw error
    }
  }
  return { week, sent }
}
