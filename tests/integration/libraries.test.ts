import crypto from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { KEYWORD_TOTAL_CAP } from '#app/features/keywords/keyword-library'
import { QUOTA_MESSAGES } from '#app/features/billing/plans'
import { db, schema } from '#app/platform/db/client.server'
import { api, createTestUser, type TestUser } from '#tests/setup/app'
import { cookieName } from '#app/platform/http/cookies.server'

/**
 * Issue 21: the libraries at any size, over HTTP against the production build. Accounts are filled directly in the
 * database (a year of use in one insert); everything else goes through the app.
 */

const BASE = Date.parse('2026-01-01T00:00:00Z')

/** `count` posts, one a minute back from BASE; every 7th shares its timestamp with the previous one (ties). */
async function addPosts(
  user: TestUser,
  count: number,
  make: (i: number) => Partial<typeof schema.blogPosts.$inferInsert> = () => ({}),
) {
  const rows = Array.from({ length: count }, (_, i) => {
    const minute = i - Math.floor(i / 7)
    return {
      userId: user.id,
      requestKey: `seed-${i}-${crypto.randomUUID()}`,
      keyword: `seed keyword ${i}`,
      title: `Seed post ${i}`,
      status: 'completed' as const,
      contentMarkdown: `# Seed post ${i}\n\nBody of post ${i}.`,
      createdAt: new Date(BASE - minute * 60_000),
      ...make(i),
    }
  })
  for (let i = 0; i < rows.length; i += 500) await db.insert(schema.blogPosts).values(rows.slice(i, i + 500))
}

async function addKeywords(
  user: TestUser,
  rows: Array<Partial<typeof schema.savedKeywords.$inferInsert> & { keyword: string }>,
) {
  return db
    .insert(schema.savedKeywords)
    .values(
      rows.map((r) => ({
        userId: user.id,
        countryCode: '2840',
        countryName: 'United States',
        languageCode: '1000',
        languageName: 'English',
        source: 'dataforseo' as const,
        ...r,
      })),
    )
    .returning()
}

type ApiPost = { _id: string; title: string; status: string; createdAt: string; source: string }
type ApiPage<T> = { data: T[]; total: number; nextCursor: string | null }

const form = (values: Record<string, string | string[]>) => {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(values)) for (const one of [v].flat()) body.append(k, one)
  return body
}

describe('every post reachable', () => {
  it("sends a document the finished page, and a client-side navigation's data request the page deferred", async () => {
    const user = await createTestUser()
    await addPosts(user, 3, (i) => ({ title: `Deferred ${i}` }))
    const document = await api('/blogposts', { as: user, auth: 'cookie' })
    expect(document.status).toBe(200)
    expect(document.text).toContain('Deferred 0')
    expect(document.text).not.toContain('Loading blog posts...')
    // Remix's client asks with ?_data=<route id>; the page streams after the first part ('Loading blog posts...'
    // shows meanwhile), and the languages and drafts waiting come at once.
    const data = await api('/blogposts?_data=routes%2Fblogposts', { as: user, auth: 'cookie' })
    expect(data.status).toBe(200)
    expect(data.headers.get('content-type')).toMatch(/^text\/remix-deferred/)
    const [head, ...rest] = data.text.split('\n\n')
    expect(JSON.parse(head!)).toMatchObject({
      languages: ['English'],
      waitingForReview: 0,
      page: '__deferred_promise:page',
    })
    expect(rest.join('\n\n')).toContain('Deferred 0')
  })

  it('pages a 1,200-post account to its last post, in the API and on /blogposts, newest first with no repeats', async () => {
    const user = await createTestUser()
    await addPosts(user, 1200)
    const expected = await db
      .select({ id: schema.blogPosts.id })
      .from(schema.blogPosts)
      .where(eq(schema.blogPosts.userId, user.id))
      .orderBy(schema.blogPosts.createdAt)

    // The API: the spec's client (no parameters) still gets a large first page.
    const first = await api('/api/blogposts', { as: user })
    expect(first.status).toBe(200)
    const firstPage = first.body as unknown as ApiPage<ApiPost>
    expect(firstPage.data).toHaveLength(500)
    expect(firstPage.total).toBe(1200)
    const seen: ApiPost[] = [...firstPage.data]
    let cursor = firstPage.nextCursor
    while (cursor) {
      const res = await api(`/api/blogposts?limit=300&cursor=${cursor}`, { as: user })
      expect(res.status).toBe(200)
      const page = res.body as unknown as ApiPage<ApiPost>
      expect(page.total).toBe(1200)
      seen.push(...page.data)
      cursor = page.nextCursor
    }
    expect(seen).toHaveLength(1200)
    expect(new Set(seen.map((p) => p._id)).size).toBe(1200)
    expect(new Set(seen.map((p) => p._id))).toEqual(new Set(expected.map((r) => r.id)))
    const times = seen.map((p) => Date.parse(p.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(seen.at(-1)!.title).toBe('Seed post 1199')

    // The screen: 20 cards a page, 'Load more' links to the next page (the no-JavaScript path) up to the last post.
    let path: string | null = '/blogposts'
    const shown: string[] = []
    let pages = 0
    while (path) {
      const res = await api(path, { as: user, auth: 'cookie' })
      expect(res.status).toBe(200)
      if (pages === 0) expect(res.text).toContain('1,200 posts')
      shown.push(...[...res.text.matchAll(/data-post-id="([0-9a-f-]{36})"/g)].map((m) => m[1]!))
      const next = /<a[^>]+href="(\/blogposts\?cursor=[^"]+)"[^>]*>Load more<\/a>/.exec(res.text)
      path = next ? next[1]!.replace(/&amp;/g, '&') : null
      pages++
    }
    expect(pages).toBe(60)
    expect(shown).toEqual(seen.map((p) => p._id))
  })

  it('answers each post of the API with exactly its stored fields, whatever its text holds', async () => {
    const user = await createTestUser()
    const hostile = `Line "one"\n\ttab \\ back </script><script>alert(1)</script> ü 中文 😀 \u2028 \u0001 end`
    await addPosts(user, 3, (i) => ({
      title: i === 0 ? '' : `Title ${i} "quoted"`,
      keyword: `keyword ${i} ü`,
      contentMarkdown: i === 1 ? hostile : `# Post ${i}`,
      status: i === 2 ? ('failed' as const) : ('completed' as const),
      failureReason: i === 2 ? 'The AI service did not answer.' : null,
      source: i === 1 ? ('autopilot' as const) : ('manual' as const),
      language: i === 1 ? 'German' : 'English',
      seoScore: i === 0 ? 87 : null,
      createdAt: new Date(BASE - i * 60_000),
    }))
    // Microseconds (Postgres keeps them): the API gives the milliseconds, cut as Date#toISOString's are.
    await db.execute(
      sql`update blog_posts set created_at = created_at + interval '123.9 milliseconds' where user_id = ${user.id}`,
    )
    const stored = await db
      .select()
      .from(schema.blogPosts)
      .where(eq(schema.blogPosts.userId, user.id))
      .orderBy(sql`${schema.blogPosts.createdAt} desc`, sql`${schema.blogPosts.id} desc`)
    const res = await api('/api/blogposts', { as: user })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.body).toEqual({
      data: stored.map((p) => ({
        _id: p.id,
        post_id: p.id,
        title: p.title || p.keyword,
        content: p.contentMarkdown,
        createdAt: p.createdAt.toISOString(),
        status: p.status,
        source: p.source,
        language: p.language,
        seo_score: p.seoScore,
        ...(p.status === 'failed' ? { failure_reason: p.failureReason } : {}),
      })),
      total: 3,
      nextCursor: null,
    })
    expect((res.body.data as Array<{ content: string }>).some((p) => p.content === hostile)).toBe(true)
    // One item a page: the cursor of each answer leads to the next post, and the last page has none.
    const first = await api('/api/blogposts?limit=1', { as: user })
    const second = await api(`/api/blogposts?limit=1&cursor=${first.body.nextCursor as string}`, { as: user })
    const third = await api(`/api/blogposts?limit=1&cursor=${second.body.nextCursor as string}`, { as: user })
    expect([first, second, third].map((r) => (r.body.data as ApiPost[])[0]!._id)).toEqual(stored.map((p) => p.id))
    expect(third.body.nextCursor).toBeNull()
    expect(third.body.total).toBe(3)
  })

  it('searches by title and keyword, filters by status, origin and language, and says when nothing matches', async () => {
    const user = await createTestUser()
    const tag = `zq${crypto.randomBytes(3).toString('hex')}`
    await addPosts(user, 12, (i) => ({
      title: i % 3 === 0 ? `How to grow ${tag} fast` : `Post ${i}`,
      keyword: i === 4 ? `${tag} keyword` : `other ${i}`,
      status: (['completed', 'failed', 'queued', 'generating'] as const)[i % 4],
      source: i % 2 === 0 ? 'autopilot' : 'manual',
      language: i < 6 ? 'English' : 'German',
      reviewStatus: i === 0 ? ('waiting' as const) : i === 1 ? ('approved' as const) : null,
    }))
    const ids = async (query: string) => {
      const res = await api(`/api/blogposts?${query}`, { as: user })
      expect(res.status).toBe(200)
      const page = res.body as unknown as ApiPage<ApiPost & { language: string }>
      expect(page.total).toBe(page.data.length)
      return page.data
    }
    // Title (i = 0, 3, 6, 9) or keyword (i = 4), case-insensitive.
    expect((await ids(`q=${tag.toUpperCase()}`)).map((p) => p.title).sort()).toEqual(
      [
        `How to grow ${tag} fast`,
        `How to grow ${tag} fast`,
        `How to grow ${tag} fast`,
        `How to grow ${tag} fast`,
        'Post 4',
      ].sort(),
    )
    expect((await ids('status=writing')).every((p) => p.status === 'queued' || p.status === 'generating')).toBe(true)
    expect(await ids('status=writing')).toHaveLength(6)
    expect((await ids('status=failed')).map((p) => p.status)).toEqual(['failed', 'failed', 'failed'])
    expect((await ids('source=autopilot')).every((p) => p.source === 'autopilot')).toBe(true)
    expect(await ids('language=German&status=ready')).toHaveLength(1) // i = 8
    expect(await ids(`q=${tag}&source=manual`)).toHaveLength(2) // i = 3 and 9
    expect((await ids('review=waiting')).map((p) => p.title)).toEqual([`How to grow ${tag} fast`])
    // Wildcards in the search are taken literally.
    expect(await ids('q=%25')).toHaveLength(0)

    const page = await api(`/blogposts?q=${tag}&status=failed&source=autopilot`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('No blog posts match your search.')
    expect(page.text).not.toContain('Start Your Content Journey')

    const empty = await createTestUser()
    const emptyPage = await api('/blogposts', { as: empty, auth: 'cookie' })
    expect(emptyPage.text).toContain('Start Your Content Journey')
  })
})

describe('keywords at scale', () => {
  it('searches, filters by difficulty band, volume and market, sorts each column and pages by cursor', async () => {
    const user = await createTestUser()
    const tag = `kw${crypto.randomBytes(3).toString('hex')}`
    const rows = Array.from({ length: 30 }, (_, i) => ({
      keyword: `${i % 2 ? 'alpha' : 'beta'} ${tag} ${String(i).padStart(2, '0')}`,
      avgMonthlySearches: i === 29 ? null : i * 100,
      difficultyScore: i === 28 ? null : (i * 7) % 100,
      countryCode: i % 5 === 0 ? '2276' : '2840',
      languageCode: i % 5 === 0 ? '1001' : '1000',
      createdAt: new Date(BASE - Math.floor(i / 3) * 60_000),
    }))
    await addKeywords(user, rows)
    type K = { _id: string; keyword: string; avgMonthlySearches: number | null; difficultyScore: number | null }
    const all = async (query: string, limit = 7) => {
      const out: K[] = []
      let cursor: string | null = null
      let total = -1
      do {
        const res = await api(`/api/saved-keywords?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, {
          as: user,
        })
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        const page = res.body as unknown as ApiPage<K>
        total = page.total
        out.push(...page.data)
        cursor = page.nextCursor
      } while (cursor)
      expect(out).toHaveLength(total)
      return out
    }

    // The spec's order: newest first, then higher volume (no volume last).
    const byDate = await all('')
    expect(byDate).toHaveLength(30)
    const expectedDate = [...rows].sort(
      (a, b) =>
        b.createdAt.getTime() - a.createdAt.getTime() || (b.avgMonthlySearches ?? -1) - (a.avgMonthlySearches ?? -1),
    )
    expect(byDate.map((k) => k.keyword)).toEqual(expectedDate.map((r) => r.keyword))

    const volumeAsc = await all('sort=volume&order=asc')
    expect(volumeAsc[0]!.avgMonthlySearches).toBeNull()
    expect(volumeAsc.slice(1).map((k) => k.avgMonthlySearches)).toEqual(
      rows.filter((r) => r.avgMonthlySearches !== null).map((r) => r.avgMonthlySearches),
    )
    const keywordDesc = await all('sort=keyword&order=desc')
    expect(keywordDesc.map((k) => k.keyword)).toEqual(
      rows
        .map((r) => r.keyword)
        .sort()
        .reverse(),
    )
    const difficulty = await all('sort=difficulty')
    const scores = difficulty.map((k) => k.difficultyScore ?? -1)
    expect(scores).toEqual([...scores].sort((a, b) => a - b))

    expect((await all('q=ALPHA')).every((k) => k.keyword.startsWith('alpha'))).toBe(true)
    expect(await all('q=ALPHA')).toHaveLength(15)
    const easy = await all('difficulty=easy')
    expect(easy.length).toBeGreaterThan(0)
    expect(easy.every((k) => k.difficultyScore !== null && k.difficultyScore <= 29)).toBe(true)
    expect((await all('difficulty=none')).map((k) => k.keyword)).toEqual([rows[28]!.keyword])
    const mid = await all('minVolume=500&maxVolume=1000')
    expect(mid.map((k) => k.avgMonthlySearches).sort((a, b) => a! - b!)).toEqual([500, 600, 700, 800, 900, 1000])
    // A range with one end: keywords without a volume never match it.
    const upTo = (await all('maxVolume=300')).map((k) => k.avgMonthlySearches)
    expect(upTo).toEqual(
      rows.filter((r) => r.avgMonthlySearches !== null && r.avgMonthlySearches <= 300).map(() => expect.any(Number)),
    )
    expect(upTo.every((v) => v !== null && v <= 300)).toBe(true)
    const from = await all('minVolume=0')
    expect(from).toHaveLength(rows.filter((r) => r.avgMonthlySearches !== null).length)
    const german = await all('country=2276&language=1001')
    expect(german).toHaveLength(6)

    // The screen keeps the state in the URL and says when nothing matches.
    const screen = await api(`/keywords?q=alpha&sort=volume&order=asc&difficulty=easy`, { as: user, auth: 'cookie' })
    expect(screen.status).toBe(200)
    expect(screen.text).toContain('matching')
    const none = await api(`/keywords?q=nothing-like-this`, { as: user, auth: 'cookie' })
    expect(none.text).toContain('No saved keywords match your search.')
  })

  it('counts a very large list up to 10,000 and says so ("10,000+"), and still pages past it', async () => {
    const user = await createTestUser()
    await db.execute(sql`
      insert into saved_keywords (user_id, keyword, country_code, country_name, language_code, language_name, source,
        difficulty_score, created_at)
      select ${user.id}::uuid, 'bulk idea ' || g, '2840', 'United States', '1000', 'English', 'dataforseo',
        case when g <= 10 then 5 else 80 end, now() - (g || ' seconds')::interval
      from generate_series(1, ${KEYWORD_TOTAL_CAP + 5}) g`)
    const first = await api('/api/saved-keywords?limit=500', { as: user })
    const body = first.body as unknown as ApiPage<{ _id: string }> & { totalCapped: boolean }
    expect(first.status).toBe(200)
    expect(body.total).toBe(KEYWORD_TOTAL_CAP)
    expect(body.totalCapped).toBe(true)
    expect(body.data).toHaveLength(500)
    expect(body.nextCursor).toEqual(expect.any(String))
    // A filter under the cap is counted exactly.
    const easy = await api('/api/saved-keywords?difficulty=easy', { as: user })
    expect(easy.body).toMatchObject({ total: 10, totalCapped: false })
    const screen = await api('/keywords', { as: user, auth: 'cookie' })
    expect(screen.text).toContain('10,000+ saved')
    expect(screen.text).toContain('of 10,000+ keywords')
    const filtered = await api('/keywords?difficulty=easy', { as: user, auth: 'cookie' })
    expect(filtered.text).toContain('10 matching')
  })

  it('answers 400 with the field named for bad paging, filter and sort parameters', async () => {
    const user = await createTestUser()
    const cases: Array<[string, string]> = [
      ['/api/blogposts?limit=0', 'limit'],
      ['/api/blogposts?limit=501', 'limit'],
      ['/api/blogposts?limit=ten', 'limit'],
      ['/api/blogposts?cursor=not*a*cursor', 'cursor'],
      ['/api/blogposts?cursor=eyJhIjoxfQ', 'cursor'],
      ['/api/blogposts?status=published-maybe', 'status'],
      ['/api/blogposts?source=robot', 'source'],
      ['/api/blogposts?review=maybe', 'review'],
      ['/api/saved-keywords?limit=-3', 'limit'],
      ['/api/saved-keywords?sort=color', 'sort'],
      ['/api/saved-keywords?difficulty=trivial', 'difficulty'],
      ['/api/saved-keywords?minVolume=500&maxVolume=100', 'maxVolume'],
      ['/api/saved-keywords?country=US', 'country'],
    ]
    for (const [path, field] of cases) {
      const res = await api(path, { as: user })
      expect(res.status, path).toBe(400)
      expect(res.body.message, path).toEqual(expect.any(String))
      expect(Object.keys(res.body.errors as object), path).toContain(field)
    }
    // A cursor of another sort is refused too (a cursor only continues the list it came from).
    await addKeywords(user, [{ keyword: 'one' }, { keyword: 'two' }])
    const page = await api('/api/saved-keywords?limit=1', { as: user })
    const cursor = (page.body as unknown as ApiPage<unknown>).nextCursor
    expect(cursor).toEqual(expect.any(String))
    const other = await api(`/api/saved-keywords?limit=1&sort=volume&cursor=${cursor}`, { as: user })
    expect(other.status).toBe(400)
    expect(other.body.errors).toHaveProperty('cursor')
  })
})

describe('deletes', () => {
  it("deletes a post, keeps its webhook deliveries as history, gives no quota back, and never someone else's", async () => {
    const owner = await createTestUser()
    const stranger = await createTestUser()
    await addPosts(owner, 2)
    const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, owner.id)).limit(1)
    const [delivery] = await db
      .insert(schema.webhookDeliveries)
      .values({
        userId: owner.id,
        messageId: `msg_${crypto.randomUUID()}`,
        eventType: 'post.published',
        postId: post!.id,
        url: 'https://example.com/hook',
        body: '{}',
        status: 'delivered',
      })
      .returning()
    await db.update(schema.subscriptions).set({ blogPostCount: 2 }).where(eq(schema.subscriptions.userId, owner.id))

    for (const as of [stranger]) {
      const res = await api(`/api/blogpost/${post!.id}`, { method: 'DELETE', as })
      expect(res.status).toBe(404)
      const viaForm = await api('/blogposts', {
        method: 'POST',
        as,
        auth: 'cookie',
        body: form({ intent: 'delete-post', postId: post!.id }),
      })
      expect(viaForm.status).toBe(302)
    }
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post!.id))).toHaveLength(1)
    expect((await api('/api/blogpost/not-a-uuid', { method: 'DELETE', as: owner })).status).toBe(404)

    const res = await api(`/api/blogpost/${post!.id}`, { method: 'DELETE', as: owner })
    expect(res.status).toBe(200)
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post!.id))).toHaveLength(0)
    expect((await api(`/api/blogpost/${post!.id}`, { as: owner })).status).toBe(404)
    expect((await api(`/api/blogpost/${post!.id}`, { method: 'DELETE', as: owner })).status).toBe(404)
    const [kept] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, delivery!.id))
    expect(kept).toMatchObject({ status: 'delivered', postId: null })
    const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, owner.id))
    expect(sub!.blogPostCount).toBe(2)

    // The form (no JavaScript): the confirmation page, then the delete, then back to the list with the toast.
    const [other] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, owner.id))
    const confirm = await api(`/blogposts?delete=${other!.id}`, { as: owner, auth: 'cookie' })
    expect(confirm.text).toContain('data-testid="confirm-dialog"')
    expect(confirm.text).toContain('Delete blog post')
    const viaForm = await api('/blogposts', {
      method: 'POST',
      as: owner,
      auth: 'cookie',
      body: form({ intent: 'delete-post', postId: other!.id, redirectTo: '/blogposts' }),
    })
    expect(viaForm.status).toBe(302)
    expect(viaForm.headers.get('location')).toBe('/blogposts')
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, owner.id))).toHaveLength(0)
  })

  it("deletes saved keywords one or several at a time, through the API and the form, never someone else's", async () => {
    const owner = await createTestUser()
    const stranger = await createTestUser()
    const rows = await addKeywords(owner, [
      { keyword: 'a one' },
      { keyword: 'a two' },
      { keyword: 'a three' },
      { keyword: 'a four' },
    ])
    const count = async () =>
      (await db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.userId, owner.id))).length

    expect((await api(`/api/saved-keywords/${rows[0]!.id}`, { method: 'DELETE', as: stranger })).status).toBe(404)
    const strangerForm = await api('/keywords', {
      method: 'POST',
      as: stranger,
      auth: 'cookie',
      body: form({ intent: 'delete-keywords', keywordId: [rows[0]!.id, rows[1]!.id] }),
    })
    expect(strangerForm.status).toBe(302)
    expect(await count()).toBe(4)

    expect((await api(`/api/saved-keywords/${rows[0]!.id}`, { method: 'DELETE', as: owner })).status).toBe(200)
    expect(await count()).toBe(3)
    const one = await api('/keywords', {
      method: 'POST',
      as: owner,
      auth: 'cookie',
      body: form({ intent: `delete:${rows[1]!.id}`, keywordId: rows[2]!.id, redirectTo: '/keywords?q=a' }),
    })
    expect(one.status).toBe(302)
    expect(one.headers.get('location')).toBe('/keywords?q=a')
    expect(await count()).toBe(2) // only the row's own keyword, not the checked one
    const several = await api('/keywords', {
      method: 'POST',
      as: owner,
      auth: 'cookie',
      body: form({ intent: 'delete-keywords', keywordId: [rows[2]!.id, rows[3]!.id] }),
    })
    expect(several.status).toBe(302)
    expect(await count()).toBe(0)
  })
})

describe("bulk 'Create posts'", () => {
  /** The user's bulk 'Create posts', their posts, their used post quota, and the toast a redirect carries. */
  function bulkFor(user: TestUser) {
    return {
      bulk: (ids: string[], requestKey: string) =>
        api('/keywords', {
          method: 'POST',
          as: user,
          auth: 'cookie',
          body: form({ intent: 'create-posts', keywordId: ids, requestKey, redirectTo: '/keywords' }),
        }),
      posts: () => db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id)),
      used: async () =>
        (await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, user.id)))[0]!
          .blogPostCount,
      /** The page the redirect leads to, with the toast it carries. */
      toastOf: async (res: Awaited<ReturnType<typeof api>>) => {
        const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${cookieName('rw_toast')}=`))
        if (!cookie) throw new Error('no toast cookie was set')
        const page = await api(res.headers.get('location') ?? '/keywords', {
          headers: { Cookie: `${user.cookie}; ${cookie.split(';')[0]!}` },
        })
        return page.text
      },
    }
  }

  it('creates posts for the selected keywords within the quota, and refuses a selection over it whole', async () => {
    const user = await createTestUser()
    const stranger = await createTestUser()
    const kws = await addKeywords(
      user,
      Array.from({ length: 4 }, (_, i) => ({ keyword: `bulk ${i} ${crypto.randomBytes(2).toString('hex')}` })),
    )
    const [foreign] = await addKeywords(stranger, [{ keyword: 'not yours' }])
    // A trial allows 5 posts: 3 are used, so 2 are left.
    await db.update(schema.subscriptions).set({ blogPostCount: 3 }).where(eq(schema.subscriptions.userId, user.id))
    const { bulk, posts, used, toastOf } = bulkFor(user)

    const over = await bulk(
      kws.slice(0, 3).map((k) => k.id),
      'key-over',
    )
    expect(over.status).toBe(302)
    expect(await toastOf(over)).toContain(QUOTA_MESSAGES.blogPosts)
    expect(await posts()).toHaveLength(0)
    expect(await used()).toBe(3)

    const mixed = await bulk([kws[0]!.id, foreign!.id], 'key-mixed')
    expect(mixed.status).toBe(302)
    expect(await posts()).toHaveLength(0)
    expect(await used()).toBe(3)

    const edge = await bulk([kws[0]!.id, kws[1]!.id], 'key-edge')
    expect(edge.status).toBe(302)
    expect(await toastOf(edge)).toContain('Your post is being generated!')
    const created = await posts()
    expect(created.map((p) => p.keywordId).sort()).toEqual([kws[0]!.id, kws[1]!.id].sort())
    // Queued for the worker (which may already be writing them).
    expect(created.every((p) => p.status !== 'failed' && p.source === 'manual')).toBe(true)
    expect(await used()).toBe(5)

    // The same request again (a double submit) makes nothing new and charges nothing.
    const again = await bulk([kws[0]!.id, kws[1]!.id], 'key-edge')
    expect(again.status).toBe(302)
    expect(await posts()).toHaveLength(2)
    expect(await used()).toBe(5)

    const none = await bulk([kws[2]!.id], 'key-after')
    expect(await toastOf(none)).toContain(QUOTA_MESSAGES.blogPosts)
    expect(
      await db
        .select()
        .from(schema.blogPosts)
        .where(and(eq(schema.blogPosts.userId, user.id), inArray(schema.blogPosts.keywordId, [kws[2]!.id]))),
    ).toHaveLength(0)
  })
  it('leaves out the keywords the user already covers, names them, and refuses a selection of only those', async () => {
    const user = await createTestUser()
    const tag = crypto.randomBytes(3).toString('hex')
    const [covered, fresh] = await addKeywords(user, [
      { keyword: `CRM for startups ${tag}` },
      { keyword: `office plants ${tag}` },
    ])
    const [done] = await db
      .insert(schema.blogPosts)
      .values({
        userId: user.id,
        requestKey: `earlier-${tag}`,
        keyword: `crm for startups ${tag}`,
        title: `The best CRM for startups ${tag}`,
        status: 'completed',
        completedAt: new Date(),
      })
      .returning()
    const { bulk, posts: mine, used, toastOf } = bulkFor(user)

    const onlyCovered = await bulk([covered!.id], `only-${tag}`)
    expect(onlyCovered.status).toBe(302)
    expect(await toastOf(onlyCovered)).toContain(
      `You already have &quot;The best CRM for startups ${tag}&quot; for a very similar search: update it instead?`,
    )
    expect((await mine()).map((p) => p.id)).toEqual([done!.id])
    expect(await used()).toBe(0)

    const both = await bulk([covered!.id, fresh!.id], `both-${tag}`)
    expect(both.status).toBe(302)
    const text = await toastOf(both)
    expect(text).toContain('Your post is being generated!')
    expect(text).toContain(
      `Skipped “CRM for startups ${tag}”: you already have “The best CRM for startups ${tag}” for a very similar search.`,
    )
    const after = await mine()
    expect(after).toHaveLength(2)
    expect(after.find((p) => p.id !== done!.id)!.keywordId).toBe(fresh!.id)
    expect(await used()).toBe(1)

    // The same request again: its own post is not an overlap; nothing new, nothing charged.
    const again = await bulk([covered!.id, fresh!.id], `both-${tag}`)
    expect(again.status).toBe(302)
    expect(await mine()).toHaveLength(2)
    expect(await used()).toBe(1)
  })
})
