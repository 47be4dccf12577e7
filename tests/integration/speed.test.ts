import crypto from 'node:crypto'
import http from 'node:http'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { toast } from '#app/platform/http/toast.server'
import { api, appUrl, createTestUser, uniqueIp } from '#tests/setup/app'
import { cookieName } from '#app/platform/http/cookies.server'

const PUBLIC = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400'
const PRIVATE = 'private, no-store'

/** Every public marketing page of issue 17, the blog included. */
const PUBLIC_PAGES = [
  '/',
  '/pricing',
  '/free-tools',
  '/free-keyword-research',
  '/free-blog-title',
  '/free-blog-outline',
  '/free-seo-strategy',
  '/seo-guide-ebook',
  '/blog',
  '/blog/choose-your-first-20-keywords',
  '/blog/search-intent-for-founders',
  '/blog/anatomy-of-a-post-that-ranks',
]
/** The sign-in and sign-up forms: the same for every anonymous visitor, shaped only by their URL (decision 0213). */
const AUTH_PAGES = ['/signin', '/signup', '/signin?redirectTo=%2Fkeywords', '/signin?error=google-denied']

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${appUrl()}${path}`, { headers, redirect: 'manual' })
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('base64')
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\bsrc\s*=/i.test(m[1]!) && m[2]!.length > 0)
    .map((m) => m[2]!)

function expectPrivate(res: Response) {
  expect(res.headers.get('cache-control')).toBe(PRIVATE)
  expect(res.headers.get('etag')).toBeNull()
}

/** A real flash toast cookie, as an action's redirectWithSuccess would set it. */
async function toastCookie() {
  const res = await toast().redirectWithSuccess('/', 'Saved.')
  return res.headers.get('set-cookie')!.split(';')[0]!
}

describe('public pages a CDN can cache', () => {
  it.each([...PUBLIC_PAGES, ...AUTH_PAGES])(
    '%s: public Cache-Control, a strong ETag of its bytes, hashed CSP and no cookie',
    async (path) => {
      const res = await get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe(PUBLIC)
      expect(res.headers.get('set-cookie')).toBeNull()
      const html = await res.text()
      // The validator is the hash of the document itself, so it changes whenever the content does.
      const etag = res.headers.get('etag')
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/)
      expect(etag).toBe(`"${crypto.createHash('sha256').update(html, 'utf8').digest('base64url').slice(0, 32)}"`)
      // No per-request nonce: every inline script is allowed by its hash, nothing else inline runs.
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).not.toContain("'nonce-")
      expect(html).not.toMatch(/\snonce="/)
      const scripts = inlineScripts(html)
      expect(scripts.length).toBeGreaterThan(0)
      for (const script of scripts) expect(csp).toContain(`'sha256-${sha256(script)}'`)
      expect(csp.match(/'sha256-/g)?.length).toBe(new Set(scripts.map(sha256)).size)

      const again = await get(path, { 'If-None-Match': etag! })
      expect(again.status).toBe(304)
      expect(again.headers.get('etag')).toBe(etag)
      expect(await again.text()).toBe('')
      // A stale validator gets the full page.
      const stale = await get(path, { 'If-None-Match': '"not-the-current-version"' })
      expect(stale.status).toBe(200)
    },
  )

  it('keeps the same ETag for the same content and a different one for other content', async () => {
    const [a, b, c] = await Promise.all([get('/pricing'), get('/pricing'), get('/free-tools')])
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'))
    expect(a.headers.get('etag')).not.toBe(c.headers.get('etag'))
  })

  it('a repeated anonymous visit gets the same page, headers and validator, with its own request id', async () => {
    const a = await get('/free-tools')
    const b = await get('/free-tools')
    expect(await b.text()).toBe(await a.text())
    for (const name of ['etag', 'cache-control', 'content-security-policy', 'content-type', 'x-content-type-options'])
      expect(b.headers.get(name)).toBe(a.headers.get(name))
    expect(b.headers.get('x-request-id')).toBeTruthy()
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'))
    const head = await fetch(`${appUrl()}/free-tools`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('etag')).toBe(a.headers.get('etag'))
    expect(await head.text()).toBe('')
  })

  it('answers 304 with gzip and brotli too (the validator survives compression)', async () => {
    const first = await get('/', { 'Accept-Encoding': 'gzip, br' })
    expect(['gzip', 'br']).toContain(first.headers.get('content-encoding'))
    const etag = first.headers.get('etag')!
    const again = await get('/', { 'Accept-Encoding': 'gzip, br', 'If-None-Match': etag })
    expect(again.status).toBe(304)
  })
})

/** A GET whose body is read as the raw bytes sent (fetch would decode them). */
function rawGet(path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request(`${appUrl()}${path}`, { headers, method }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
      .end()
  })
}

describe('kept public pages, compressed once', () => {
  it('sends the kept page in the encoding the client prefers, the same bytes decoded, with Vary and its length', async () => {
    const plain = await rawGet('/pricing', { 'Accept-Encoding': 'identity' })
    await rawGet('/pricing', {}) // kept now, if the first visit did not find it kept already
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['*', 'br'],
    ] as const) {
      // Twice: the first request may compress and keep it, the second is served what was kept.
      for (let i = 0; i < 2; i++) {
        const res = await rawGet('/pricing', { 'Accept-Encoding': accept })
        expect(res.status).toBe(200)
        expect(res.headers['content-encoding'], accept).toBe(encoding)
        expect(res.headers.vary).toMatch(/Accept-Encoding/i)
        expect(res.headers.etag).toBe(plain.headers.etag)
        expect(Number(res.headers['content-length'])).toBe(res.body.length)
        const decoded = encoding === 'br' ? zlib.brotliDecompressSync(res.body) : zlib.gunzipSync(res.body)
        expect(decoded.equals(plain.body), accept).toBe(true)
        expect(res.body.length).toBeLessThan(plain.body.length / 3)
      }
    }
    const none = await rawGet('/pricing', { 'Accept-Encoding': 'gzip;q=0, br;q=0' })
    expect(none.headers['content-encoding']).toBeUndefined()
    expect(none.body.equals(plain.body)).toBe(true)
    // A HEAD gets the GET's headers (the kept gzip body's length) and no body.
    const gzip = await rawGet('/pricing', { 'Accept-Encoding': 'gzip' })
    const head = await rawGet('/pricing', { 'Accept-Encoding': 'gzip' }, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-encoding']).toBe('gzip')
    expect(head.headers.etag).toBe(plain.headers.etag)
    expect(Number(head.headers['content-length'])).toBe(gzip.body.length)
    expect(head.body.length).toBe(0)
  })
})

describe('never cached: sessions, toasts, form errors, personal data', () => {
  it.each(PUBLIC_PAGES)('%s signed in is private, no-store', async (path) => {
    const user = await createTestUser()
    const res = await get(path, { Cookie: user.cookie })
    expect(res.status).toBe(200)
    expectPrivate(res)
    expect(res.headers.get('content-security-policy')).toMatch(/'nonce-[^']+'/)
    // The signed-in navigation shows the user's own email: personal data.
    expect(await res.text()).toContain(user.email)
  })

  it('a page showing a toast is private and clears the toast cookie', async () => {
    const res = await get('/pricing', { Cookie: await toastCookie() })
    expect(res.status).toBe(200)
    expectPrivate(res)
    expect(res.headers.get('set-cookie')?.startsWith(`${cookieName('rw_toast')}=`)).toBe(true)
    expect(await res.text()).toContain('Saved.')
  })

  it('a form error (a no-JavaScript POST to a free tool) is private', async () => {
    const res = await fetch(`${appUrl()}/free-blog-title`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': uniqueIp() },
      body: new URLSearchParams({ keyword: '' }),
      redirect: 'manual',
    })
    expect(res.status).toBe(400)
    expectPrivate(res)
  })

  it.each(['/signin', '/signup'])('%s for a signed-in visitor is a private redirect', async (path) => {
    const user = await createTestUser()
    const res = await get(path, { Cookie: user.cookie })
    expect(res.status).toBe(302)
    expectPrivate(res)
  })

  it('a sign-in form error (a no-JavaScript POST) is private and keeps the e-mail', async () => {
    const res = await fetch(`${appUrl()}/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': uniqueIp() },
      body: new URLSearchParams({ email: 'someone@example.com', password: '' }),
      redirect: 'manual',
    })
    expect(res.status).toBe(400)
    expectPrivate(res)
    expect(await res.text()).toContain('value="someone@example.com"')
  })

  it('the sign-in page with a redirect target echoes only that target, and is cached per URL', async () => {
    const a = await (await get('/signin?redirectTo=%2Fkeywords')).text()
    const b = await (await get('/signin?redirectTo=%2Fblogposts')).text()
    expect(a).toContain('value="/keywords"')
    expect(b).toContain('value="/blogposts"')
    expect(b).not.toContain('value="/keywords"')
  })

  it.each(['/keywords', '/blogposts', '/profile', '/autopilot'])('%s signed in is private, no-store', async (path) => {
    const user = await createTestUser()
    const res = await get(path, { Cookie: user.cookie })
    expect(res.status).toBe(200)
    expectPrivate(res)
  })

  it('a client navigation data request is private, no-store', async () => {
    const res = await get('/pricing?_data=root')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe(PRIVATE)
  })

  it('a 404 page is not publicly cacheable', async () => {
    const res = await get('/blog/no-such-article')
    expect(res.status).toBe(404)
    expectPrivate(res)
  })

  it('a signed-in page shows data changed by the same request’s action (no stale per-request user)', async () => {
    const user = await createTestUser()
    const before = await api('/api/user', { as: user })
    expect(before.status).toBe(200)
    const res = await get('/profile', { Cookie: user.cookie })
    expect(await res.text()).toContain(user.email)
    // Signing out ends the session: the same cookie no longer finds a user (the lookup is per request, not cached).
    await fetch(`${appUrl()}/logout`, {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: appUrl() },
      redirect: 'manual',
    })
    const after = await get('/keywords', { Cookie: user.cookie })
    expect(after.status).toBe(302)
    expect(after.headers.get('location')).toMatch(/^\/signin/)
  })
})

describe('static files and pages', () => {
  it('serves fingerprinted assets as immutable and public files for an hour', async () => {
    const user = await createTestUser()
    const html = await (await get('/keywords', { Cookie: user.cookie })).text()
    const asset = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1]
    expect(asset).toBeTruthy()
    const css = await get(asset!)
    expect(css.status).toBe(200)
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const icon = await get('/favicon.svg')
    expect(icon.status).toBe(200)
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600')
  })
})

describe('the stylesheet', () => {
  it('is inline on public pages (no render-blocking request) and linked, the same rules, on every other page', async () => {
    const user = await createTestUser()
    const privateHtml = await (await get('/keywords', { Cookie: user.cookie })).text()
    const href = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/.exec(privateHtml)?.[1]
    expect(href).toBeTruthy()
    expect(privateHtml).not.toContain('<style id="rw-css"')
    const file = await (await get(href!)).text()
    for (const path of ['/', '/blog/choose-your-first-20-keywords', '/signin']) {
      const html = await (await get(path)).text()
      const inline = /<style id="rw-css">([\s\S]*?)<\/style>/.exec(html)?.[1]
      expect(inline, path).toBeTruthy()
      expect(html, path).not.toMatch(/<link rel="stylesheet"/)
      // The same rules as the file (a rule of the layout's and one of the keyword table's, issue 21's classes).
      for (const rule of ['.stacked-td', '.btn-secondary', '.sr-only']) {
        expect(file, rule).toContain(rule)
        expect(inline, `${path} ${rule}`).toContain(rule)
      }
    }
  })
})

describe('the blog', () => {
  it('lists the articles newest first, with their links', async () => {
    const res = await get('/blog/')
    expect(res.status).toBe(200)
    const html = await res.text()
    const order = ['anatomy-of-a-post-that-ranks', 'search-intent-for-founders', 'choose-your-first-20-keywords'].map(
      (slug) => html.indexOf(`href="/blog/${slug}"`),
    )
    expect(order.every((i) => i > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(html).toContain('rel="alternate" type="application/rss+xml"')
  })

  it("is sent without the app's JavaScript (nothing to fetch or run), its page view counted by an image", async () => {
    for (const path of ['/blog', '/blog/choose-your-first-20-keywords']) {
      const html = await (await get(`${path}?ref=x&token=secret`)).text()
      // Only the JSON-LD data blocks, which browsers do not run.
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
      expect(scripts.length, path).toBeGreaterThan(0)
      for (const tag of scripts) expect(tag, path).toBe('<script type="application/ld+json">')
      expect(html, path).not.toContain('modulepreload')
      const view = new URLSearchParams({ path: `${path}?ref=x&token=redacted` })
      expect(html, path).toContain(`<img src="/api/events/view?${view}" alt="" aria-hidden="true" width="1" height="1"`)
    }
    // The other public pages keep the app's scripts (client navigations, the tools' forms).
    const home = await (await get('/')).text()
    expect(home).toContain('rel="modulepreload"')
    expect(home).toMatch(/<script type="module"/)
  })

  it('renders an article with Article and BreadcrumbList JSON-LD, Open Graph and a canonical URL', async () => {
    const html = await (await get('/blog/search-intent-for-founders')).text()
    expect(html).toContain('<h1')
    expect(html).toContain('Search Intent: Write the Page Google Already Wants to Rank')
    expect(html).toContain(`<link rel="canonical" href="${appUrl()}/blog/search-intent-for-founders"/>`)
    expect(html).toContain('<meta property="og:type" content="article"/>')
    const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as { '@type': string; headline?: string; itemListElement?: unknown[] },
    )
    expect(ld.find((d) => d['@type'] === 'Article')?.headline).toContain('Search Intent')
    expect(ld.find((d) => d['@type'] === 'BreadcrumbList')?.itemListElement).toHaveLength(3)
    // The Markdown became HTML (a table of the four intents).
    expect(html).toMatch(/<table>[\s\S]*Informational/)
  })

  it('publishes an RSS feed and lists every article in the sitemap', async () => {
    const rss = await get('/blog/rss.xml')
    expect(rss.status).toBe(200)
    expect(rss.headers.get('content-type')).toContain('application/rss+xml')
    expect(rss.headers.get('cache-control')).toBe(PUBLIC)
    const feed = await rss.text()
    expect(feed.match(/<item>/g)).toHaveLength(3)
    expect(feed).toContain(`<link>${appUrl()}/blog/choose-your-first-20-keywords</link>`)
    const again = await get('/blog/rss.xml', { 'If-None-Match': rss.headers.get('etag')! })
    expect(again.status).toBe(304)

    const sitemap = await (await get('/sitemap.xml')).text()
    for (const slug of ['choose-your-first-20-keywords', 'search-intent-for-founders', 'anatomy-of-a-post-that-ranks'])
      expect(sitemap).toContain(`<loc>${appUrl()}/blog/${slug}</loc>`)
    expect(sitemap).toContain(`<loc>${appUrl()}/blog</loc>`)
  })
})
