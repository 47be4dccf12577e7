/**
 * Issue 12 (points 2, 3, 7, 8), measured from outside over HTTP: hostile input answers 4xx with its message (never
 * 5xx, never a hang), bodies over their limit answer 413 without being read, cross-site posts a 403 page, the
 * keyword query drops markup, and two tabs cannot pay twice for one keyword.
 */
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { SEARCH_VALIDATION_MESSAGE } from '#app/features/keywords/keywords'
import { POST_MESSAGES } from '#app/features/content/posts'
import { NOT_ALLOWED_CHARACTERS } from '#app/platform/security/safe-text'
import { db, schema } from '#app/platform/db/client.server'
import { api, appUrl, createTestUser, uniqueIp } from '#tests/setup/app'
import { rssKb, startWeb, type WebProcess } from '#tests/setup/processes'
import { rawRequest } from '#tests/setup/raw-http'
import { addKeyword } from '#tests/setup/records'
import { cookieName } from '#app/platform/http/cookies.server'

const tag = () => crypto.randomBytes(4).toString('hex')

function form(fields: Record<string, string>) {
  return {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': uniqueIp() },
  }
}

/** A multipart body whose closing boundary never comes and whose part headers are cut short. */
function brokenMultipart() {
  return {
    method: 'POST',
    body: '--XYZ\r\nContent-Disposition: form-data; name="question"\r\n\r\nhello\r\n--XYZ\r\nContent-Disp',
    headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ', 'X-Forwarded-For': uniqueIp() },
  }
}

async function counts(userId: string) {
  const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  const posts = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, userId))
  return { charged: sub!.blogPostCount, searches: sub!.keywordSearchCount, posts }
}

function toastCookie(headers: Headers) {
  return (headers.get('set-cookie') ?? '')
    .split(/,(?=[^;]+=)/)
    .map((c) => c.split(';')[0]!.trim())
    .filter((c) => c.startsWith(`${cookieName('rw_toast')}=`))
    .join('; ')
}

describe('failures: hostile input answers 4xx with its message', () => {
  it('refuses a NUL byte next to the field, on the API and on the help and profile forms, and stores nothing', async () => {
    const user = await createTestUser({ name: 'Before' })
    const res = await api('/api/user/update', {
      method: 'PUT',
      as: user,
      json: { name: 'Eve\u0000il', marketSegment: 'SaaS', productService: 'email tools' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ message: NOT_ALLOWED_CHARACTERS, errors: { name: [NOT_ALLOWED_CHARACTERS] } })
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row!.name).toBe('Before')

    const help = await api('/help', { ...form({ question: 'why\u0000not' }), as: user, auth: 'cookie' })
    expect(help.status).toBe(400)
    expect(help.text).toContain(NOT_ALLOWED_CHARACTERS)

    const profile = await api('/profile', {
      ...form({ intent: 'update-profile', name: 'Ma\u0000llory' }),
      as: user,
      auth: 'cookie',
    })
    expect(profile.status).toBe(400)
    expect(profile.text).toContain(NOT_ALLOWED_CHARACTERS)
  })

  it('answers 400 with a message for a malformed multipart body, broken JSON and a form sent as JSON', async () => {
    const user = await createTestUser()
    for (const path of ['/signin', '/signup', '/help', '/profile', '/keywords', '/blogposts', '/autopilot']) {
      const res = await api(path, { ...brokenMultipart(), as: user, auth: 'cookie' })
      expect(res.status, path).toBe(400)
      expect(res.text, path).toContain('The form could not be read.')
    }
    const asJson = await api('/signin', {
      method: 'POST',
      body: '{"email":"a@b.c"}',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp() },
    })
    expect(asJson.status).toBe(400)

    const broken = await api('/api/user/update', {
      method: 'PUT',
      as: user,
      body: '{"name": "x",',
      headers: { 'Content-Type': 'application/json' },
    })
    expect(broken.status).toBe(400)
    expect(broken.body).toEqual({ message: 'The request body must be valid JSON.' })
  })

  it('refuses a cross-site form post with a clear 403 page (with or without a cookie), not a 500', async () => {
    const user = await createTestUser()
    for (const origin of ['https://evil.example', 'null', 'not a url']) {
      for (const cookie of [undefined, user.cookie]) {
        const res = await fetch(`${appUrl()}/signin`, {
          method: 'POST',
          redirect: 'manual',
          body: new URLSearchParams({ email: user.email, password: user.password }),
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Origin: origin,
            'X-Forwarded-For': uniqueIp(),
            ...(cookie ? { Cookie: cookie } : {}),
          },
        })
        expect(res.status, `${origin} ${cookie ? 'with' : 'without'} cookie`).toBe(403)
        expect(res.headers.get('content-type')).toContain('text/html')
        const html = await res.text()
        expect(html).toContain('<title>Request refused | Rankwell</title>')
        expect(html).toContain('This form was sent from another site')
      }
    }
    // The same post from our own site still signs in.
    const own = await api('/signin', {
      ...form({ email: user.email, password: user.password }),
      headers: { ...form({}).headers, Origin: appUrl() },
    })
    expect(own.status).toBe(302)
  })

  it('bounds id lists and checks id formats before SQL: a few thousand ids answer 400 at once', async () => {
    const user = await createTestUser()
    const ids = Array.from({ length: 3000 }, () => crypto.randomUUID().slice(0, 4))
    const started = Date.now()
    const many = await api(`/blogposts/status?ids=${ids.join(',')}`, { headers: { Cookie: user.cookie } })
    expect(many.status).toBe(400)
    expect(Date.now() - started).toBeLessThan(5000)
    const hundredOne = Array.from({ length: 101 }, () => crypto.randomUUID())
    expect(
      (await api(`/blogposts/status?ids=${hundredOne.join(',')}`, { headers: { Cookie: user.cookie } })).status,
    ).toBe(400)
    const bad = await api(`/blogposts/status?ids=${encodeURIComponent("1' or '1'='1")}`, {
      headers: { Cookie: user.cookie },
    })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ message: 'Every id must be a valid id.' })
    const fine = await api(`/blogposts/status?ids=${crypto.randomUUID()}`, { headers: { Cookie: user.cookie } })
    expect(fine.status).toBe(200)
    expect(fine.body).toMatchObject({ cards: [] })

    // Redeliver with an id that is not a UUID: a message, not a 500.
    await api('/api/autopilot/integrations/webhook', {
      method: 'POST',
      as: user,
      json: { webhookUrl: 'https://hooks.example.com/rankwell' },
    })
    const redeliver = await api('/autopilot', {
      ...form({ intent: 'redeliver', deliveryId: 'not-a-uuid\u0000' }),
      as: user,
      auth: 'cookie',
    })
    expect(redeliver.status).toBe(400)
    expect(redeliver.text).toContain('This delivery cannot be redelivered right now.')
  })

  it('answers at once when the answer does not need the body, and keeps the way back after sign-in short', async () => {
    const user = await createTestUser()
    // A body the route never reads (405, 404, 401) used to stall its connection until the client gave up.
    const body = JSON.stringify({ padding: 'x'.repeat(300_000) })
    for (const path of ['/api/user/export', `/api/no-such-endpoint/${tag()}`, '/api/settings/content']) {
      for (const auth of [{}, { Authorization: `Bearer ${user.token}` }] as Array<Record<string, string>>) {
        const res = await fetch(`${appUrl()}${path}`, {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp(), ...auth },
          signal: AbortSignal.timeout(10_000),
        })
        expect(res.status, path).toBeGreaterThanOrEqual(400)
        expect(res.status, path).toBeLessThan(500)
        expect(await res.json()).toHaveProperty('message')
      }
    }
    // Signed out, a page with a huge query string sends to sign-in with the page alone as the way back (an echo of
    // the whole address would make a Location header larger than clients accept).
    const huge = await fetch(`${appUrl()}/profile?ids=${Array.from({ length: 2500 }, (_, i) => i).join(',')}`, {
      redirect: 'manual',
    })
    expect(huge.status).toBe(302)
    expect(huge.headers.get('location')).toBe('/signin?redirectTo=%2Fprofile')
    const usual = await fetch(`${appUrl()}/profile?edit=1`, { redirect: 'manual' })
    expect(usual.headers.get('location')).toBe('/signin?redirectTo=%2Fprofile%3Fedit%3D1')
  })

  it('answers 404 JSON at once for an unknown /api endpoint, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const res = await api(`/api/no-such-endpoint/${tag()}`, { method, body: method === 'GET' ? undefined : '{}' })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: 'Not found.' })
    }
  })
})

describe('failures: request size limits', () => {
  const webs: WebProcess[] = []
  afterAll(() => Promise.all(webs.map((w) => w.stop())))

  it('does not charge a search for a query that is only markup, and keeps emoji and right-to-left text', async () => {
    const user = await createTestUser()
    const market = { countryCode: '2840', languageCode: '1000' }
    const before = (await counts(user.id)).searches
    const res = await api('/api/search', {
      method: 'POST',
      as: user,
      json: { query: '<script>alert("seo, tools, cheap, best, buy, now")</script>', ...market },
      headers: { 'X-Forwarded-For': uniqueIp() },
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ message: SEARCH_VALIDATION_MESSAGE })
    expect((await counts(user.id)).searches).toBe(before)
    const keywords = await db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.userId, user.id))
    expect(keywords).toEqual([])
  })

  it('refuses a body over its limit with 413 from Content-Length and while streaming a chunked body', async () => {
    const user = await createTestUser()
    const json = { 'Content-Type': 'application/json', Authorization: `Bearer ${user.token}` }
    const cases: Array<{ path: string; size: number; headers: Record<string, string> }> = [
      { path: '/api/search', size: 1024 * 1024 + 1, headers: json },
      { path: '/api/events', size: 16 * 1024 + 1, headers: { 'Content-Type': 'application/json' } },
      { path: '/api/stripe/webhook', size: 512 * 1024 + 1, headers: { 'Content-Type': 'application/json' } },
      {
        path: '/help',
        size: 1024 * 1024 + 1,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: user.cookie, Origin: appUrl() },
      },
    ]
    for (const c of cases) {
      for (const chunked of [false, true]) {
        const res = await rawRequest(appUrl(), { path: c.path, size: c.size, headers: c.headers, chunked })
        expect(res.status, `${c.path} ${chunked ? 'chunked' : 'with length'}`).toBe(413)
        if (c.path.startsWith('/api')) expect(JSON.parse(res.text)).toEqual({ message: 'The request is too large.' })
        else expect(res.text).toContain('Request too large')
      }
    }
    // Just under the limit is read (and then judged on its content).
    const events = await rawRequest(appUrl(), {
      path: '/api/events',
      body: JSON.stringify({ type: 'pageview', path: `/${'a'.repeat(15 * 1024)}` }),
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp() },
    })
    expect(events.status).toBe(400)
  })

  it('refuses 60 MB bodies with 413 without the web process growing', async () => {
    const web = await startWeb()
    webs.push(web)
    const user = await createTestUser()
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${user.token}` }
    const form = { 'Content-Type': 'multipart/form-data; boundary=x', Cookie: user.cookie, Origin: web.url }
    /** Four concurrent uploads to the API (with length and chunked), then one chunked form upload. */
    const uploads = async (size: number) => {
      const answers = await Promise.all(
        [false, true, false, true].map((chunked) =>
          rawRequest(web.url, { path: '/api/search', size, headers, chunked, timeoutMs: 30_000 }),
        ),
      )
      const formAnswer = await rawRequest(web.url, {
        path: '/help',
        size,
        chunked: true,
        headers: form,
        timeoutMs: 30_000,
      })
      return [...answers, formAnswer]
    }
    // Warm the process up with the same requests at 2 MB (also refused), so that only the size differs.
    for (let i = 0; i < 2; i++) for (const a of await uploads(2 * 1024 * 1024)) expect(a.status).toBe(413)
    const before = rssKb(web.pid)
    const sixtyMb = 60 * 1024 * 1024
    for (const a of await uploads(sixtyMb)) {
      expect(a.status).toBe(413)
      // Answered long before the body was through.
      expect(a.sentBytes).toBeLessThan(sixtyMb)
    }
    // Five 60 MB bodies held in memory would be 300 MB.
    const growthMb = (rssKb(web.pid) - before) / 1024
    expect(growthMb).toBeLessThan(40)
    expect((await fetch(`${web.url}/healthz`)).status).toBe(200)
  })
})

describe('failures: two tabs, one keyword', () => {
  it('refuses a second post while the first is being written, without charging, also when both race', async () => {
    const user = await createTestUser()
    const kw = await addKeyword(user, `two tabs ${tag()}`)
    const create = (key: string) =>
      api('/api/creator', { method: 'POST', as: user, json: { keywordId: kw.id, requestKey: key } })
    const answers = await Promise.all([create(`a-${tag()}`), create(`b-${tag()}`), create(`c-${tag()}`)])
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([202, 409, 409])
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body).toEqual({ message: POST_MESSAGES.inProgress })
    const after = await counts(user.id)
    expect(after.posts).toHaveLength(1)
    expect(after.charged).toBe(1)

    // The page's form (no JavaScript): a redirect back with the same message as a toast, nothing charged.
    const web = await api('/blogposts', {
      ...form({ intent: 'create-post', keywordId: kw.id, requestKey: `${kw.id}.tab2`, redirectTo: '/keywords' }),
      as: user,
      auth: 'cookie',
    })
    expect(web.status).toBe(302)
    const shown = await api('/keywords', { headers: { Cookie: `${user.cookie}; ${toastCookie(web.headers)}` } })
    expect(shown.text).toContain(POST_MESSAGES.inProgress)
    expect((await counts(user.id)).charged).toBe(1)
  })

  it('writes another post for a keyword whose post is finished only after a confirmation', async () => {
    const user = await createTestUser()
    const kw = await addKeyword(user, `written before ${tag()}`)
    await db.insert(schema.blogPosts).values({
      userId: user.id,
      keywordId: kw.id,
      requestKey: `earlier-${tag()}`,
      keyword: kw.keyword,
      title: kw.keyword,
      status: 'completed',
      completedAt: new Date(),
    })
    const ask = await api('/api/creator', { method: 'POST', as: user, json: { keywordId: kw.id } })
    expect(ask.status).toBe(409)
    expect(ask.body.message).toMatch(/for a very similar search: update it instead\?$/)
    expect((await counts(user.id)).charged).toBe(0)

    // Without JavaScript the form leads to the page that offers to update the post or write another.
    const page = await api('/blogposts', {
      ...form({ intent: 'create-post', keywordId: kw.id, requestKey: `${kw.id}.view`, redirectTo: '/keywords' }),
      as: user,
      auth: 'cookie',
    })
    expect(page.status).toBe(302)
    expect(page.headers.get('location')).toMatch(new RegExp(`^/keywords/${kw.id}/write\\?`))
    expect((await counts(user.id)).charged).toBe(0)
    const confirmed = await api('/blogposts', {
      ...form({
        intent: 'create-post',
        keywordId: kw.id,
        requestKey: `${kw.id}.view.again`,
        redirectTo: '/keywords',
        force: '1',
      }),
      as: user,
      auth: 'cookie',
    })
    expect(confirmed.status).toBe(302)
    const after = await counts(user.id)
    expect(after.charged).toBe(1)
    expect(after.posts).toHaveLength(2)

    // The API's confirmation, once that one is finished too.
    await db.update(schema.blogPosts).set({ status: 'completed' }).where(eq(schema.blogPosts.userId, user.id))
    const again = await api('/api/creator', { method: 'POST', as: user, json: { keywordId: kw.id, force: true } })
    expect(again.status).toBe(202)
    expect((await counts(user.id)).charged).toBe(2)
  })
})
