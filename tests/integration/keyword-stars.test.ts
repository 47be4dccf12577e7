import crypto from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { RANKINGS_MESSAGES } from '#app/features/rankings/rankings'
import { db, schema } from '#app/platform/db/client.server'
import { api, createTestUser, type TestUser } from '#tests/setup/app'

/**
 * Issue 16 point 1 on /keywords: the saved-keywords table shows which keywords the user starred for rank tracking
 * (read in the page's own query), and the star posts to the /rankings action, which tracks only the user's own
 * keywords.
 */
const tag = crypto.randomBytes(4).toString('hex')
const US = { countryCode: '2840', countryName: 'United States', languageCode: '1000', languageName: 'English' }
const created: TestUser[] = []

async function user() {
  const u = await createTestUser()
  created.push(u)
  return u
}

async function saveKeywords(userId: string, keywords: string[]) {
  return db
    .insert(schema.savedKeywords)
    .values(keywords.map((keyword) => ({ userId, keyword, ...US, source: 'dataforseo' as const })))
    .returning()
}

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
})

/** The star button of a keyword's row in the /keywords HTML (its opening tag). */
function starOf(html: string, keyword: string) {
  const start = html.indexOf(`data-keyword="${keyword}"`)
  expect(start, `row of ${keyword}`).toBeGreaterThan(-1)
  const row = html.slice(start, html.indexOf('</tr>', start))
  const button = row.match(/<button[^>]*data-track-star[^>]*>/)?.[0]
  expect(button, `star of ${keyword}`).toBeDefined()
  return button!
}

const tracked = (userIds: string[]) =>
  db.select().from(schema.trackedKeywords).where(inArray(schema.trackedKeywords.userId, userIds))

afterAll(async () => {
  for (const u of created) await db.delete(schema.trackedKeywords).where(eq(schema.trackedKeywords.userId, u.id))
})

describe('rankings: keyword stars on /keywords', () => {
  it('marks the starred rows of /keywords aria-pressed="true", and only those', async () => {
    const owner = await user()
    const [starredKw, plain, postOnly] = await saveKeywords(owner.id, [
      `star me ${tag}`,
      `leave me ${tag}`,
      `post keyword ${tag}`,
    ])
    // Starred without JavaScript: the form post comes back to the list it was sent from.
    const post = await api('/rankings', {
      method: 'POST',
      as: owner,
      auth: 'cookie',
      ...form({ intent: 'track', keywordId: starredKw!.id, returnTo: `/keywords?q=${tag}&show=100` }),
    })
    expect(post.status).toBe(302)
    expect(post.headers.get('location')).toBe(`/keywords?q=${tag}&show=100`)
    // A published post's keyword is tracked without a star: its row has no star pressed.
    await db.insert(schema.trackedKeywords).values({
      userId: owner.id,
      keyword: postOnly!.keyword,
      keywordNorm: postOnly!.keyword,
      countryCode: US.countryCode,
      languageCode: US.languageCode,
      savedKeywordId: postOnly!.id,
      starred: false,
    })
    // Another user's star on their own keyword of the same words changes nothing here.
    const other = await user()
    const [theirs] = await saveKeywords(other.id, [plain!.keyword])
    expect(
      (await api(`/api/rankings/${theirs!.id}/track`, { method: 'POST', as: other })).status,
      'their own keyword',
    ).toBe(201)

    const page = await api(`/keywords?q=${tag}`, { as: owner, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(starOf(page.text, starredKw!.keyword)).toContain('aria-pressed="true"')
    expect(starOf(page.text, starredKw!.keyword)).toContain('value="untrack"')
    expect(starOf(page.text, plain!.keyword)).toContain('aria-pressed="false"')
    expect(starOf(page.text, plain!.keyword)).toContain('value="track"')
    expect(starOf(page.text, postOnly!.keyword)).toContain('aria-pressed="false"')
    // The star is described by its row's keyword, and comes back to the list as the user had it.
    expect(starOf(page.text, starredKw!.keyword)).toContain(`aria-describedby="keyword-${starredKw!.id}"`)
    expect(page.text).toContain(`id="keyword-${starredKw!.id}"`)
    expect(page.text).toContain(`name="returnTo" value="/keywords?q=${tag}"`)

    // Unstarred again (JSON, as the page's fetcher asks): the row is no longer pressed.
    const off = await api('/rankings?_data=routes%2Frankings', {
      method: 'POST',
      as: owner,
      auth: 'cookie',
      ...form({ intent: 'untrack', keywordId: starredKw!.id, respond: 'json' }),
    })
    expect(off.status).toBe(200)
    expect(off.body).toMatchObject({ ok: true, message: RANKINGS_MESSAGES.untracked })
    const after = await api(`/keywords?q=${tag}`, { as: owner, auth: 'cookie' })
    expect(starOf(after.text, starredKw!.keyword)).toContain('aria-pressed="false"')
  })

  it('lists a keyword starred before any check of the account on /rankings and in the API', async () => {
    // Nothing checked yet for any of the user's keywords: /rankings once answered 500 here (no day to count from).
    const owner = await user()
    const [kw] = await saveKeywords(owner.id, [`fresh star ${tag}`])
    await db.insert(schema.trackedKeywords).values({
      userId: owner.id,
      keyword: kw!.keyword,
      keywordNorm: kw!.keyword,
      countryCode: US.countryCode,
      languageCode: US.languageCode,
      countryName: US.countryName,
      savedKeywordId: kw!.id,
      starred: true,
    })
    const page = await api('/rankings', { as: owner, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain(`Stop tracking “${kw!.keyword}”`)
    const list = await api('/api/rankings', { as: owner })
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([expect.objectContaining({ savedKeywordId: kw!.id, starred: true })])
    const keywords = await api('/keywords', { as: owner, auth: 'cookie' })
    expect(starOf(keywords.text, kw!.keyword)).toContain('aria-pressed="true"')
  })

  it("cannot track another user's keyword id: 404, nothing written", async () => {
    const owner = await user()
    const stranger = await user()
    const [kw] = await saveKeywords(owner.id, [`not yours ${tag}`])
    const json = await api('/rankings?_data=routes%2Frankings', {
      method: 'POST',
      as: stranger,
      auth: 'cookie',
      ...form({ intent: 'track', keywordId: kw!.id, respond: 'json', returnTo: '/keywords' }),
    })
    expect(json.status).toBe(404)
    expect(json.body).toMatchObject({ ok: false, message: RANKINGS_MESSAGES.notFound })
    const viaApi = await api(`/api/rankings/${kw!.id}/track`, { method: 'POST', as: stranger })
    expect(viaApi.status).toBe(404)
    // Without JavaScript: back to the list with the error toast, nothing tracked.
    const plain = await api('/rankings', {
      method: 'POST',
      as: stranger,
      auth: 'cookie',
      ...form({ intent: 'track', keywordId: kw!.id, returnTo: '/keywords' }),
    })
    expect(plain.status).toBe(302)
    expect(plain.headers.get('location')).toBe('/keywords')
    expect(await tracked([owner.id, stranger.id])).toEqual([])
    // Nor can the stranger remove the owner's star.
    expect(
      (await api(`/api/rankings/${kw!.id}/track`, { method: 'POST', as: owner })).status,
      'the owner stars it',
    ).toBe(201)
    const untrack = await api('/rankings?_data=routes%2Frankings', {
      method: 'POST',
      as: stranger,
      auth: 'cookie',
      ...form({ intent: 'untrack', keywordId: kw!.id, respond: 'json' }),
    })
    expect(untrack.status).toBe(404)
    expect((await tracked([owner.id, stranger.id])).map((t) => [t.userId, t.savedKeywordId, t.starred])).toEqual([
      [owner.id, kw!.id, true],
    ])
    // A returnTo off the site is not followed.
    const offsite = await api('/rankings', {
      method: 'POST',
      as: stranger,
      auth: 'cookie',
      ...form({ intent: 'track', keywordId: kw!.id, returnTo: '//evil.example/keywords' }),
    })
    expect(offsite.headers.get('location')).toBe('/rankings')
  })
})
