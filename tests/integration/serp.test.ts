import crypto from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { normalizeSerpKeyword, positionOf } from '#app/features/keywords/serp'
import { db, schema } from '#app/platform/db/client.server'
import { getSerp } from '#app/features/keywords/serp.server'
import { serpControl } from '#tests/fakes/client'

/** getSerp against the DataForSEO fake's SERP endpoint, and the serp_cache rows it shares. */
const serp = serpControl()
const tag = () => `zs${crypto.randomBytes(4).toString('hex')}`

async function cacheRows(keyword: string) {
  return db
    .select()
    .from(schema.serpCache)
    .where(and(eq(schema.serpCache.keyword, normalizeSerpKeyword(keyword)), eq(schema.serpCache.countryCode, '2840')))
}

describe('serp: getSerp and its cache', () => {
  it('reads the organic top 10, People also ask and related searches, then serves the cached row', async () => {
    const keyword = `  Project  Management ${tag()} `
    const first = await getSerp({ keyword, countryCode: '2840', languageCode: '1000', depth: 10, maxAgeDays: 7 })
    expect(first.ok).toBe(true)
    if (!first.ok) return
    expect(first.cached).toBe(false)
    expect(first.serp.items).toHaveLength(10)
    expect(first.serp.items.map((i) => i.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    for (const item of first.serp.items) {
      expect(item.url).toMatch(/^https?:\/\//)
      expect(item.title.length).toBeGreaterThan(0)
      expect(item.domain).toBe(new URL(item.url).hostname.replace(/^www\./, ''))
    }
    expect(first.serp.peopleAlsoAsk.length).toBeGreaterThan(0)
    expect(first.serp.relatedSearches.length).toBeGreaterThan(0)

    // The request on the wire: one task, Google Ads geo id and ISO 639-1 language, the asked depth.
    const reqs = await serp.requests({ method: 'POST', path: '/v3/serp/google/organic/live/advanced' })
    const mine = reqs.filter((r) => JSON.stringify(r.body).includes(normalizeSerpKeyword(keyword)))
    expect(mine).toHaveLength(1)
    expect(mine[0]!.body).toEqual([expect.objectContaining({ location_code: 2840, language_code: 'en', depth: 10 })])

    const again = await getSerp({ keyword, countryCode: 'US', languageCode: 'en', depth: 10, maxAgeDays: 7 })
    expect(again).toMatchObject({ ok: true, cached: true })
    expect((await cacheRows(keyword)).length).toBe(1)

    // A deeper ask is not served by the shallow row; its answer replaces it; a shallow ask is then served by it.
    const deep = await getSerp({ keyword, countryCode: '2840', languageCode: '1000', depth: 100, maxAgeDays: 0 })
    expect(deep).toMatchObject({ ok: true, cached: false })
    if (deep.ok) expect(deep.serp.items).toHaveLength(100)
    const rows = await cacheRows(keyword)
    expect(rows.map((r) => r.depth)).toEqual([100])
    const shallow = await getSerp({ keyword, countryCode: '2840', languageCode: '1000', depth: 10, maxAgeDays: 0 })
    expect(shallow).toMatchObject({ ok: true, cached: true })
  })

  it('places a test domain at a position that can move from one fetch to the next', async () => {
    const keyword = `rank tracker ${tag()}`
    const url = `https://www.my-site-${tag()}.test/blog/post`
    await serp.place({ keyword, url, position: 7 })
    const a = await getSerp({ keyword, countryCode: '2840', languageCode: '1000', depth: 100, maxAgeDays: 0 })
    expect(a.ok && positionOf(a.serp, { url })).toBe(7)
    expect(a.ok && positionOf(a.serp, { domain: new URL(url).hostname })).toBe(7)
    await serp.place({ keyword, url, position: 3 })
    await db.delete(schema.serpCache).where(eq(schema.serpCache.keyword, keyword))
    const b = await getSerp({ keyword, countryCode: '2840', languageCode: '1000', depth: 100, maxAgeDays: 0 })
    expect(b.ok && positionOf(b.serp, { url })).toBe(3)
    await serp.place({ keyword, url, position: null })
  })

  it('answers { ok: false } for a failing, junk or hanging SERP, without caching anything', async () => {
    for (const kind of [500, 'junk', 'timeout'] as const) {
      const keyword = `broken serp ${tag()}`
      await serp.fail(kind, 3)
      const answer = await getSerp({
        keyword,
        countryCode: '2840',
        languageCode: '1000',
        depth: 10,
        maxAgeDays: 7,
        budgetMs: 1_500,
      })
      expect(answer.ok).toBe(false)
      expect(await cacheRows(keyword)).toHaveLength(0)
      await serp.reset()
    }
  })
})
