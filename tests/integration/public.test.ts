import crypto from 'node:crypto'
import { desc, eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl, smtpMessages, waitForSmtpMessage } from '#tests/fakes/client'
import { api, appUrl, createTestUser, uniqueEmail, uniqueIp } from '#tests/setup/app'
import { chatCompletion } from '#tests/setup/openai'
import { startWeb } from '#tests/setup/processes'
import { clearOfWindowEdge } from '#tests/setup/clock'

const marker = (prefix: string) => `${prefix} ${crypto.randomBytes(4).toString('hex')}`

const openai = () => fakeControl('openai')

/** Chat completion calls whose body mentions `text` (so concurrent calls of other tests are not counted). */
async function modelCallsFor(text: string) {
  const requests = await openai().requests({ method: 'POST', path: '/chat/completions' })
  return requests.filter((r) => JSON.stringify(r.body).includes(text)).length
}

function post(path: string, json: unknown, clientIp = uniqueIp()) {
  return api(path, { method: 'POST', json, headers: { 'X-Forwarded-For': clientIp } })
}

const extra: Array<() => Promise<unknown>> = []
afterAll(async () => {
  await Promise.all(extra.map((stop) => stop()))
})

describe('public AI endpoints', () => {
  it('generates keywords for a topic', async () => {
    const topic = marker('sustainable fashion')
    const res = await post('/api/public/generate-keywords', { topic })
    expect(res.status).toBe(200)
    const keywords = res.body.keywords as string[]
    expect(Array.isArray(keywords)).toBe(true)
    expect(keywords.length).toBeGreaterThan(0)
    expect(keywords.every((k) => typeof k === 'string' && k.length > 0)).toBe(true)
    // Structured output: the model was asked for a strict JSON schema.
    const [call] = (await openai().requests({ method: 'POST', path: '/chat/completions' })).filter((r) =>
      JSON.stringify(r.body).includes(topic),
    )
    expect(call?.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { strict: true } } })
  })

  it('generates titles, an outline and an SEO strategy', async () => {
    const clientIp = uniqueIp()
    const titles = await post('/api/public/generate-titles', { keyword: marker('email marketing') }, clientIp)
    expect(titles.status).toBe(200)
    expect((titles.body.titles as string[]).length).toBeGreaterThan(0)

    const outline = await post('/api/public/generate-outline', { keyword: marker('start a podcast') }, clientIp)
    expect(outline.status).toBe(200)
    const o = outline.body.outline as {
      introduction: string
      sections: Array<{ title: string; content: string[] }>
      conclusion: string
    }
    expect(o.introduction.length).toBeGreaterThan(0)
    expect(o.conclusion.length).toBeGreaterThan(0)
    expect(o.sections.length).toBeGreaterThan(0)
    expect(o.sections[0]!.title.length).toBeGreaterThan(0)
    expect(Array.isArray(o.sections[0]!.content)).toBe(true)

    const strategy = await post(
      '/api/public/generate-seo-strategy',
      { business: marker('online bakery'), segment: 'families in Austin' },
      clientIp,
    )
    expect(strategy.status).toBe(200)
    const s = strategy.body.seo_strategy as Record<string, unknown>
    expect(typeof s.summary).toBe('string')
    expect(Array.isArray(s.keyword_themes)).toBe(true)
    expect(Array.isArray(s.content_pillars)).toBe(true)
    expect(Array.isArray(s.roadmap)).toBe(true)
  })

  it('refuses bad input with 400 and field errors, without calling the model', async () => {
    const missing = await post('/api/public/generate-keywords', {})
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toMatchObject({ topic: ['Please enter a content topic.'] })

    const blank = await post('/api/public/generate-titles', { keyword: '   ' })
    expect(blank.status).toBe(400)

    const long = marker('x'.repeat(201))
    const tooLong = await post('/api/public/generate-outline', { keyword: long })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.message).toBe('Please use at most 200 characters.')
    expect(await modelCallsFor(long)).toBe(0)

    const halfStrategy = await post('/api/public/generate-seo-strategy', { business: 'bakery' })
    expect(halfStrategy.status).toBe(400)
    expect(halfStrategy.body.errors).toHaveProperty('segment')

    const notJson = await api('/api/public/generate-keywords', {
      method: 'POST',
      body: 'topic=shoes',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': uniqueIp() },
    })
    expect(notJson.status).toBe(400)

    const wrongType = await post('/api/public/generate-keywords', { topic: 42 })
    expect(wrongType.status).toBe(400)
  })

  it('answers a repeated (normalised) input from the cache without a model call', async () => {
    const topic = marker('Cold Brew Coffee')
    const first = await post('/api/public/generate-keywords', { topic })
    expect(first.status).toBe(200)
    expect(await modelCallsFor(topic)).toBe(1)

    const again = await post('/api/public/generate-keywords', { topic: `  ${topic.toLowerCase()}   ` })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(await modelCallsFor(topic)).toBe(1)
    expect(await modelCallsFor(topic.toLowerCase())).toBe(0)

    const rows = await db
      .select()
      .from(schema.aiCache)
      .where(sql`${schema.aiCache.key} like 'free-keywords:%'`)
    expect(rows.some((r) => JSON.stringify(r.value) === JSON.stringify(first.body))).toBe(true)
  })

  it('rate-limits each IP address with a clear 429 and Retry-After', { timeout: 180_000 }, async () => {
    // The limit counts per clock hour: the ten requests and the refused one must fall in the same hour.
    await clearOfWindowEdge(3600)
    const clientIp = uniqueIp()
    const topic = marker('rate limited topic')
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/public/generate-keywords', { topic }, clientIp)
      expect(res.status).toBe(200)
    }
    const limited = await post('/api/public/generate-titles', { keyword: topic }, clientIp)
    expect(limited.status).toBe(429)
    expect(limited.body.message).toMatch(
      /You have used the free tools 10 times this hour\. Please try again in \d+ minutes?/,
    )
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another visitor is not affected.
    expect((await post('/api/public/generate-keywords', { topic })).status).toBe(200)
  })

  it('refuses a filled-in honeypot without spending anything', async () => {
    const topic = marker('honeypot topic')
    const res = await post('/api/public/generate-keywords', { topic, website: 'http://spam.example' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Your request could not be processed.')
    expect(res.body).not.toHaveProperty('keywords')
    expect(await modelCallsFor(topic)).toBe(0)
  })

  it('turns a model failure into the spec message with 502, never a 500', async () => {
    const keyword = marker('failing outline')
    await openai().enqueue({ status: 400, path: '/chat/completions', bodyIncludes: keyword, times: 1 })
    const res = await post('/api/public/generate-outline', { keyword })
    expect(res.status).toBe(502)
    expect(res.body.message).toBe('An error occurred while generating outline. Please try later.')
    // Failures are not cached: the next try asks the model again and succeeds.
    const retry = await post('/api/public/generate-outline', { keyword })
    expect(retry.status).toBe(200)
  })

  it('answers 503 with Retry-After when the model is overloaded', async () => {
    const business = marker('overloaded bakery')
    await openai().enqueue({ status: 503, path: '/chat/completions', bodyIncludes: business, times: 3 })
    const res = await post('/api/public/generate-seo-strategy', { business, segment: 'families' })
    expect(res.status).toBe(503)
    expect(res.body.message).toBe('An error occurred while generating the SEO strategy. Please try again later.')
    expect(res.headers.get('retry-after')).toBeTruthy()
  })

  it('says "Could not generate" when the model answers with nothing usable', async () => {
    const keyword = marker('empty titles')
    await openai().enqueue({
      status: 200,
      path: '/chat/completions',
      bodyIncludes: keyword,
      body: chatCompletion('{"titles":[]}'),
    })
    const res = await post('/api/public/generate-titles', { keyword })
    expect(res.status).toBe(502)
    expect(res.body.message).toBe('Could not generate titles. Please try again.')

    const topic = marker('malformed keywords')
    await openai().enqueue({
      status: 200,
      path: '/chat/completions',
      bodyIncludes: topic,
      body: chatCompletion('not json'),
    })
    const bad = await post('/api/public/generate-keywords', { topic })
    expect(bad.status).toBe(502)
    expect(bad.body.message).toBe('Could not generate keywords. Please try again.')
  })

  it('says clearly, in product words, when the AI tools are not available', async () => {
    const web = await startWeb({ OPENAI_API_KEY: '' })
    extra.push(web.stop)
    const res = await fetch(`${web.url}/api/public/generate-keywords`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp() },
      body: JSON.stringify({ topic: marker('no ai here') }),
    })
    expect(res.status).toBe(503)
    expect((await res.json()).message).toBe('The free AI tools are not available right now. Please try again later.')
  })

  it('only accepts POST', async () => {
    const res = await api('/api/public/generate-keywords')
    expect(res.status).toBe(405)
  })
})

describe('public ebook leads', () => {
  it('stores a lead once per address and e-mails the ebook link', async () => {
    const email = uniqueEmail('lead')
    const res = await post('/api/leads', { email })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Success! Check your email for the ebook link.')
    const mail = await waitForSmtpMessage({ to: email })
    expect(mail.text).toContain(`${appUrl()}/ebook`)
    expect(mail.html).toContain(`href="${appUrl()}/ebook"`)

    const again = await post('/api/leads', { email: email.toUpperCase() })
    expect(again.status).toBe(200)
    const rows = await db
      .select()
      .from(schema.leads)
      .where(eq(sql`lower(${schema.leads.email})`, email.toLowerCase()))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.emailedAt).toBeTruthy()
    await new Promise((r) => setTimeout(r, 300))
    expect(await smtpMessages(email)).toHaveLength(1)
  })

  it('serves the ebook the e-mail links to', async () => {
    const res = await fetch(`${appUrl()}/ebook`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('The Founder’s Guide to SEO')
    expect(html).toContain('Choosing keywords you can actually win')
    expect(html).toContain('noindex')
  })

  it('refuses a bad address, a filled-in honeypot and too many requests', async () => {
    const bad = await post('/api/leads', { email: 'not-an-email' })
    expect(bad.status).toBe(400)
    expect(bad.body.errors).toHaveProperty('email')

    const bot = uniqueEmail('bot')
    const trapped = await post('/api/leads', { email: bot, website: 'http://spam.example' })
    expect(trapped.status).toBe(400)
    expect(await db.select().from(schema.leads).where(eq(schema.leads.email, bot))).toHaveLength(0)

    const clientIp = uniqueIp()
    for (let i = 0; i < 5; i++)
      expect((await post('/api/leads', { email: uniqueEmail('many') }, clientIp)).status).toBe(200)
    const limited = await post('/api/leads', { email: uniqueEmail('many') }, clientIp)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('public analytics events', () => {
  it('stores page views and web vitals, with secrets removed from the path', async () => {
    const tag = crypto.randomBytes(4).toString('hex')
    const view = await post('/api/events', { type: 'pageview', path: `/free-tools?ref=${tag}&token=secret-${tag}` })
    expect(view.status).toBe(204)
    const vitals = await api('/api/events', {
      method: 'POST',
      // sendBeacon may deliver the JSON as text/plain
      body: JSON.stringify({ events: [{ type: 'web-vital', path: `/?v=${tag}`, name: 'LCP', value: 812.5 }] }),
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'X-Forwarded-For': uniqueIp() },
    })
    expect(vitals.status).toBe(204)
    const rows = await db
      .select()
      .from(schema.analyticsEvents)
      .where(sql`${schema.analyticsEvents.path} like ${`%${tag}%`}`)
      .orderBy(desc(schema.analyticsEvents.id))
    expect(rows).toHaveLength(2)
    const pageview = rows.find((r) => r.type === 'pageview')!
    expect(pageview.path).toBe(`/free-tools?ref=${tag}&token=redacted`)
    const vital = rows.find((r) => r.type === 'web-vital')!
    expect(vital).toMatchObject({ name: 'LCP', path: `/?v=${tag}` })
    expect(vital.value).toBeCloseTo(812.5)
  })

  it('counts the page view of a page without JavaScript from its image, with secrets removed, and refuses bad paths', async () => {
    const tag = crypto.randomBytes(4).toString('hex')
    const path = `/blog/choose-your-first-20-keywords?ref=${tag}&password=hunter2`
    const res = await fetch(`${appUrl()}/api/events/view?${new URLSearchParams({ path })}`, {
      headers: { 'X-Forwarded-For': uniqueIp() },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/gif')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const gif = Buffer.from(await res.arrayBuffer())
    expect(gif.subarray(0, 6).toString('latin1')).toBe('GIF89a')
    const rows = await db
      .select()
      .from(schema.analyticsEvents)
      .where(sql`${schema.analyticsEvents.path} like ${`%${tag}%`}`)
    expect(rows.map((r) => [r.type, r.path])).toEqual([
      ['pageview', `/blog/choose-your-first-20-keywords?ref=${tag}&password=redacted`],
    ])

    for (const bad of ['', '?path=', `?path=${encodeURIComponent(`https://evil.example/${tag}`)}`]) {
      const refused = await api(`/api/events/view${bad}`, { headers: { 'X-Forwarded-For': uniqueIp() } })
      expect(refused.status, bad).toBe(400)
      expect(refused.headers.get('cache-control')).toBe('no-store')
    }
    // Nothing more was stored for the refused ones.
    const after = await db
      .select()
      .from(schema.analyticsEvents)
      .where(sql`${schema.analyticsEvents.path} like ${`%${tag}%`}`)
    expect(after).toHaveLength(1)
  })

  it('refuses malformed events and rate-limits a flood', async () => {
    expect((await post('/api/events', { type: 'click', path: '/' })).status).toBe(400)
    expect((await post('/api/events', { type: 'web-vital', path: '/', name: 'LCP' })).status).toBe(400)
    expect((await post('/api/events', { type: 'pageview', path: 'https://evil.example/' })).status).toBe(400)
    const clientIp = uniqueIp()
    const statuses: number[] = []
    for (let i = 0; i < 121; i++)
      statuses.push((await post('/api/events', { type: 'pageview', path: '/flood' }, clientIp)).status)
    expect(statuses.slice(0, 120).every((s) => s === 204)).toBe(true)
    expect(statuses[120]).toBe(429)
  })
})

describe('public SEO resources', () => {
  it('serves sitemap.xml and robots.txt with absolute URLs', async () => {
    const sitemap = await fetch(`${appUrl()}/sitemap.xml`)
    expect(sitemap.status).toBe(200)
    expect(sitemap.headers.get('content-type')).toContain('application/xml')
    const xml = await sitemap.text()
    for (const path of [
      '/',
      '/pricing',
      '/free-tools',
      '/free-keyword-research',
      '/free-blog-title',
      '/free-blog-outline',
      '/free-seo-strategy',
      '/seo-guide-ebook',
    ]) {
      expect(xml).toContain(`<loc>${appUrl()}${path}</loc>`)
    }
    const robots = await fetch(`${appUrl()}/robots.txt`)
    expect(robots.headers.get('content-type')).toContain('text/plain')
    const txt = await robots.text()
    expect(txt).toContain('Disallow: /api/')
    expect(txt).toContain(`Sitemap: ${appUrl()}/sitemap.xml`)
  })

  it('gives the home page its title, canonical URL, Open Graph tags and JSON-LD', async () => {
    const html = await (await fetch(`${appUrl()}/`)).text()
    expect(html).toMatch(/<title>Rankwell: Keyword Research and AI Blog Posts for Founders<\/title>/)
    expect(html).toContain(`<link rel="canonical" href="${appUrl()}/"`)
    expect(html).toContain('property="og:title"')
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) =>
      JSON.parse(m[1]!),
    )
    const types = blocks.map((b) => b['@type'])
    expect(types).toEqual(expect.arrayContaining(['Organization', 'SoftwareApplication', 'FAQPage']))
    const product = blocks.find((b) => b['@type'] === 'SoftwareApplication')
    expect(product.offers.map((o: { price: string }) => o.price)).toEqual(expect.arrayContaining(['0.00', '49.90']))
  })

  it('serves the self-hosted intro video and its captions', async () => {
    const video = await fetch(`${appUrl()}/intro.webm`, { method: 'HEAD' })
    expect(video.status).toBe(200)
    expect(video.headers.get('content-type')).toBe('video/webm')
    const captions = await fetch(`${appUrl()}/intro.vtt`)
    expect(await captions.text()).toMatch(/^WEBVTT/)
  })

  it('keeps the SEO guide behind sign-in', async () => {
    const anonymous = await api('/how-grow')
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toMatch(/^\/signin/)
    const user = await createTestUser()
    const signedIn = await api('/how-grow', { as: user, auth: 'cookie' })
    expect(signedIn.status).toBe(200)
    expect(signedIn.text).toContain('Launch Your Strategy')
    expect(signedIn.text).toContain('href="/keywords"')
  })
})
