import crypto from 'node:crypto'
import { db, schema } from '#app/platform/db/client.server'
import { normalizeSubject, type AiEngine } from '#app/features/visibility/visibility'

/**
 * Fixtures for the AI visibility screens (issue 37): what the daily checks leave behind (tracked keywords, prompts and
 * the weekly roll-up `ai_weekly`), written directly so the read model, the page and the API can be driven by known
 * counts.
 */
export const US = { countryCode: '2840', languageCode: '1000', countryName: 'United States' }

export async function trackKeyword(
  userId: string,
  keyword: string,
  extra: { postId?: string; starred?: boolean } = {},
) {
  const [row] = await db
    .insert(schema.trackedKeywords)
    .values({ userId, keyword, keywordNorm: normalizeSubject(keyword), ...US, ...extra })
    .returning()
  return row!
}

export async function activePrompt(userId: string, text: string, status: 'active' | 'suggested' = 'active') {
  const [row] = await db
    .insert(schema.aiPrompts)
    .values({
      userId,
      text,
      textNorm: normalizeSubject(text),
      countryCode: US.countryCode,
      languageCode: US.languageCode,
      status,
    })
    .returning()
  return row!
}

export type WeeklyCounts = {
  answers: number
  gaps?: number
  present?: number
  mentioned?: number
  cited?: number
  citedUrls?: Record<string, number>
  competitors?: Record<string, number>
}

export async function weekly(
  userId: string,
  subject: { kind: 'keyword' | 'prompt'; id: string },
  engine: AiEngine,
  week: string,
  counts: WeeklyCounts,
) {
  await db.insert(schema.aiWeekly).values({
    userId,
    subjectKind: subject.kind,
    subjectId: subject.id,
    engine,
    week,
    answers: counts.answers,
    gaps: counts.gaps ?? 0,
    present: counts.present ?? 0,
    mentioned: counts.mentioned ?? 0,
    cited: counts.cited ?? 0,
    citedUrls: counts.citedUrls ?? {},
    competitors: counts.competitors ?? {},
  })
}

/** A completed post (published at `publishedUrl` when given). */
export async function addPost(userId: string, keyword: string, publishedUrl?: string) {
  const [row] = await db
    .insert(schema.blogPosts)
    .values({
      userId,
      requestKey: crypto.randomUUID(),
      keyword,
      title: `All about ${keyword}`,
      slug: keyword.replace(/[^a-z0-9]+/gi, '-').toLowerCase(),
      status: 'completed',
      contentMarkdown: `# All about ${keyword}\n\nText.\n`,
      contentHtml: `<h1>All about ${keyword}</h1><p>Text.</p>`,
      completedAt: new Date(),
      publishedUrl: publishedUrl ?? null,
      publishedAt: publishedUrl ? new Date() : null,
    })
    .returning()
  return row!
}

/** The Monday of the week `weeksAgo` weeks before the current one (UTC). */
export function weekOf(weeksAgo: number, now = new Date()) {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) - 7 * weeksAgo)
  return d.toISOString().slice(0, 10)
}
