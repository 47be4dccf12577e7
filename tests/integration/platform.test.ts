import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { api, appUrl, createTestUser, waitFor } from '#tests/setup/app'
import { freePort, startWeb } from '#tests/setup/processes'

// The extra web processes below have Redis or Postgres down, so /healthz fails on purpose: they are ready once / answers.
const extra: Array<{ stop: () => Promise<unknown> }> = []
afterAll(async () => {
  await Promise.all(extra.map((e) => e.stop()))
})

describe('health check', () => {
  it('answers 200 when Postgres and Redis are up', async () => {
    const res = await api('/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ ok: true, postgres: 'up', redis: 'up' })
  })

  it('answers 503 when Redis is down', async () => {
    const web = await startWeb({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, { ready: '/' })
    extra.push(web)
    const res = await fetch(`${web.url}/healthz`)
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ ok: false, postgres: 'up', redis: 'down' })
  })

  it('answers 503 when Postgres is down', async () => {
    const url = new URL(process.env.DATABASE_URL!)
    url.port = String(await freePort())
    const web = await startWeb({ DATABASE_URL: url.toString() }, { ready: '/' })
    extra.push(web)
    const res = await fetch(`${web.url}/healthz`)
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ ok: false, postgres: 'down', redis: 'up' })
  })
})

describe('pages and headers', () => {
  it('serves a page with security headers and a CSP nonce on its scripts', async () => {
    const res = await fetch(`${appUrl()}/forgot-password`)
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'self'")
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    const html = await res.text()
    expect(html).toContain(`nonce="${nonce}"`)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('x-powered-by')).toBeNull()
  })

  it('answers unknown URLs with a 404 page', async () => {
    const res = await fetch(`${appUrl()}/no-such-page-here`)
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Page not found')
  })

  it('refuses a cookie-authenticated write from another site', async () => {
    const user = await createTestUser()
    const res = await fetch(`${appUrl()}/api/system/ping`, {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: 'https://evil.example' },
    })
    expect(res.status).toBe(403)
  })
})

describe('the job path: web → Redis → worker → Postgres', () => {
  it('processes a job enqueued by the web process in the worker process', async () => {
    const user = await createTestUser()
    const res = await api('/api/system/ping', { method: 'POST', as: user })
    expect(res.status).toBe(202)
    const id = res.body.id as string
    const row = await waitFor(async () => {
      const [ping] = await db.select().from(schema.jobPings).where(eq(schema.jobPings.id, id))
      return ping?.processedAt ? ping : null
    })
    expect(row.processedBy).toMatch(/-\d+$/)
    const read = await api(`/api/system/ping?id=${id}`, { as: user })
    expect(read.status).toBe(200)
    expect(read.body.processedAt).toBeTruthy()
  })

  it('refuses the job API without authentication', async () => {
    const res = await api('/api/system/ping', { method: 'POST' })
    expect(res.status).toBe(401)
  })
})
