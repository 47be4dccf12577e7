import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { formatApiKey } from '#app/features/accounts/api-keys'
import { CONTENT_SETTINGS_MESSAGES } from '#app/features/content/content-settings'
import { db, schema } from '#app/platform/db/client.server'
import { cookieName } from '#app/platform/http/cookies.server'
import { fakeControl, webControl } from '#tests/fakes/client'
import { appUrl, createTestUser, uniqueIp, waitFor } from '#tests/setup/app'
import { freePort, runUntilExit, startWeb, type WebProcess } from '#tests/setup/processes'
import { webArgs, workerEntry } from '../../scripts/lib/app'

/**
 * Issue 34 (platform): bounded metrics and a private, token-guarded /metrics; `Origin: null` refused for cookie
 * writes; `__Host-` cookies; Sentry scrubbing of webhook secrets, JWTs and Google tokens; one private-network switch
 * per kind of outgoing request. All against the production build.
 */
const processes: WebProcess[] = []
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()))
  await Promise.all(closers.map((close) => close()))
})

const tag = () => crypto.randomBytes(6).toString('hex')

/** The series of one metric in a Prometheus text exposition (one line per label set). */
function seriesOf(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`))
}

async function scrape(host: string, port: number, token?: string) {
  const res = await fetch(`http://${host}:${port}/metrics`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  return { status: res.status, text: await res.text() }
}

/** Runs `count` requests made by `make(i)` with `parallel` at a time; resolves with each one's status. */
async function flood(count: number, parallel: number, make: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = new Array<number>(count)
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < count; i = next++) statuses[i] = await make(i)
    }),
  )
  return statuses
}

/** A POST that declares a body far over any route's limit and sends none of it: refused before a byte is read. */
function oversizedPost(base: string, path: string): Promise<number> {
  const url = new URL(path, base)
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        Origin: base,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(200 * 1024 * 1024),
        'X-Forwarded-For': uniqueIp(),
      },
    })
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => {
        req.destroy()
        resolve(res.statusCode ?? 0)
      })
    })
    req.on('error', reject)
    req.flushHeaders()
  })
}

describe('metrics cannot be used to exhaust memory', () => {
  it('5,000 distinct refused paths (403, 413, 302, 401, 404) add a fixed number of series; /metrics needs its token and listens on METRICS_HOST only', async () => {
    const port = await freePort()
    const token = `metrics-${tag()}`
    // A loopback address other than 127.0.0.1: the endpoint must listen there and only there.
    const host = '127.0.0.2'
    const web = await startWeb({ METRICS_PORT: String(port), METRICS_HOST: host, METRICS_TOKEN: token })
    processes.push(web)

    expect((await scrape(host, port)).status).toBe(401)
    expect((await scrape(host, port, `${token}x`)).status).toBe(401)
    await expect(scrape('127.0.0.1', port, token)).rejects.toThrow()
    // Not on the app's own port either.
    expect((await fetch(`${web.url}/metrics`)).status).toBe(404)

    // One request of each kind first, so that the series they need exist: the flood must then add none.
    const user = await createTestUser()
    const kinds: Array<{ name: string; expected: number; send: (i: number) => Promise<number> }> = [
      {
        name: 'cross-site cookie POST',
        expected: 403,
        send: async (i) =>
          (
            await fetch(`${web.url}/refused-${tag()}/${i}`, {
              method: 'POST',
              redirect: 'manual',
              headers: {
                Origin: 'https://evil.example',
                Cookie: user.cookie,
                'Content-Type': 'application/x-www-form-urlencoded',
                'X-Forwarded-For': uniqueIp(),
              },
              body: 'a=1',
            })
          ).status,
      },
      { name: 'oversized body', expected: 413, send: (i) => oversizedPost(web.url, `/too-large-${tag()}/${i}`) },
      {
        name: 'page needing a session',
        expected: 302,
        send: async () =>
          (
            await fetch(`${web.url}/blogpost/${crypto.randomUUID()}`, {
              redirect: 'manual',
              headers: { 'X-Forwarded-For': uniqueIp() },
            })
          ).status,
      },
      {
        name: 'API call without a token',
        expected: 401,
        send: async () =>
          (
            await fetch(`${web.url}/api/blogpost/${crypto.randomUUID()}`, {
              headers: { 'X-Forwarded-For': uniqueIp() },
            })
          ).status,
      },
      {
        name: 'unknown path',
        expected: 404,
        send: async (i) =>
          (
            await fetch(`${web.url}/no-such-${tag()}/${i}`, {
              redirect: 'manual',
              headers: { 'X-Forwarded-For': uniqueIp() },
            })
          ).status,
      },
    ]
    for (const kind of kinds) expect(await kind.send(-1), kind.name).toBe(kind.expected)
    const metric = 'rankwell_http_requests_total'
    const before = await waitFor(async () => {
      const m = await scrape(host, port, token)
      return seriesOf(m.text, metric).length >= kinds.length ? m : null
    })
    const seriesBefore = seriesOf(before.text, metric)

    const statuses = await flood(5000, 16, (i) => kinds[i % kinds.length]!.send(i))
    kinds.forEach((kind, k) => {
      const got = statuses.filter((_, i) => i % kinds.length === k)
      expect(
        got.every((s) => s === kind.expected),
        `${kind.name}: ${[...new Set(got)].join(',')}`,
      ).toBe(true)
    })

    // Counted once each response has finished: wait until all 5,000 are in.
    const total = (text: string) =>
      seriesOf(text, metric).reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0)
    const after = await waitFor(async () => {
      const m = await scrape(host, port, token)
      return total(m.text) - total(before.text) >= 5000 ? m : null
    })
    const seriesAfter = seriesOf(after.text, metric)
    // Not one new series for 5,000 distinct paths, and the whole set stays small.
    expect(seriesAfter.length).toBe(seriesBefore.length)
    expect(seriesAfter.length).toBeLessThanOrEqual(20)
    expect(seriesOf(after.text, 'rankwell_http_request_duration_seconds_count').length).toBe(seriesAfter.length)
    const labels = seriesAfter.join('\n')
    expect(labels).toContain('route="(refused)"')
    expect(labels).toContain('route="(not found)"')
    expect(labels).toContain('route="routes/blogpost.$id"')
    expect(labels).toContain('route="routes/api.blogpost.$id"')
    expect(after.text).not.toMatch(/refused-|too-large-|no-such-/)
    // The request log says the same.
    expect(web.output()).toMatch(/"route":"\(refused\)"/)
    expect(web.output()).toMatch(/"route":"routes\/blogpost\.\$id"/)
  }, 240_000)

  it('a bounded method and status: an unknown method is OTHER', async () => {
    const port = await freePort()
    const token = `metrics-${tag()}`
    const web = await startWeb({ METRICS_PORT: String(port), METRICS_TOKEN: token })
    processes.push(web)
    for (let i = 0; i < 5; i++) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${web.url}/pricing`, { method: `PROPFIND` }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end()
      })
      expect(status).toBeGreaterThanOrEqual(400)
    }
    const m = await waitFor(async () => {
      const res = await scrape('127.0.0.1', port, token)
      return res.text.includes('method="OTHER"') ? res : null
    })
    expect(m.text).not.toContain('PROPFIND')
  })

  it('a production web process or worker without METRICS_TOKEN does not start (unless metrics are off), naming it', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      METRICS_TOKEN: '',
      PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
    }
    const [web, worker] = await Promise.all([
      runUntilExit(webArgs(env), env),
      runUntilExit(['--enable-source-maps', workerEntry(env)], env),
    ])
    const line = (name: string) =>
      `Rankwell ${name} cannot start: METRICS_TOKEN: required in production (a long random string that /metrics asks of its scraper), unless METRICS_PORT and WORKER_METRICS_PORT are 0`
    expect(web.code).toBe(1)
    expect(web.output.trim()).toBe(line('web'))
    expect(worker.code).toBe(1)
    expect(worker.output.trim()).toBe(line('worker'))
    // Metrics off: no token needed.
    const off = await startWeb({ METRICS_TOKEN: '', METRICS_PORT: '0', WORKER_METRICS_PORT: '0' })
    processes.push(off)
    expect((await fetch(`${off.url}/healthz`)).status).toBe(200)
  }, 120_000)
})

describe('cookie-authenticated writes and cookie names', () => {
  it('refuses a cookie-authenticated write with Origin: null (no Sec-Fetch-Site), on /api and on pages', async () => {
    const user = await createTestUser({ name: 'Before Null' })
    const put = (headers: Record<string, string>) =>
      fetch(`${appUrl()}/api/user/update`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp(), ...headers },
        body: JSON.stringify({ name: 'After Null', marketSegment: 'Indie founders', productService: 'Newsletters' }),
      })
    const refused = await put({ Cookie: user.cookie, Origin: 'null' })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ message: 'Cross-site request refused.' })
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row!.name).toBe('Before Null')

    const page = await fetch(`${appUrl()}/profile`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: user.cookie,
        Origin: 'null',
        'X-Forwarded-For': uniqueIp(),
      },
      body: new URLSearchParams({ intent: 'rankings-digest', digest: 'on' }),
    })
    expect(page.status).toBe(403)

    // The same write from our own site, and a Bearer-token call with Origin: null, go through.
    expect((await put({ Cookie: user.cookie, Origin: appUrl() })).status).toBe(200)
    const bearer = await put({ Authorization: `Bearer ${user.token}`, Origin: 'null' })
    expect(bearer.status).toBe(200)
  })

  it('session, device and toast cookies are __Host- cookies: Secure, Path=/, no Domain', async () => {
    const user = await createTestUser()
    const res = await fetch(`${appUrl()}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: appUrl(),
        'X-Forwarded-For': uniqueIp(),
      },
      body: new URLSearchParams({ email: user.email, password: user.password }),
    })
    expect(res.status).toBe(302)
    const cookies = res.headers.getSetCookie()
    for (const name of ['rw_session', 'rw_device', 'rw_toast']) {
      const line = cookies.find((c) => c.startsWith(`__Host-${name}=`))
      expect(line, `${name} in ${cookies.join(' | ')}`).toBeTruthy()
      const attributes = line!.split(';').map((a) => a.trim().toLowerCase())
      expect(attributes).toContain('secure')
      expect(attributes).toContain('path=/')
      expect(attributes).toContain('httponly')
      expect(attributes.some((a) => a.startsWith('domain='))).toBe(false)
    }
    expect(cookieName('rw_session')).toBe('__Host-rw_session')
    // The session it set works.
    const session = cookies.find((c) => c.startsWith('__Host-rw_session='))!.split(';')[0]!
    const me = await fetch(`${appUrl()}/api/user`, { headers: { Cookie: session } })
    expect(me.status).toBe(200)
  })
})

describe('Sentry scrubbing', () => {
  it('sends none of a webhook secret, a JWT, a personal API key, a Google access token or refresh token, wherever they appear', async () => {
    const b64 = (n: number) => crypto.randomBytes(n).toString('base64')
    const b64url = (n: number) => crypto.randomBytes(n).toString('base64url')
    const jwtPart = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const secrets = {
      webhook: `whsec_${b64(24)}+/${b64(6)}`,
      jwt: `${jwtPart({ alg: 'HS256', typ: 'JWT' })}.${jwtPart({ sub: tag(), exp: 2_000_000_000 })}.${b64url(32)}`,
      access: `ya29.a0${b64url(90)}`,
      refresh: `1//0g${b64url(60)}`,
      apiKey: formatApiKey(crypto.randomBytes(32)),
    }
    const marker = `scrub-${tag()}`
    const sentry = process.env.FAKE_SENTRY_URL!
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'tests/setup/sentry-secrets.ts'], {
        env: {
          ...process.env,
          SENTRY_DSN: process.env.FAKE_SENTRY_DSN!,
          SENTRY_SECRETS: JSON.stringify(Object.values(secrets)),
          SENTRY_MARKER: marker,
        },
        stdio: 'inherit',
      })
      child.once('exit', resolve)
    })
    expect(code).toBe(0)
    type Event = { tags?: Record<string, string>; message?: unknown; exception?: unknown; breadcrumbs?: unknown }
    const events = await waitFor(async () => {
      const res = await fetch(`${sentry}/__control/events`)
      const mine = ((await res.json()) as { events: Event[] }).events.filter((e) => e.tags?.marker === marker)
      return mine.length >= 2 ? mine : null
    })
    // The events arrived, with their messages (scrubbed) and breadcrumbs.
    const sent = JSON.stringify(events)
    expect(sent).toContain('The upstream refused')
    expect(sent).toContain('Upstream answered with')
    expect(sent).toContain('[Filtered]')
    for (const [kind, secret] of Object.entries(secrets)) {
      expect(sent, kind).not.toContain(secret)
      // Nor any long piece of it (a secret cut at a + or / would leave its tail), raw or URL-encoded.
      for (const piece of secret.split(/[+/.=]/).filter((p) => p.length >= 8)) {
        expect(sent, `${kind}: ${piece}`).not.toContain(piece)
      }
    }
  }, 60_000)
})

describe('one private-network switch per kind of outgoing request', () => {
  it('the webhook switch alone lets neither a research fetch nor a CMS call reach loopback', async () => {
    const web = await startWeb({
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      RESEARCH_ALLOW_PRIVATE_NETWORKS: 'false',
      CMS_ALLOW_PRIVATE_NETWORKS: 'false',
    })
    processes.push(web)
    const user = await createTestUser()
    const asUser = (path: string, init: { method: string; json: unknown }) =>
      fetch(`${web.url}${path}`, {
        method: init.method,
        headers: {
          Authorization: `Bearer ${user.token}`,
          'Content-Type': 'application/json',
          'X-Forwarded-For': uniqueIp(),
        },
        body: JSON.stringify(init.json),
      })

    // Research: a writing sample on the customer's site (the loopback fake) is not read.
    const site = process.env.FAKE_SITE_URL!.replace(/\/+$/, '')
    const path = `/blog/switch-${tag()}`
    await webControl('site').page({
      path,
      html: `<html><body><main><p>${'A page the guard must not let the app read. '.repeat(6)}</p></main></body></html>`,
    })
    const settings = {
      productService: 'Newsletter software',
      marketSegment: 'Solo founders',
      website: site,
      valueProposition: '',
      ctaText: '',
      ctaUrl: '',
      tone: 'friendly',
      toneNotes: '',
      avoid: '',
      writingSample: '',
      writingSampleUrl: `${site}${path}`,
    }
    const research = await asUser('/api/settings/content', { method: 'PUT', json: settings })
    expect(research.status).toBe(400)
    expect(JSON.stringify(await research.json())).toContain(CONTENT_SETTINGS_MESSAGES.sampleUnreadable)
    expect(await fakeControl('site').requests({ method: 'GET', path })).toHaveLength(0)

    // CMS: a WordPress site on loopback is refused before any request reaches it.
    const hits: string[] = []
    const wordpress = http.createServer((req, res) => {
      hits.push(req.url ?? '')
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => wordpress.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => wordpress.close(() => resolve())))
    const cms = await asUser('/api/destinations', {
      method: 'POST',
      json: {
        kind: 'wordpress',
        siteUrl: `http://127.0.0.1:${(wordpress.address() as AddressInfo).port}`,
        username: 'editor',
        appPassword: 'abcd efgh ijkl mnop qrst uvwx',
      },
    })
    expect(cms.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(await cms.json())).toContain('Rankwell only connects to public addresses')
    expect(hits).toHaveLength(0)

    // With its own switch on (the run's app), the same research fetch reads the page.
    const allowed = await fetch(`${appUrl()}/api/settings/content`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(settings),
    })
    expect(allowed.status).toBe(200)
    expect(await fakeControl('site').requests({ method: 'GET', path })).toHaveLength(1)
    // Each process names the switches on at start.
    expect(web.output()).toContain('WEBHOOK_ALLOW_PRIVATE_NETWORKS on in production')
    expect(web.output()).not.toContain('RESEARCH_ALLOW_PRIVATE_NETWORKS')
  }, 120_000)
})
