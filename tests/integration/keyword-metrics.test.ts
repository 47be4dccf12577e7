import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { keywordCacheKey } from '#app/features/keywords/keywords'
import { fakeControl } from '#tests/fakes/client'
import { api, createTestUser, type TestUser } from '#tests/setup/app'

/**
 * Issue 36, more per keyword: intent, CPC, competition, trend and SERP features from DataForSEO (one keyword_ideas
 * call with serp_info, one batched search_intent call for the ideas without intent), in POST /api/search and GET
 * /api/saved-keywords; a failed intent call degrades the rows and never the search; the Columns preference without
 * JavaScript.
 */
type ApiKeyword = {
  _id: string
  keyword: string
  avgMonthlySearches: number | null
  source: string
  intent: string | null
  intentSource: string | null
  cpc: number | null
  cpcCurrency: string | null
  competition: number | null
  competitionLevel: string | null
  monthlySearches: Array<{ year: number; month: number; searches: number }> | null
  serpFeatures: string[] | null
  origin: string
  rankedPosition: number | null
  rankedUrl: string | null
  competitorDomain: string | null
  competitorPosition: number | null
  competitorUrl: string | null
}

const market = { countryCode: '2840', languageCode: '1000', countryName: 'United States', languageName: 'English' }

function uniqueQuery(base: string) {
  const letters = crypto
    .randomBytes(6)
    .toString('hex')
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)
  return `${base} ${letters}`
}

async function search(user: TestUser, query: string) {
  const res = await api('/api/search', { method: 'POST', json: { query, ...market }, as: user })
  return { status: res.status, body: res.body as { data?: ApiKeyword[]; note?: string } }
}

async function saved(user: TestUser) {
  const res = await api('/api/saved-keywords?limit=100', { as: user })
  expect(res.status).toBe(200)
  return (res.body as { data: ApiKeyword[] }).data
}

async function postColumns(user: TestUser, columns: string[]) {
  const body = new URLSearchParams({ intent: 'columns', redirectTo: '/keywords?sort=volume' })
  for (const c of columns) body.append('columns', c)
  return api('/keywords', { method: 'POST', body, as: user, auth: 'cookie' })
}

describe('keyword metrics (issue 36)', () => {
  it('answers intent, CPC, competition, trend and SERP features in the search and the saved list, in two round trips', async () => {
    const user = await createTestUser()
    const query = uniqueQuery('crm software')
    const mark = await fakeControl('dataforseo').mark()
    const res = await search(user, query)
    expect(res.status).toBe(200)
    expect(res.body.note).toBeUndefined()
    const data = res.body.data!
    expect(data.length).toBeGreaterThan(20)
    // Spec fields unchanged, new ones after them.
    expect(Object.keys(data[0]!).slice(0, 5)).toEqual([
      '_id',
      'keyword',
      'avgMonthlySearches',
      'difficultyScore',
      'createdAt',
    ])
    for (const k of data) {
      expect(['informational', 'commercial', 'transactional', 'navigational']).toContain(k.intent)
      expect(k.intentSource).toBe('dataforseo')
      expect(k.origin).toBe('search')
      expect(k.rankedPosition).toBeNull()
      expect(k.competitorDomain).toBeNull()
      expect(Array.isArray(k.serpFeatures)).toBe(true)
      for (const f of k.serpFeatures!) expect(['ai_overview', 'people_also_ask', 'video', 'local_pack']).toContain(f)
    }
    const priced = data.filter((k) => k.cpc !== null)
    expect(priced.length).toBeGreaterThan(5)
    for (const k of priced) {
      expect(k.cpcCurrency).toBe('USD')
      expect(k.competition).toBeGreaterThanOrEqual(0)
      expect(k.competition).toBeLessThanOrEqual(1)
      expect(['low', 'medium', 'high']).toContain(k.competitionLevel)
    }
    const trended = data.filter((k) => k.monthlySearches !== null)
    expect(trended.length).toBeGreaterThan(5)
    for (const k of trended) {
      expect(k.monthlySearches).toHaveLength(12)
      const order = k.monthlySearches!.map((m) => m.year * 12 + m.month)
      expect(order).toEqual([...order].sort((a, b) => a - b))
    }
    expect(data.some((k) => k.serpFeatures!.includes('people_also_ask'))).toBe(true)

    // One keyword_ideas call (asking serp_info), then one batched search_intent call for the ideas without intent.
    const calls = (await fakeControl('dataforseo').requests({ method: 'POST', since: mark })).filter((c) =>
      JSON.stringify(c.body).includes(query),
    )
    expect(calls.map((c) => c.path.replace(/^\/v3\/dataforseo_labs\/google\//, ''))).toEqual([
      'keyword_ideas/live',
      'search_intent/live',
    ])
    expect(calls[0]!.body).toEqual([expect.objectContaining({ include_serp_info: true })])
    const asked = (calls[1]!.body as Array<{ keywords: string[]; language_code: string }>)[0]!
    expect(asked.language_code).toBe('en')
    expect(asked.keywords.length).toBeGreaterThan(0)
    expect(asked.keywords.length).toBeLessThan(data.length)

    const list = await saved(user)
    const byId = new Map(list.map((k) => [k._id, k]))
    for (const k of data) {
      const s = byId.get(k._id)!
      expect({ ...s, createdAt: undefined }).toEqual({ ...k, createdAt: undefined })
    }

    // A search again (from the cache) updates the metrics and never a domain lookup's columns.
    const first = data[0]!
    await db
      .update(schema.savedKeywords)
      .set({ origin: 'domain', rankedDomain: 'example.com', rankedPosition: 7, rankedUrl: 'https://example.com/a' })
      .where(eq(schema.savedKeywords.id, first._id))
    const again = await search(user, query)
    expect(again.status).toBe(200)
    const row = again.body.data!.find((k) => k._id === first._id)!
    expect(row).toMatchObject({ origin: 'domain', rankedPosition: 7, rankedUrl: 'https://example.com/a' })
    expect(row.intent).toBe(first.intent)
  })

  it('keeps the search when the intent call fails: rows without intent, a note, nothing cached', async () => {
    const user = await createTestUser()
    const query = uniqueQuery('intentfail crm')
    const res = await search(user, query)
    expect(res.status).toBe(200)
    expect(res.body.note).toMatch(/intent could not be fetched/i)
    const data = res.body.data!
    expect(data.length).toBeGreaterThan(20)
    expect(data.every((k) => k.intent === null && k.intentSource === null)).toBe(true)
    expect(data.some((k) => k.cpc !== null && k.monthlySearches !== null)).toBe(true)
    const intentCalls = (await fakeControl('dataforseo').requests({ path: 'search_intent' })).filter((c) =>
      JSON.stringify(c.body).includes(query),
    )
    expect(intentCalls.length).toBeGreaterThanOrEqual(1)
    const [cached] = await db
      .select()
      .from(schema.keywordCache)
      .where(eq(schema.keywordCache.key, keywordCacheKey('dataforseo', { query, ...market })))
    expect(cached).toBeUndefined()
    // The search still counted once.
    const [sub] = await db
      .select({ n: schema.subscriptions.keywordSearchCount })
      .from(schema.subscriptions)
      .where(eq(schema.subscriptions.userId, user.id))
    expect(sub!.n).toBe(1)
  })

  it('saves the Columns choice without JavaScript and shows only those columns, the trend with its text', async () => {
    const user = await createTestUser()
    expect((await search(user, uniqueQuery('email marketing'))).status).toBe(200)

    // The defaults: Intent, CPC and Trend.
    let html = (await api('/keywords', { as: user, auth: 'cookie' })).text
    expect(html).toContain('data-testid="keyword-columns"')
    for (const c of ['intent', 'cpc', 'trend']) expect(html).toContain(`data-column="${c}"`)
    expect(html).not.toContain('data-column="features"')

    const res = await postColumns(user, ['features', 'trend', 'competition'])
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/keywords?sort=volume')
    const [u] = await db
      .select({ columns: schema.users.keywordColumns })
      .from(schema.users)
      .where(eq(schema.users.id, user.id))
    expect(u!.columns).toEqual(['competition', 'trend', 'features'])

    html = (await api('/keywords', { as: user, auth: 'cookie' })).text
    for (const c of ['competition', 'trend', 'features']) expect(html).toContain(`data-column="${c}"`)
    for (const c of ['intent', 'cpc', 'position']) expect(html).not.toContain(`data-column="${c}"`)
    // The sparkline is an image with its summary as its name; the cells are labelled for the phone layout.
    expect(html).toMatch(/<svg role="img" aria-label="Searches (up \d+%|down \d+%|steady|up from none) over 12 months"/)
    expect(html).toContain('data-label="SERP features"')

    // None checked: only the spec's five columns.
    expect((await postColumns(user, [])).status).toBe(302)
    html = (await api('/keywords', { as: user, auth: 'cookie' })).text
    expect(html).not.toMatch(/<td[^>]*data-column=/)

    // An unknown column is refused and changes nothing.
    expect((await postColumns(user, ['evil'])).status).toBe(302)
    const [after] = await db
      .select({ columns: schema.users.keywordColumns })
      .from(schema.users)
      .where(eq(schema.users.id, user.id))
    expect(after!.columns).toEqual([])

    // With JavaScript the fetcher asks for an answer instead of a redirect.
    const body = new URLSearchParams({ intent: 'columns', respond: 'json', columns: 'position' })
    const answered = await api('/keywords', { method: 'POST', body, as: user, auth: 'cookie' })
    expect(answered.status).toBe(200)
    const [js] = await db
      .select({ columns: schema.users.keywordColumns })
      .from(schema.users)
      .where(eq(schema.users.id, user.id))
    expect(js!.columns).toEqual(['position'])
  })
})
