import { and, eq, gt } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { RESEARCH_TTL_MS, researchKey, type Research } from './research.server'

/**
 * Issue 36: the word counts of the pages the content engine's research read for a keyword and market (its cached
 * research, 7 days, the same key as `research`), for the keyword's results page. Only the pages read count: a page
 * research could not read has no known length and is left out. A read; never starts research. Keyed by URL as
 * Google gave it.
 */
export async function researchedWordCounts(
  keyword: string,
  countryCode: string,
  languageCode: string,
): Promise<Map<string, number>> {
  const [hit] = await db
    .select({ result: schema.researchCache.result })
    .from(schema.researchCache)
    .where(
      and(
        eq(schema.researchCache.key, researchKey({ keyword, countryCode, languageCode })),
        gt(schema.researchCache.createdAt, new Date(Date.now() - RESEARCH_TTL_MS)),
      ),
    )
    .limit(1)
  const words = new Map<string, number>()
  const pages = (hit?.result as Partial<Research> | undefined)?.pages
  if (!Array.isArray(pages)) return words
  for (const page of pages) {
    if (page?.status === 'ok' && typeof page.url === 'string' && Number.isInteger(page.words) && page.words > 0)
      words.set(page.url, page.words)
  }
  return words
}
