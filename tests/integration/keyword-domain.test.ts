import crypto from 'node:crypto'
import { and, eq, isNotNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { LIMITS, QUOTA_MESSAGES } from '#app/features/billing/plans'
import { DOMAIN_LOOKUP_MESSAGES } from '#app/features/keywords/domain-keywords.server'
import { DOMAIN_MESSAGES } from '#app/features/keywords/domains'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl } from '#tests/fakes/client'
import { fakeDomainKeywords } from '#tests/fakes/dataforseo-domains'
import { api, createTestUser, type TestUser } from '#tests/setup/app'

/**
 * Issue 36 point 4 (and point 6's domain validation): the user's domain's ranked keywords and a competitor's gap,
 * over HTTP against the running app and the DataForSEO fake (whose answers are deterministic per domain:
 * `fakeDomainKeywords`): saved and shown (striking distance first, marked), charged once per lookup and UTC day,
 * refused at the limit, bad domains refused before any provider call, provider failures charging nothing.
 */
const US = '2840|en'

type DomainAnswer = {
  kind?: 'ranked' | 'gap'
  domain?: string
  competitor?: string | null
  data?: Array<{ keyword: string; position: number | null; url: string | null; strikingDistance: boolean }>
  message?: string
  errors?: Record<string, string>
  redirect_to_profile?: boolean
}

/** A user whose website is a domain of their own (so that fake answers and injected failures are theirs alone). */
async function userWithSite() {
  const tag = crypto.randomBytes(4).toString('hex')
  const user = await createTestUser()
  const own = `site${tag}.com`
  await db
    .update(schema.users)
    .set({ website: `https://www.${own}/` })
    .where(eq(schema.users.id, user.id))
  return { user, own, rival: `rival-${tag}.com`, tag }
}

const lookUp = async (user: TestUser, domain: string, extra = '') =>
  (await api(`/api/domain-keywords?domain=${encodeURIComponent(domain)}${extra}`, { as: user })) as {
    status: number
    body: DomainAnswer
  }

async function used(userId: string) {
  const [row] = await db
    .select({ n: schema.subscriptions.keywordSearchCount })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
  return row!.n
}

const rowsOf = (userId: string) => db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.userId, userId))
const lookupsOf = (userId: string) =>
  db.select().from(schema.keywordLookups).where(eq(schema.keywordLookups.userId, userId))

const form = (user: TestUser, fields: Record<string, string>) =>
  api('/keywords/domain', {
    method: 'POST',
    as: user,
    auth: 'cookie',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  })

/** The keywords of a list on the page, in order (the rows' data-keyword). */
function listed(html: string, testId: string) {
  const start = html.indexOf(`data-testid="${testId}"`)
  if (start === -1) return []
  const table = html.slice(start, html.indexOf('</table>', start))
  return [...table.matchAll(/<tr data-keyword="([^"]+)"/g)].map((m) => m[1]!)
}

describe('keyword domain: where you already stand', () => {
  it('saves and shows the ranked keywords, striking distance first, charged once a day', async () => {
    const { user, own } = await userWithSite()
    const expected = fakeDomainKeywords(own, US)
    expect(expected.length).toBe(12)
    const mark = await fakeControl('dataforseo').mark()

    const res = await lookUp(user, `https://WWW.${own.toUpperCase()}/`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ kind: 'ranked', domain: own, competitor: null })
    const data = res.body.data!
    expect(data).toHaveLength(12)
    // Positions 4-20 first (by position), then the rest; each flagged as the quickest wins or not.
    const positions = data.map((k) => k.position)
    expect(positions).toEqual([5, 8, 11, 14, 17, 19, 1, 2, 23, 31, 47, 64])
    for (const k of data) {
      expect(k.strikingDistance).toBe(k.position! >= 4 && k.position! <= 20)
      const fake = expected.find((e) => e.idea.keyword === k.keyword)!
      expect(k.position).toBe(fake.position)
      expect(k.url).toBe(fake.url)
    }
    // One ranked_keywords task, as DataForSEO documents it.
    const calls = await fakeControl('dataforseo').requests({ path: 'ranked_keywords', since: mark })
    expect(calls).toHaveLength(1)
    expect(calls[0]!.body).toEqual([
      expect.objectContaining({ target: own, location_code: 2840, language_code: 'en', item_types: ['organic'] }),
    ])

    // Saved like a search: origin 'domain' and the ranked_* columns, with the metrics.
    const rows = await rowsOf(user.id)
    expect(rows).toHaveLength(12)
    for (const r of rows) {
      expect(r).toMatchObject({ origin: 'domain', rankedDomain: own, source: 'dataforseo', countryCode: '2840' })
      expect(r.rankedPosition).toBe(expected.find((e) => e.idea.keyword === r.keyword)!.position)
      expect(r.rankedAt).toBeInstanceOf(Date)
      expect(r.competitorDomain).toBeNull()
    }
    expect(rows.some((r) => r.avgMonthlySearches !== null && r.intent !== null)).toBe(true)
    expect(await used(user.id)).toBe(1)

    // The same lookup again today is free; the page shows the list read back from the saved rows.
    expect((await lookUp(user, own)).status).toBe(200)
    expect(await used(user.id)).toBe(1)
    expect(await lookupsOf(user.id)).toHaveLength(1)
    const page = await api('/keywords/domain', { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(listed(page.text, 'ranked-keywords')).toEqual(data.map((k) => k.keyword))
    expect(page.text.match(/data-quick-win/g)).toHaveLength(6)
    expect(page.text).toContain(`href="${expected[0]!.url}" rel="nofollow noopener noreferrer"`)
    expect(page.text).toContain('Create Post')
  })

  it('saves the gap from the form without JavaScript; an existing row keeps its origin', async () => {
    const { user, own, rival } = await userWithSite()
    const gapKeywords = fakeDomainKeywords(rival, US)
    // A keyword the user searched before: the gap updates its competitor columns and metrics, not its origin.
    const [before] = await db
      .insert(schema.savedKeywords)
      .values({
        userId: user.id,
        keyword: gapKeywords[0]!.idea.keyword,
        countryCode: '2840',
        countryName: 'United States',
        languageCode: '1000',
        languageName: 'English',
        source: 'ai_estimate',
        avgMonthlySearches: 1,
        seedQuery: 'earlier search',
      })
      .returning()
    const mark = await fakeControl('dataforseo').mark()
    const res = await form(user, {
      intent: 'gap',
      competitor: `https://${rival}/`,
      countryCode: '2840',
      languageCode: '1000',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/keywords/domain?country=2840&language=1000&competitor=${rival}`)
    const calls = await fakeControl('dataforseo').requests({ path: 'domain_intersection', since: mark })
    expect(calls.map((c) => c.body)).toEqual([
      [expect.objectContaining({ target1: rival, target2: own, intersections: false, location_code: 2840 })],
    ])

    const rows = await db
      .select()
      .from(schema.savedKeywords)
      .where(and(eq(schema.savedKeywords.userId, user.id), isNotNull(schema.savedKeywords.competitorDomain)))
    expect(rows).toHaveLength(gapKeywords.length)
    for (const r of rows) {
      const fake = gapKeywords.find((g) => g.idea.keyword === r.keyword)!
      expect(r).toMatchObject({ competitorDomain: rival, competitorPosition: fake.position, competitorUrl: fake.url })
      expect(r.rankedPosition).toBeNull()
    }
    const updated = rows.find((r) => r.id === before!.id)!
    expect(updated).toMatchObject({ origin: 'search', seedQuery: 'earlier search', source: 'dataforseo' })
    expect(updated.avgMonthlySearches).toBe(gapKeywords[0]!.idea.searchVolume)
    expect(rows.filter((r) => r.id !== before!.id).every((r) => r.origin === 'gap')).toBe(true)
    expect(await used(user.id)).toBe(1)
    expect((await lookupsOf(user.id)).map((l) => l.subject)).toEqual([`${rival}|${own}`])

    // A reload (no competitor in the URL) still shows the latest gap, most searched first.
    const page = await api('/keywords/domain', { as: user, auth: 'cookie' })
    const shown = listed(page.text, 'gap-keywords')
    expect(shown).toHaveLength(gapKeywords.length)
    const volumes = shown.map((k) => gapKeywords.find((g) => g.idea.keyword === k)!.idea.searchVolume ?? -1)
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a))
    expect(page.text).toContain(`value="${rival}"`)

    // The API gives the same gap for another domain than the user's own.
    const viaApi = await lookUp(user, rival)
    expect(viaApi.body).toMatchObject({ kind: 'gap', domain: own, competitor: rival })
    expect(viaApi.body.data!.map((k) => k.keyword).sort()).toEqual(shown.sort())
    expect(await used(user.id)).toBe(1)
  })

  it('refuses a new lookup at the limit with the plan message, and a repeat stays free', async () => {
    const { user, own, rival } = await userWithSite()
    expect((await lookUp(user, own)).status).toBe(200)
    await db
      .update(schema.subscriptions)
      .set({ keywordSearchCount: LIMITS.trial.keywordSearches })
      .where(eq(schema.subscriptions.userId, user.id))
    const before = await rowsOf(user.id)
    const refused = await lookUp(user, rival)
    expect(refused.status).toBe(402)
    expect(refused.body).toEqual({ message: QUOTA_MESSAGES.keywordSearches, redirect_to_profile: true })
    expect(await rowsOf(user.id)).toHaveLength(before.length)
    expect(await lookupsOf(user.id)).toHaveLength(1)
    // Today's own lookup again: already paid for.
    expect((await lookUp(user, own)).status).toBe(200)
    expect(await used(user.id)).toBe(LIMITS.trial.keywordSearches)
    // The form says it above the form, with the way to upgrade.
    const page = await form(user, { intent: 'gap', competitor: rival, countryCode: '2840', languageCode: '1000' })
    expect(page.status).toBe(402)
    expect(page.text).toContain(QUOTA_MESSAGES.keywordSearches)
    expect(page.text).toContain('Upgrade Now')
  })

  it('refuses bad domains with 400 before any provider call, and writes nothing', async () => {
    const { user } = await userWithSite()
    const mark = await fakeControl('dataforseo').mark()
    const cases: Array<[string, string]> = [
      ['example.com/blog', DOMAIN_MESSAGES.path],
      ['https://example.com/blog/post?x=1', DOMAIN_MESSAGES.path],
      ['localhost', DOMAIN_MESSAGES.private],
      ['127.0.0.1', DOMAIN_MESSAGES.ip],
      ['http://169.254.169.254/', DOMAIN_MESSAGES.ip],
      ['[::1]', DOMAIN_MESSAGES.ip],
      ['printer.local', DOMAIN_MESSAGES.private],
      ['metadata.google.internal', DOMAIN_MESSAGES.private],
      ['metadata.goog', DOMAIN_MESSAGES.private],
      ['admin:secret@example.com', DOMAIN_MESSAGES.credentials],
      ['example.com:8080', DOMAIN_MESSAGES.port],
      ['mysite', DOMAIN_MESSAGES.noDot],
      ['co.uk', DOMAIN_MESSAGES.suffix],
      ['', DOMAIN_MESSAGES.required],
    ]
    for (const [domain, message] of cases) {
      const res = await lookUp(user, domain)
      expect(res.status, domain).toBe(400)
      expect(res.body, domain).toMatchObject({ message, errors: { domain: message } })
    }
    expect((await lookUp(user, 'example.com', '&country=nowhere')).status).toBe(400)
    // The form keeps what was typed and says what is wrong next to the field.
    const page = await form(user, {
      intent: 'gap',
      competitor: 'example.com/blog',
      countryCode: '2840',
      languageCode: '1000',
    })
    expect(page.status).toBe(400)
    expect(page.text).toContain('value="example.com/blog"')
    expect(page.text).toMatch(
      /aria-invalid="true"[^>]*aria-describedby="[^"]*competitor[^"]*"|id="[^"]*competitor[^"]*"[^>]*aria-invalid="true"/,
    )
    expect(page.text).toContain(DOMAIN_MESSAGES.path)
    expect(await fakeControl('dataforseo').requests({ path: 'dataforseo_labs', since: mark })).toHaveLength(0)
    expect(await rowsOf(user.id)).toHaveLength(0)
    expect(await lookupsOf(user.id)).toHaveLength(0)
    expect(await used(user.id)).toBe(0)
  })

  it('charges nothing and saves nothing when the provider fails; an unknown domain has no keywords', async () => {
    const { user, own, tag } = await userWithSite()
    await fakeControl('dataforseo').enqueue({
      status: 500,
      path: 'ranked_keywords',
      bodyIncludes: own,
      times: 6,
      body: '<html><body><h1>500 Internal Server Error</h1></body></html>',
      headers: { 'content-type': 'text/html' },
    })
    const failed = await lookUp(user, own)
    expect(failed.status).toBe(502)
    expect(failed.body.message).toBe(DOMAIN_LOOKUP_MESSAGES.providerError)
    // The page's form says so above the form.
    const page = await form(user, { intent: 'ranked', countryCode: '2840', languageCode: '1000' })
    expect(page.status).toBe(502)
    expect(page.text).toContain(DOMAIN_LOOKUP_MESSAGES.providerError)
    // A task error (DataForSEO's 40501 for the target): the same answer, asked once (retrying cannot fix it).
    const mark = await fakeControl('dataforseo').mark()
    const taskError = await lookUp(user, `taskerror-${tag}.com`)
    expect(taskError.status).toBe(502)
    expect(await fakeControl('dataforseo').requests({ path: 'domain_intersection', since: mark })).toHaveLength(1)
    expect(await rowsOf(user.id)).toHaveLength(0)
    expect(await lookupsOf(user.id)).toHaveLength(0)
    expect(await used(user.id)).toBe(0)

    const empty = await lookUp(user, `unknown-${tag}.com`)
    expect(empty.status).toBe(200)
    expect(empty.body.data).toEqual([])
  })

  it('asks for a website when the user has none', async () => {
    const { user, rival } = await userWithSite()
    await db.update(schema.users).set({ website: null }).where(eq(schema.users.id, user.id))
    const res = await lookUp(user, rival)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      message: DOMAIN_LOOKUP_MESSAGES.noWebsite,
      errors: { website: DOMAIN_LOOKUP_MESSAGES.noWebsite },
    })
    const page = await api('/keywords/domain', { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain(DOMAIN_LOOKUP_MESSAGES.noWebsite)
    expect(page.text).toMatch(/<a[^>]*href="\/profile"[^>]*>Set your website<\/a>/)
    expect(await used(user.id)).toBe(0)
  })
})
