import crypto from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { LIMITS, QUOTA_MESSAGES } from '#app/features/billing/plans'
import { research } from '#app/features/content/research.server'
import { normalizeSerpKeyword } from '#app/features/keywords/serp'
import { SERP_VIEW_MESSAGES } from '#app/features/keywords/serp-view'
import { db, schema } from '#app/platform/db/client.server'
import { api, createTestUser, type TestUser } from '#tests/setup/app'
import { addKeywords } from '#tests/setup/records'
import { serpControl } from '#tests/fakes/client'
import { fakeDomainRank } from '#tests/fakes/dataforseo-backlinks'

/**
 * Issue 36: a saved keyword's results page (GET /api/keywords/:id/serp and /keywords/:id/serp) against the DataForSEO
 * fake: its fields, the SERP call it shares with the content engine's research, domain strengths cached for
 * everyone, the quota (one keyword search per keyword and UTC day) and failures that charge nothing.
 */
const dfs = serpControl()
const tag = () => crypto.randomBytes(4).toString('hex')
const SERP_PATH = '/v3/serp/google/organic/live/advanced'
const RANKS_PATH = '/v3/backlinks/bulk_ranks/live'

type Result = {
  rank: number
  title: string
  url: string
  domain: string
  strength: number | null
  kind: string
  words: number | null
  publishedAt: string | null
  age: string | null
}
type Data = {
  keyword: { id: string; keyword: string; market: string }
  summary: string
  hint: string
  features: string[]
  strengthAvailable: boolean
  results: Result[]
}

async function searchesUsed(user: TestUser) {
  const [row] = await db
    .select({ count: schema.subscriptions.keywordSearchCount })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, user.id))
  return row!.count
}

/** The fake's requests to `path` since `mark` whose body mentions `needle`. */
async function calls(path: string, mark: number, needle: string) {
  const reqs = await dfs.requests({ method: 'POST', path, since: mark })
  return reqs.filter((r) => JSON.stringify(r.body).includes(needle))
}

/** The top 10 of `keyword` placed by hand: well-known sites, forums, a video and small sites of this test. */
async function placeTopTen(keyword: string, t: string) {
  const urls = [
    'https://en.wikipedia.org/wiki/Newsletter',
    `https://www.reddit.com/r/saas/comments/${t}/newsletters/`,
    `https://www.youtube.com/watch?v=${t}`,
    'https://www.forbes.com/advisor/business/newsletter/',
    `https://www.quora.com/What-is-a-newsletter-${t}`,
    `https://smallblog-${t}.com/newsletter`,
    `https://tiny-${t}.io/posts/newsletter`,
    `https://nerdy-${t}.net/guide`,
    `https://startup-${t}.co/blog/newsletter`,
    `https://indie-${t}.dev/newsletter`,
  ]
  for (const [i, url] of urls.entries()) await dfs.place({ keyword, url, position: i + 1 })
  return urls
}

describe('keyword results page', () => {
  it('shares one SERP call with research, shows words, strengths (cached), features, and counts once a day', async () => {
    const user = await createTestUser()
    const t = tag()
    const keyword = `how to start a newsletter tutorial ${t}`
    const [kw] = await addKeywords(user, [keyword])
    const needle = normalizeSerpKeyword(keyword)
    const mark = await dfs.mark()

    // The content engine researches the keyword first (as 'Create Post' would): its SERP call and the pages it read.
    const researched = await research({ keyword, countryCode: '2840', languageCode: '1000' })
    expect(researched.status).toBe('full')
    const before = await searchesUsed(user)

    const res = await api(`/api/keywords/${kw!.id}/serp`, { as: user })
    expect(res.status).toBe(200)
    const data = (res.body as { data: Data }).data
    expect(data.keyword).toMatchObject({ id: kw!.id, keyword, market: 'United States · English' })
    expect(data.results.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    // One SERP call for the keyword: research's; the results page read the same cached row.
    expect(await calls(SERP_PATH, mark, needle)).toHaveLength(1)
    // Words where research read the page, by URL.
    const read = new Map(researched.pages.filter((p) => p.status === 'ok').map((p) => [p.url, p.words]))
    expect(read.size).toBeGreaterThan(0)
    for (const r of data.results) expect(r.words).toBe(read.get(r.url) ?? null)
    // 'how to … tutorial': an AI Overview, People also ask and videos (the fake's rules), in the API's ids.
    expect(data.features).toEqual(expect.arrayContaining(['ai_overview', 'people_also_ask', 'video']))
    // Dates as Google gives them (the fake dates two results in three): ISO, with an age in words.
    const dated = data.results.filter((r) => r.publishedAt)
    expect(dated.length).toBeGreaterThan(0)
    for (const r of dated) {
      expect(new Date(r.publishedAt!).toISOString()).toBe(r.publishedAt)
      expect(r.age).toMatch(/^(today|\d+ (day|week|month|year)s? old)$/)
    }
    expect(await searchesUsed(user)).toBe(before + 1)

    // Opening it again the same day: free, and no provider call at all.
    const again = await api(`/api/keywords/${kw!.id}/serp`, { as: user })
    expect(again.status).toBe(200)
    expect(await searchesUsed(user)).toBe(before + 1)
    expect(await calls(SERP_PATH, mark, needle)).toHaveLength(1)

    // A second keyword whose top 10 is known sites, forums, a video and small sites: strengths and the summary.
    const other = `email newsletter ideas ${t}`
    const urls = await placeTopTen(other, t)
    const [kw2] = await addKeywords(user, [other])
    const rankMark = await dfs.mark()
    const second = await api(`/api/keywords/${kw2!.id}/serp`, { as: user })
    expect(second.status).toBe(200)
    const d2 = (second.body as { data: Data }).data
    expect(d2.results.map((r) => r.url)).toEqual(urls)
    expect(d2.results.map((r) => r.strength)).toEqual(d2.results.map((r) => fakeDomainRank(r.domain)))
    expect(d2.results.map((r) => r.kind)).toEqual([
      'big',
      'forum',
      'video',
      'big',
      'forum',
      'small',
      'small',
      'small',
      'small',
      'small',
    ])
    expect(d2.summary).toBe('2 big sites, 2 forums, 1 video and 5 smaller sites')
    expect(d2.hint).toMatch(/room/)
    expect(d2.strengthAvailable).toBe(true)
    expect(await searchesUsed(user)).toBe(before + 2)
    // One bulk ranks call for every domain the cache missed, in the real request shape.
    const rankCalls = await calls(RANKS_PATH, rankMark, `smallblog-${t}.com`)
    expect(rankCalls).toHaveLength(1)
    const targets = (rankCalls[0]!.body as Array<{ targets: string[] }>)[0]!.targets
    expect(targets).toEqual(expect.arrayContaining([`smallblog-${t}.com`, `indie-${t}.dev`]))
    const cached = await db
      .select()
      .from(schema.domainRanks)
      .where(inArray(schema.domainRanks.domain, [`smallblog-${t}.com`, `tiny-${t}.io`]))
    expect(cached.map((r) => r.rank).sort()).toEqual(
      [fakeDomainRank(`smallblog-${t}.com`), fakeDomainRank(`tiny-${t}.io`)].sort(),
    )

    // Another user opening the same keyword: the strengths come from the shared cache (no bulk ranks call).
    const someoneElse = await createTestUser()
    const [kw3] = await addKeywords(someoneElse, [other])
    const otherMark = await dfs.mark()
    expect((await api(`/api/keywords/${kw3!.id}/serp`, { as: someoneElse })).status).toBe(200)
    expect(await calls(RANKS_PATH, otherMark, `smallblog-${t}.com`)).toHaveLength(0)

    // The page itself: text titles, links that are never followed nor given access to this page.
    const page = await api(`/keywords/${kw2!.id}/serp`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('2 big sites, 2 forums, 1 video and 5 smaller sites')
    expect(page.text).toContain(`href="https://smallblog-${t}.com/newsletter"`)
    expect(page.text).toMatch(/target="_blank" rel="nofollow noopener noreferrer"/)
  })

  it('refuses at the limit with the plan message, and keeps a page already opened today free', async () => {
    const user = await createTestUser()
    const t = tag()
    const [opened, fresh] = await addKeywords(user, [`crm for startups ${t}`, `crm pricing ${t}`])
    expect((await api(`/api/keywords/${opened!.id}/serp`, { as: user })).status).toBe(200)
    await db
      .update(schema.subscriptions)
      .set({ keywordSearchCount: LIMITS.trial.keywordSearches })
      .where(eq(schema.subscriptions.userId, user.id))
    const mark = await dfs.mark()

    const refused = await api(`/api/keywords/${fresh!.id}/serp`, { as: user })
    expect(refused.status).toBe(402)
    expect(refused.body).toEqual({ message: QUOTA_MESSAGES.keywordSearches, redirect_to_profile: true })
    expect(await calls(SERP_PATH, mark, `crm pricing ${t}`)).toHaveLength(0)
    const page = await api(`/keywords/${fresh!.id}/serp`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(402)
    expect(page.text).toContain(QUOTA_MESSAGES.keywordSearches)

    expect((await api(`/api/keywords/${opened!.id}/serp`, { as: user })).status).toBe(200)
    expect(await searchesUsed(user)).toBe(LIMITS.trial.keywordSearches)
  })

  it('charges nothing when Google’s results fail, shows strength as unavailable when ranks fail, hides others’ keywords', async () => {
    const user = await createTestUser()
    const t = tag()
    const keyword = `broken results ${t}`
    const [kw] = await addKeywords(user, [keyword])
    // An HTML error page instead of JSON, on every attempt.
    await dfs.enqueue({
      status: 500,
      body: '<html><body><h1>500 Internal Server Error</h1></body></html>',
      headers: { 'content-type': 'text/html' },
      path: '/serp/',
      bodyIncludes: keyword,
      times: 10,
    })
    const before = await searchesUsed(user)
    const failed = await api(`/api/keywords/${kw!.id}/serp`, { as: user })
    expect(failed.status).toBe(502)
    expect(failed.body).toEqual({ message: SERP_VIEW_MESSAGES.providerError })
    const page = await api(`/keywords/${kw!.id}/serp`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(502)
    expect(page.text).toContain('could not be read this time')
    expect(page.text).not.toMatch(/DataForSEO|Internal Server Error/i)
    expect(await searchesUsed(user)).toBe(before)
    const lookups = await db
      .select()
      .from(schema.keywordLookups)
      .where(and(eq(schema.keywordLookups.userId, user.id), eq(schema.keywordLookups.kind, 'serp')))
    expect(lookups).toHaveLength(0)

    // Bulk ranks failing: the page still answers, with no strength and the plain-words summary saying so.
    const ranked = `newsletter tools ${t}`
    await placeTopTen(ranked, t)
    const [kw2] = await addKeywords(user, [ranked])
    await dfs.enqueue({ status: 500, path: '/backlinks/', bodyIncludes: `smallblog-${t}.com`, times: 10 })
    const degraded = await api(`/api/keywords/${kw2!.id}/serp`, { as: user })
    expect(degraded.status).toBe(200)
    const data = (degraded.body as { data: Data }).data
    const small = data.results.filter((r) => r.domain.includes(t) && !/reddit|quora|youtube/.test(r.domain))
    expect(small.map((r) => [r.strength, r.kind])).toEqual(Array(5).fill([null, 'unknown']))
    const degradedPage = await api(`/keywords/${kw2!.id}/serp`, { as: user, auth: 'cookie' })
    expect(degradedPage.status).toBe(200)

    // Another user's keyword and a bad id: 404, nothing read or charged.
    const stranger = await createTestUser()
    const foreign = await api(`/api/keywords/${kw2!.id}/serp`, { as: stranger })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ message: 'Keyword not found.' })
    expect((await api(`/keywords/${kw2!.id}/serp`, { as: stranger, auth: 'cookie' })).status).toBe(404)
    expect((await api('/api/keywords/not-a-uuid/serp', { as: user })).status).toBe(404)
    expect(await searchesUsed(stranger)).toBe(0)

    // The fake's bulk ranks refuses bad tasks as the real API does (40501), in a 200 envelope.
    const auth = `Basic ${Buffer.from(`${process.env.DATAFORSEO_LOGIN}:${process.env.DATAFORSEO_PASSWORD}`).toString('base64')}`
    for (const task of [
      {},
      { targets: [] },
      { targets: Array(1001).fill('a.com') },
      { targets: ['a.com'], rank_scale: 'x' },
    ]) {
      const res = await fetch(`${dfs.url}${RANKS_PATH}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify([task]),
      })
      const body = (await res.json()) as { status_code: number; tasks: Array<{ status_code: number; result: null }> }
      expect([res.status, body.status_code, body.tasks[0]!.status_code, body.tasks[0]!.result]).toEqual([
        200,
        20000,
        40501,
        null,
      ])
    }
  })

  it('renders Google’s titles as text and drops addresses that are not http(s)', async () => {
    const user = await createTestUser()
    const t = tag()
    const keyword = `hostile titles ${t}`
    await dfs.place({
      keyword,
      url: `https://evil-${t}.example/page`,
      position: 1,
      title: '<img src=x onerror=alert(1)><script>alert(2)</script>Best tools',
    })
    await dfs.place({ keyword, url: 'javascript:alert(3)', position: 2, domain: 'evil.example', title: 'Click me' })
    const [kw] = await addKeywords(user, [keyword])
    const page = await api(`/keywords/${kw!.id}/serp`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;Best tools')
    expect(page.text).not.toContain('<img src=x')
    expect(page.text).not.toContain('javascript:alert(3)')
    expect(page.text).not.toContain('Click me')
  })
})
