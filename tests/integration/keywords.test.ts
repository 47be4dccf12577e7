import crypto from 'node:crypto'
import http from 'node:http'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SEARCH_ERROR_MESSAGE,
  SEARCH_UNAVAILABLE_MESSAGE,
  ESTIMATE_TOOLTIP,
  SEARCH_VALIDATION_MESSAGE,
  sortKeywords,
} from '#app/features/keywords/keywords'
import { QUOTA_MESSAGES } from '#app/features/billing/plans'
import { db, schema } from '#app/platform/db/client.server'
import { researchKeywordsWithoutQuota } from '#app/features/keywords/keywords.server'
import { fakeControl } from '#tests/fakes/client'
import type { RecordedRequest } from '#tests/fakes/http'
import { api, appUrl, createTestUser, type TestUser } from '#tests/setup/app'
import { chatCompletion } from '#tests/setup/openai'
import { startWeb, type WebProcess } from '#tests/setup/processes'

type ApiKeyword = {
  _id: string
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
  createdAt: string
  searchedViaAutoPilot: boolean
  countryCode: string
  languageCode: string
  source: string
  isEstimate: boolean
}

/** Other web processes of the built app with some credentials blanked, to reach the other providers. */
const webs: WebProcess[] = []
afterAll(async () => {
  await Promise.all(webs.map((w) => w.stop()))
})

/** A query nobody else searched (the 24-hour cache is shared by everybody). */
function uniqueQuery(base = 'seo tools') {
  const letters = crypto
    .randomBytes(6)
    .toString('hex')
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)
  return `${base} ${letters}`
}

const market = { countryCode: '2840', languageCode: '1000', countryName: 'United States', languageName: 'English' }

async function search(user: TestUser, query: string, base = appUrl()) {
  const res = await fetch(`${base}/api/search`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, ...market }),
  })
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: ApiKeyword[]
      message?: string
      redirect_to_profile?: boolean
      errors?: Record<string, string[]>
    },
  }
}

async function savedKeywords(user: TestUser, base = appUrl()) {
  const res = await fetch(`${base}/api/saved-keywords`, { headers: { Authorization: `Bearer ${user.token}` } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: ApiKeyword[] }).data
}

async function usedSearches(userId: string) {
  const [row] = await db
    .select({ n: schema.subscriptions.keywordSearchCount })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
  return row!.n
}

async function setUsedSearches(userId: string, n: number) {
  await db.update(schema.subscriptions).set({ keywordSearchCount: n }).where(eq(schema.subscriptions.userId, userId))
}

/** Requests a fake received whose body mentions the query. */
async function requestsFor(
  fake: Parameters<typeof fakeControl>[0],
  path: string,
  query: string,
): Promise<RecordedRequest[]> {
  const all = await fakeControl(fake).requests({ method: 'POST', path })
  return all.filter((r) => JSON.stringify(r.body).includes(query))
}

/** A form post of the Keywords screen, as a browser without JavaScript sends it. */
async function postSearchForm(user: TestUser, fields: Record<string, string>, base = appUrl()) {
  return fetch(`${base}/keywords`, {
    method: 'POST',
    headers: { Cookie: user.cookie, Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'search', ...fields }).toString(),
    redirect: 'manual',
  })
}

/** A GET with exactly these headers (fetch would replace Sec-Fetch-Mode with 'cors'). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
    const req = http.get(`${appUrl()}${path}`, { headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }))
    })
    req.on('error', reject)
  })
}

function dfsEnvelope(statusCode: number, message: string) {
  return {
    version: '0.1.20250114',
    status_code: 20000,
    status_message: 'Ok.',
    time: '0.1 sec.',
    cost: 0,
    tasks_count: 1,
    tasks_error: 1,
    tasks: [
      {
        id: 'x',
        status_code: statusCode,
        status_message: message,
        time: '0 sec.',
        cost: 0,
        result_count: 0,
        path: [],
        data: {},
        result: null,
      },
    ],
  }
}

describe('keywords', () => {
  describe('with DataForSEO (the preferred provider)', () => {
    it('finds ideas with volume and difficulty, the seed included, saves them and counts one search', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const res = await search(user, query)
      expect(res.status).toBe(200)
      const data = res.body.data!
      expect(data.length).toBeGreaterThan(5)
      expect(data.map((k) => k.keyword)).toContain(query)
      for (const k of data) {
        expect(k).toMatchObject({
          source: 'dataforseo',
          isEstimate: false,
          searchedViaAutoPilot: false,
          countryCode: '2840',
          languageCode: '1000',
        })
        expect(k._id).toMatch(/^[0-9a-f-]{36}$/)
      }
      expect(data.some((k) => typeof k.difficultyScore === 'number' && typeof k.avgMonthlySearches === 'number')).toBe(
        true,
      )

      const [call] = await requestsFor('dataforseo', 'keyword_ideas', query)
      expect(call!.headers.authorization).toMatch(/^Basic /)
      expect(call!.body).toEqual([
        expect.objectContaining({ keywords: [query], location_code: 2840, language_code: 'en' }),
      ])

      expect(await usedSearches(user.id)).toBe(1)
      const saved = await savedKeywords(user)
      expect(saved.map((k) => k._id).sort()).toEqual(data.map((k) => k._id).sort())
      expect(saved.map((k) => k._id)).toEqual(sortKeywords(saved).map((k) => k._id))
      const volumes = saved.map((k) => k.avgMonthlySearches ?? -1)
      expect(volumes).toEqual([...volumes].sort((a, b) => b - a))
    })

    it('answers a repeated search from the 24-hour cache, across users, and still counts it', async () => {
      const query = uniqueQuery()
      const first = await createTestUser()
      const second = await createTestUser()
      expect((await search(first, query)).status).toBe(200)
      expect(await requestsFor('dataforseo', 'keyword_ideas', query)).toHaveLength(1)
      const res = await search(second, `  ${query.toUpperCase().replace(' ', '   ')} `)
      expect(res.status).toBe(200)
      expect(res.body.data!.length).toBeGreaterThan(5)
      expect(await requestsFor('dataforseo', 'keyword_ideas', query)).toHaveLength(1)
      expect(await usedSearches(second.id)).toBe(1)
      const [cached] = await db
        .select()
        .from(schema.keywordCache)
        .where(eq(schema.keywordCache.key, `v2|dataforseo|2840|1000|${query}`))
      expect(cached?.source).toBe('dataforseo')
    })

    it('updates the rows of a keyword searched again instead of duplicating them, dated anew', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const first = (await search(user, query)).body.data!
      await new Promise((r) => setTimeout(r, 20))
      const again = (await search(user, query)).body.data!
      expect(again.map((k) => k._id).sort()).toEqual(first.map((k) => k._id).sort())
      expect(new Date(again[0]!.createdAt).getTime()).toBeGreaterThan(new Date(first[0]!.createdAt).getTime())
      expect(await savedKeywords(user)).toHaveLength(first.length)
      expect(await usedSearches(user.id)).toBe(2)
    })

    it('answers an empty result with an empty list', async () => {
      const user = await createTestUser()
      const res = await search(user, uniqueQuery('emptyresult'))
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([])
      expect(await savedKeywords(user)).toEqual([])
    })

    it('ends a provider error in the spec message and gives the search back', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('dataforseo').enqueue({ status: 500, path: 'keyword_ideas', bodyIncludes: query, times: 3 })
      const res = await search(user, query)
      expect(res.status).toBe(502)
      expect(res.body.message).toBe(SEARCH_ERROR_MESSAGE)
      expect(await usedSearches(user.id)).toBe(0)
    })

    it('does not retry a task-level error that retrying cannot fix', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('dataforseo').enqueue({
        status: 200,
        path: 'keyword_ideas',
        bodyIncludes: query,
        body: dfsEnvelope(40501, "Invalid Field: 'keywords'."),
      })
      const res = await search(user, query)
      expect(res.status).toBe(502)
      expect(res.body.message).toBe(SEARCH_ERROR_MESSAGE)
      expect(await requestsFor('dataforseo', 'keyword_ideas', query)).toHaveLength(1)
    })

    it('retries after a 429 and succeeds', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('dataforseo').enqueue({
        status: 429,
        path: 'keyword_ideas',
        bodyIncludes: query,
        times: 1,
        headers: { 'Retry-After': '1' },
      })
      const started = Date.now()
      const res = await search(user, query)
      expect(res.status).toBe(200)
      expect(res.body.data!.map((k) => k.keyword)).toContain(query)
      expect(Date.now() - started).toBeGreaterThanOrEqual(900)
      expect(await usedSearches(user.id)).toBe(1)
    })

    it('gives up after repeated 429s with the spec message, and refunds', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('dataforseo').enqueue({ status: 429, path: 'keyword_ideas', bodyIncludes: query, times: 3 })
      const res = await search(user, query)
      expect(res.status).toBe(502)
      expect(res.body.message).toBe(SEARCH_ERROR_MESSAGE)
      expect(await requestsFor('dataforseo', 'keyword_ideas', query)).toHaveLength(3)
      expect(await usedSearches(user.id)).toBe(0)
    })

    it('retries a request that times out', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('dataforseo').enqueue({
        status: 200,
        hang: true,
        path: 'keyword_ideas',
        bodyIncludes: query,
        times: 1,
      })
      const res = await search(user, query)
      expect(res.status).toBe(200)
      expect(res.body.data!.map((k) => k.keyword)).toContain(query)
    }, 30_000)
  })

  describe('input, authentication and quota', () => {
    it('refuses incomplete input with the spec message and field errors, without counting', async () => {
      const user = await createTestUser()
      for (const body of [
        { query: '', ...market },
        { query: 'seo', countryCode: '', languageCode: '1000' },
        { query: 'seo', countryCode: '2840' },
      ]) {
        const res = await api('/api/search', { method: 'POST', json: body, as: user })
        expect(res.status).toBe(400)
        expect(res.body.message).toBe(SEARCH_VALIDATION_MESSAGE)
        expect(res.body.errors).toBeTruthy()
      }
      expect(await usedSearches(user.id)).toBe(0)
    })

    it('needs a signed-in user', async () => {
      expect((await api('/api/search', { method: 'POST', json: { query: 'seo', ...market } })).status).toBe(401)
      expect((await api('/api/saved-keywords')).status).toBe(401)
    })

    it('answers over quota with redirect_to_profile (not 403) and the spec message', async () => {
      const user = await createTestUser()
      await setUsedSearches(user.id, 10)
      const res = await search(user, uniqueQuery())
      expect(res.status).toBe(402)
      expect(res.body).toMatchObject({ redirect_to_profile: true, message: QUOTA_MESSAGES.keywordSearches })
      expect(await usedSearches(user.id)).toBe(10)
    })

    it('lets exactly 3 of 20 concurrent searches through for a trial user with 3 left', async () => {
      const user = await createTestUser()
      await setUsedSearches(user.id, 7)
      const results = await Promise.all(Array.from({ length: 20 }, () => search(user, uniqueQuery())))
      const ok = results.filter((r) => r.status === 200)
      const refused = results.filter((r) => r.status === 402)
      expect(ok).toHaveLength(3)
      expect(refused).toHaveLength(17)
      for (const r of refused) expect(r.body.redirect_to_profile).toBe(true)
      expect(await usedSearches(user.id)).toBe(10)
    })

    it('hides keywords found by Auto Pilot, which researchKeywords saves without counting a search', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const rows = await researchKeywordsWithoutQuota(
        user.id,
        { query, countryCode: '2840', languageCode: '1000' },
        { viaAutoPilot: true },
      )
      expect(rows.length).toBeGreaterThan(5)
      expect(rows.every((r) => r.searchedViaAutoPilot && r.userId === user.id)).toBe(true)
      expect(await usedSearches(user.id)).toBe(0)
      expect(await savedKeywords(user)).toEqual([])
      const page = await api('/keywords', { as: user, auth: 'cookie' })
      expect(page.status).toBe(200)
      expect(page.text).not.toContain(query)
      // The same keyword searched by hand gets its own, visible row.
      const manual = await search(user, query)
      expect(manual.status).toBe(200)
      const all = await db
        .select()
        .from(schema.savedKeywords)
        .where(and(eq(schema.savedKeywords.userId, user.id), eq(schema.savedKeywords.keyword, query)))
      expect(all.map((r) => r.searchedViaAutoPilot).sort()).toEqual([false, true])
    })
  })

  describe('the Keywords screen without JavaScript', () => {
    it('shows the screen with the user’s market preselected', async () => {
      const user = await createTestUser()
      const res = await api('/keywords', { as: user, auth: 'cookie' })
      expect(res.status).toBe(200)
      expect(res.text).toContain('Keyword Opportunities')
      expect(res.text).toMatch(/<option value="2840" selected="">United States<\/option>/)
      expect(res.text).toMatch(/<option value="1000" selected="">English<\/option>/)
    })

    it('sends a signed-out visitor to sign in and a user without onboarding to onboarding', async () => {
      const anonymous = await api('/keywords')
      expect(anonymous.status).toBe(302)
      expect(anonymous.headers.get('location')).toMatch(/^\/signin\?redirectTo=%2Fkeywords/)
      const fresh = await createTestUser({ onboarded: false })
      const res = await api('/keywords', { as: fresh, auth: 'cookie' })
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/onboarding')
    })

    it('searches with a plain form post, then redirects to the list (post/redirect/get)', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const res = await postSearchForm(user, { query, countryCode: '2840', languageCode: '1000' })
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/keywords')
      const page = await api('/keywords', { as: user, auth: 'cookie' })
      expect(page.text).toContain(`data-keyword="${query}"`)
      expect(await usedSearches(user.id)).toBe(1)
    })

    it('shows the validation message, keeping the values', async () => {
      const user = await createTestUser()
      const res = await postSearchForm(user, { query: 'kept value', countryCode: '', languageCode: '1000' })
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain(SEARCH_VALIDATION_MESSAGE)
      expect(html).toContain('value="kept value"')
    })

    it('shows the error message when the provider fails', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('dataforseo').enqueue({ status: 503, path: 'keyword_ideas', bodyIncludes: query, times: 3 })
      const res = await postSearchForm(user, { query, countryCode: '2840', languageCode: '1000' })
      expect(res.status).toBe(502)
      expect(await res.text()).toContain(SEARCH_ERROR_MESSAGE)
    })

    it('shows the quota dialog with Upgrade Now', async () => {
      const user = await createTestUser()
      await setUsedSearches(user.id, 10)
      const res = await postSearchForm(user, { query: uniqueQuery(), countryCode: '2840', languageCode: '1000' })
      expect(res.status).toBe(402)
      const html = await res.text()
      expect(html).toContain(QUOTA_MESSAGES.keywordSearches)
      expect(html).toMatch(/<a[^>]*href="\/profile"[^>]*>Upgrade Now<\/a>/)
    })

    it('runs a prefilled search once on a same-site document navigation and redirects to the clean list', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const url = `/keywords?${new URLSearchParams({ query, ...market, run: '1' })}`
      const headers = {
        Cookie: user.cookie,
        'Sec-Fetch-Mode': 'navigate',
        'Sec-Fetch-Site': 'same-origin',
        'Sec-Fetch-Dest': 'document',
      }
      const first = await rawGet(url, headers)
      expect(first.status).toBe(302)
      expect(first.location).toBe('/keywords')
      expect(await usedSearches(user.id)).toBe(1)
      const again = await rawGet(url, headers)
      expect(again.status).toBe(302)
      expect(again.location).toBe('/keywords')
      expect(await usedSearches(user.id)).toBe(1)
      expect(await requestsFor('dataforseo', 'keyword_ideas', query)).toHaveLength(1)
      expect((await savedKeywords(user)).map((k) => k.keyword)).toContain(query)
    })

    it('only prefills the form for a cross-site link or a client-side navigation', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const url = `/keywords?${new URLSearchParams({ query, ...market, run: '1' })}`
      const crossSite = await rawGet(url, {
        Cookie: user.cookie,
        'Sec-Fetch-Mode': 'navigate',
        'Sec-Fetch-Site': 'cross-site',
      })
      expect(crossSite.status).toBe(200)
      expect(crossSite.text).toContain(`value="${query}"`)
      expect(crossSite.text).toContain('"autoRun":false')
      const clientSide = await rawGet(url, {
        Cookie: user.cookie,
        'Sec-Fetch-Mode': 'cors',
        'Sec-Fetch-Site': 'same-origin',
      })
      expect(clientSide.status).toBe(200)
      expect(clientSide.text).toContain('"autoRun":true')
      expect(await usedSearches(user.id)).toBe(0)
      expect(await requestsFor('dataforseo', 'keyword_ideas', query)).toHaveLength(0)
    })

    it('asks to complete an incomplete prefill (onboarding without a country) instead of searching', async () => {
      const user = await createTestUser()
      await db.update(schema.users).set({ countryCode: null, languageCode: null }).where(eq(schema.users.id, user.id))
      const query = uniqueQuery()
      const res = await rawGet(`/keywords?${new URLSearchParams({ query, run: '1' })}`, {
        Cookie: user.cookie,
        'Sec-Fetch-Mode': 'navigate',
        'Sec-Fetch-Site': 'same-origin',
      })
      expect(res.status).toBe(200)
      expect(res.text).toContain(SEARCH_VALIDATION_MESSAGE)
      expect(res.text).toContain(`value="${query}"`)
      expect(res.text).toContain('<option value="" selected="">Select country</option>')
      expect(await usedSearches(user.id)).toBe(0)
    })

    it('pages a long list with Show more', async () => {
      const user = await createTestUser()
      const now = Date.now()
      await db.insert(schema.savedKeywords).values(
        Array.from({ length: 130 }, (_, i) => ({
          userId: user.id,
          keyword: `paged keyword ${i}`,
          countryCode: '2840',
          languageCode: '1000',
          avgMonthlySearches: i * 10,
          difficultyScore: i % 100,
          source: 'dataforseo' as const,
          createdAt: new Date(now - i * 1000),
        })),
      )
      const first = await api('/keywords', { as: user, auth: 'cookie' })
      expect(first.text.match(/data-keyword="/g)).toHaveLength(50)
      expect(first.text).toContain('Showing 50 of 130 keywords')
      expect(first.text).toContain('href="/keywords?show=100"')
      const more = await api('/keywords?show=100', { as: user, auth: 'cookie' })
      expect(more.text.match(/data-keyword="/g)).toHaveLength(100)
      expect(more.text).toContain('href="/keywords?show=150"')
      const all = await api('/keywords?show=150', { as: user, auth: 'cookie' })
      expect(all.text.match(/data-keyword="/g)).toHaveLength(130)
      expect(all.text).not.toContain('Show more')
      // Newest first across pages.
      const keywords = [...all.text.matchAll(/data-keyword="([^"]+)"/g)].map((m) => m[1])
      expect(keywords.slice(0, 3)).toEqual(['paged keyword 0', 'paged keyword 1', 'paged keyword 2'])
    })
  })

  describe('with Google Ads Keyword Planner (no DataForSEO credentials)', () => {
    let web: WebProcess
    beforeAll(async () => {
      web = await startWeb({ DATAFORSEO_LOGIN: '', DATAFORSEO_PASSWORD: '' }, { host: 'localhost' })
      webs.push(web)
    })

    it('finds ideas with average monthly searches and the competition index as difficulty, reusing its access token', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const tokensBefore = await fakeControl('googleOAuth').mark()
      const res = await search(user, query, web.url)
      expect(res.status).toBe(200)
      const data = res.body.data!
      expect(data.map((k) => k.keyword)).toContain(query)
      expect(data.every((k) => k.source === 'google_ads' && !k.isEstimate)).toBe(true)
      expect(data.some((k) => typeof k.difficultyScore === 'number')).toBe(true)
      // Issue 36: CPC from the top-of-page bids (the account's currency, not named), the trend, and the intent
      // estimated by the model in one call.
      const depth = data as unknown as Array<Record<string, unknown>>
      expect(depth.some((k) => typeof k.cpc === 'number' && k.cpcCurrency === null)).toBe(true)
      expect(depth.some((k) => Array.isArray(k.monthlySearches) && k.monthlySearches.length === 12)).toBe(true)
      expect(depth.every((k) => k.intentSource === 'ai_estimate' && typeof k.intent === 'string')).toBe(true)
      expect(await requestsFor('openai', '/chat/completions', query)).toHaveLength(1)

      const [call] = await requestsFor('googleAds', ':generateKeywordIdeas', query)
      expect(call!.path).toMatch(/^\/v\d+\/customers\/1234567890:generateKeywordIdeas$/)
      expect(call!.headers['developer-token']).toBeTruthy()
      expect(call!.headers.authorization).toMatch(/^Bearer ya29\./)
      expect(call!.body).toMatchObject({
        language: 'languageConstants/1000',
        geoTargetConstants: ['geoTargetConstants/2840'],
        keywordSeed: { keywords: [query] },
      })
      expect(await usedSearches(user.id)).toBe(1)

      expect((await search(user, uniqueQuery(), web.url)).status).toBe(200)
      const tokenCalls = (await fakeControl('googleOAuth').requests({ path: '/token', since: tokensBefore })).length
      expect(tokenCalls).toBe(1)

      const page = await fetch(`${web.url}/keywords`, { headers: { Cookie: user.cookie } })
      const html = await page.text()
      expect(html).toContain('Ads competition')
      expect(html).toContain('competition index')
    })

    it('answers an empty result with an empty list', async () => {
      const user = await createTestUser()
      const res = await search(user, uniqueQuery('emptyresult'), web.url)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([])
    })

    it('ends an API error in the spec message without retrying a bad request', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('googleAds').enqueue({
        status: 400,
        path: ':generateKeywordIdeas',
        bodyIncludes: query,
        times: 1,
      })
      const res = await search(user, query, web.url)
      expect(res.status).toBe(502)
      expect(res.body.message).toBe(SEARCH_ERROR_MESSAGE)
      expect(await requestsFor('googleAds', ':generateKeywordIdeas', query)).toHaveLength(1)
      expect(await usedSearches(user.id)).toBe(0)
    })

    it('honours the retryDelay of a 429 and succeeds', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('googleAds').enqueue({
        status: 429,
        path: ':generateKeywordIdeas',
        bodyIncludes: query,
        times: 1,
      })
      const started = Date.now()
      const res = await search(user, query, web.url)
      expect(res.status).toBe(200)
      expect(Date.now() - started).toBeGreaterThanOrEqual(900)
      expect(res.body.data!.map((k) => k.keyword)).toContain(query)
    })

    it('gives up after repeated 429s', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('googleAds').enqueue({
        status: 429,
        path: ':generateKeywordIdeas',
        bodyIncludes: query,
        times: 3,
      })
      const res = await search(user, query, web.url)
      expect(res.status).toBe(502)
      expect(res.body.message).toBe(SEARCH_ERROR_MESSAGE)
      expect(await usedSearches(user.id)).toBe(0)
    })
  })

  describe('with AI estimates (neither keyword data provider configured)', () => {
    let web: WebProcess
    beforeAll(async () => {
      web = await startWeb(
        { DATAFORSEO_LOGIN: '', DATAFORSEO_PASSWORD: '', GOOGLE_ADS_DEVELOPER_TOKEN: '' },
        { host: 'localhost' },
      )
      webs.push(web)
    })

    it('stores the model’s ideas as estimates and marks them on the screen', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      const res = await search(user, query, web.url)
      expect(res.status).toBe(200)
      const data = res.body.data!
      expect(data.length).toBeGreaterThan(0)
      expect(data.every((k) => k.source === 'ai_estimate' && k.isEstimate)).toBe(true)
      expect(data.every((k) => k.difficultyScore! >= 0 && k.difficultyScore! <= 100)).toBe(true)
      // Issue 36: the model's intent (an estimate), and no made-up CPC or trend.
      const depth = data as unknown as Array<Record<string, unknown>>
      expect(depth.every((k) => k.intentSource === 'ai_estimate' && k.cpc === null && k.monthlySearches === null)).toBe(
        true,
      )
      const [call] = await requestsFor('openai', '/chat/completions', query)
      expect(call!.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { strict: true } } })

      const html = await (await fetch(`${web.url}/keywords`, { headers: { Cookie: user.cookie } })).text()
      expect(html).toContain('data-estimate')
      expect(html).toContain(ESTIMATE_TOOLTIP)
    })

    it('answers an empty list from the model with an empty list', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('openai').enqueue({
        status: 200,
        path: '/chat/completions',
        bodyIncludes: query,
        body: chatCompletion('{"keywords":[]}'),
      })
      const res = await search(user, query, web.url)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([])
    })

    it('ends a model error in the spec message and refunds', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('openai').enqueue({ status: 500, path: '/chat/completions', bodyIncludes: query, times: 3 })
      const res = await search(user, query, web.url)
      expect(res.status).toBe(502)
      expect(res.body.message).toBe(SEARCH_ERROR_MESSAGE)
      expect(await usedSearches(user.id)).toBe(0)
    })

    it('retries after a 429 and succeeds', async () => {
      const user = await createTestUser()
      const query = uniqueQuery()
      await fakeControl('openai').enqueue({ status: 429, path: '/chat/completions', bodyIncludes: query, times: 1 })
      const res = await search(user, query, web.url)
      expect(res.status).toBe(200)
      expect(res.body.data!.length).toBeGreaterThan(0)
    })
  })

  describe('with no provider at all', () => {
    let web: WebProcess
    beforeAll(async () => {
      web = await startWeb(
        { DATAFORSEO_LOGIN: '', GOOGLE_ADS_DEVELOPER_TOKEN: '', OPENAI_API_KEY: '' },
        { host: 'localhost' },
      )
      webs.push(web)
    })

    it('switches keyword research off with a clear message and does not count', async () => {
      const user = await createTestUser()
      const res = await search(user, uniqueQuery(), web.url)
      expect(res.status).toBe(503)
      expect(res.body.message).toBe(SEARCH_UNAVAILABLE_MESSAGE)
      expect(await usedSearches(user.id)).toBe(0)
      const html = await (await fetch(`${web.url}/keywords`, { headers: { Cookie: user.cookie } })).text()
      expect(html).toContain(SEARCH_UNAVAILABLE_MESSAGE)
      expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Find Keywords<\/button>/)
    })
  })
})
