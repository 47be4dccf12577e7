/**
 * Issue 33, 'Credentials tied to their site' and 'Settings that cannot be half there': a stored secret is sent only to
 * the site it was entered for, site addresses are https (http only for loopback on a loopback server), the webhook's
 * signing secret is encrypted at rest, a production process without ENCRYPTION_KEY does not start, and no screen
 * names a setting.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { decryptSecret } from '#app/platform/security/crypto.server'
import { generateWebhookSecret } from '#app/platform/webhooks/signing.server'
import { api, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import {
  freePort,
  runUntilExit,
  startWeb,
  startWorker,
  type WebProcess,
  type WorkerProcess,
} from '#tests/setup/processes'
import { webArgs, workerEntry } from '../../scripts/lib/app'
import { addGhost, makePost } from './publishing-helpers'

type Recorded = { method: string; path: string; authorization?: string }

/** A site that answers like WordPress (REST API root, users/me) and records every request it receives. */
async function recordingWordPress() {
  const requests: Recorded[] = []
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization })
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body))
    }
    const path = req.url ?? '/'
    if (path === '/') return send(200, {}, { Link: '</wp-json/>; rel="https://api.w.org/"' })
    if (path === '/wp-json/')
      return send(200, { name: 'Recorder', namespaces: ['wp/v2'], authentication: { 'application-passwords': {} } })
    if (path.startsWith('/wp-json/wp/v2/users/me'))
      return req.headers.authorization
        ? send(200, { name: 'Editor', capabilities: { publish_posts: true } })
        : send(401, { code: 'rest_not_logged_in', message: 'You are not currently logged in.' })
    send(404, { code: 'rest_no_route', message: 'No route.' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    host: new URL(url).host,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
type Site = Awaited<ReturnType<typeof recordingWordPress>>

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
const PASSWORD = 'abcd efgh ijkl mnop qrst uvwx'
const PASSWORD2 = 'zzzz yyyy xxxx wwww vvvv uuuu'

async function destinationRow(id: string) {
  const [row] = await db.select().from(schema.destinations).where(eq(schema.destinations.id, id))
  return row!
}

const sites: Site[] = []
const processes: Array<WebProcess | WorkerProcess> = []
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()))
  await Promise.all(sites.map((s) => s.close()))
})

describe('a stored secret goes only to the site it was entered for', () => {
  let a: Site
  let b: Site
  let user: TestUser
  let id: string
  const wordpress = (site: Site, extra: Record<string, unknown> = {}) => ({
    kind: 'wordpress',
    siteUrl: site.url,
    username: 'editor',
    ...extra,
  })
  beforeAll(async () => {
    a = await recordingWordPress()
    b = await recordingWordPress()
    sites.push(a, b)
    user = await createTestUser()
    const res = await api('/api/destinations', {
      method: 'POST',
      as: user,
      json: wordpress(a, { appPassword: PASSWORD }),
    })
    expect(res.status, res.text).toBe(201)
    id = (res.body.destination as { id: string }).id
  })

  it('saves the site the secret was tested on', async () => {
    expect((await destinationRow(id)).credentialsFor).toBe(`wordpress:http://${a.host}|editor`)
    expect(a.requests.some((r) => r.authorization === basic('editor', PASSWORD.replace(/\s+/g, '')))).toBe(true)
  })

  it('refuses a new site URL or user with the secret left blank, before any request', async () => {
    const [beforeA, beforeB] = [a.requests.length, b.requests.length]
    const moved = await api(`/api/destinations/${id}`, { method: 'PUT', as: user, json: wordpress(b) })
    expect(moved.status).toBe(400)
    expect(moved.body.errors).toEqual({
      appPassword: [`Enter the Application Password again: it was saved for editor on ${a.host}.`],
    })
    const otherUser = await api(`/api/destinations/${id}`, {
      method: 'PUT',
      as: user,
      json: wordpress(a, { username: 'admin' }),
    })
    expect(otherUser.status).toBe(400)
    expect(otherUser.body.errors).toEqual({
      appPassword: [`Enter the Application Password again: it was saved for editor on ${a.host}.`],
    })
    // The settings form (no JavaScript) shows the same message next to the secret field.
    const form = new URLSearchParams({ intent: 'save', id, ...wordpress(b), appPassword: '' } as Record<string, string>)
    const page = await api('/settings/publishing', { method: 'POST', as: user, auth: 'cookie', body: form })
    expect(page.status).toBe(400)
    expect(page.text).toContain(`Enter the Application Password again: it was saved for editor on ${a.host}.`)
    expect(b.requests.length).toBe(beforeB)
    expect(a.requests.length).toBe(beforeA)
    const row = await destinationRow(id)
    expect((row.config as { siteUrl: string }).siteUrl).toBe(a.url)
  })

  it('keeps the stored secret on the same site, and takes a new one for a new site', async () => {
    const same = await api(`/api/destinations/${id}`, { method: 'PUT', as: user, json: wordpress(a, { name: 'Blog' }) })
    expect(same.status, same.text).toBe(200)
    const beforeB = b.requests.length
    const moved = await api(`/api/destinations/${id}`, {
      method: 'PUT',
      as: user,
      json: wordpress(b, { appPassword: PASSWORD2 }),
    })
    expect(moved.status, moved.text).toBe(200)
    const sent = b.requests.slice(beforeB).map((r) => r.authorization)
    expect(sent).toContain(basic('editor', PASSWORD2.replace(/\s+/g, '')))
    expect(sent).not.toContain(basic('editor', PASSWORD.replace(/\s+/g, '')))
    const row = await destinationRow(id)
    expect(row.credentialsFor).toBe(`wordpress:http://${b.host}|editor`)
    expect(decryptSecret(row.credentials)).toBe(PASSWORD2.replace(/\s+/g, ''))
  })

  it('never builds a client whose secret belongs to another site: Test connection and publishing refuse without a request', async () => {
    // A configuration that points elsewhere than the secret's site (as a row changed behind the app's back).
    await db
      .update(schema.destinations)
      .set({ config: { ...((await destinationRow(id)).config as object), siteUrl: a.url } })
      .where(eq(schema.destinations.id, id))
    const [beforeA, beforeB] = [a.requests.length, b.requests.length]
    const tested = await api(`/api/destinations/${id}?test`, { method: 'POST', as: user })
    expect(tested.status).toBe(400)
    expect(tested.body.message).toBe(
      'The saved Application Password was entered for another site. Edit the destination and enter it again.',
    )
    const post = await makePost(user)
    const published = await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [id] },
    })
    expect(published.status, published.text).toBeLessThan(300)
    const failed = await waitFor(
      async () => {
        const [p] = await db.select().from(schema.publications).where(eq(schema.publications.postId, post.id))
        return p?.status === 'failed' ? p : null
      },
      { timeout: 30_000 },
    )
    expect(failed.lastError).toMatch(/entered for another site/)
    expect(a.requests.length).toBe(beforeA)
    expect(b.requests.length).toBe(beforeB)
  })

  it('treats a row saved before credentials_for as bound to its configuration (and records it on a test)', async () => {
    await db
      .update(schema.destinations)
      .set({ config: { ...((await destinationRow(id)).config as object), siteUrl: b.url }, credentialsFor: null })
      .where(eq(schema.destinations.id, id))
    const tested = await api(`/api/destinations/${id}?test`, { method: 'POST', as: user })
    expect(tested.status, tested.text).toBe(200)
    expect((await destinationRow(id)).credentialsFor).toBe(`wordpress:http://${b.host}|editor`)
    await db.update(schema.destinations).set({ credentialsFor: null }).where(eq(schema.destinations.id, id))
    const beforeA = a.requests.length
    const moved = await api(`/api/destinations/${id}`, { method: 'PUT', as: user, json: wordpress(a) })
    expect(moved.status).toBe(400)
    expect(moved.body.errors).toEqual({
      appPassword: [`Enter the Application Password again: it was saved for editor on ${b.host}.`],
    })
    expect(a.requests.length).toBe(beforeA)
  })

  it("a Ghost admin key is not sent to a new Admin API URL on 'Test connection and save'", async () => {
    const ghostUser = await createTestUser()
    const ghostId = await addGhost(ghostUser)
    const before = a.requests.length
    const res = await api(`/api/destinations/${ghostId}`, {
      method: 'PUT',
      as: ghostUser,
      json: { kind: 'ghost', adminUrl: a.url },
    })
    expect(res.status).toBe(400)
    expect(res.body.errors).toEqual({
      adminApiKey: [`Enter the Admin API key again: it was saved for ${new URL(process.env.FAKE_GHOST_URL!).host}.`],
    })
    expect(a.requests.length).toBe(before)
  })
})

describe('https only', () => {
  it('refuses an http site URL next to the field (API 400), before any request', async () => {
    const user = await createTestUser()
    const res = await api('/api/destinations', {
      method: 'POST',
      as: user,
      json: { kind: 'wordpress', siteUrl: 'http://blog.example.com', username: 'editor', appPassword: PASSWORD },
    })
    expect(res.status).toBe(400)
    expect(res.body.errors).toMatchObject({
      siteUrl: ['Site URL must start with https:// (the password or key must not travel unencrypted).'],
    })
  })

  it('refuses http even to a loopback site on a server served over https (production)', async () => {
    const site = await recordingWordPress()
    sites.push(site)
    const web = await startWeb({ APP_URL: 'https://rankwell.example.com' })
    processes.push(web)
    const user = await createTestUser()
    const res = await fetch(`${web.url}/api/destinations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'wordpress', siteUrl: site.url, username: 'editor', appPassword: PASSWORD }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      siteUrl: ['Site URL must start with https:// (the password or key must not travel unencrypted).'],
    })
    expect(site.requests).toEqual([])
  })
})

describe('the webhook signing secret at rest', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => receiver.close())

  it('is stored encrypted; the page shows the whsec_ secret and deliveries are signed with it', async () => {
    const user = await createTestUser()
    const saved = await api('/api/autopilot/integrations/webhook', {
      method: 'POST',
      as: user,
      json: { webhookUrl: receiver.url(`/signed/${user.id}`) },
    })
    expect(saved.status, saved.text).toBe(200)
    await db.update(schema.autopilotSettings).set({ enabled: true }).where(eq(schema.autopilotSettings.userId, user.id))
    const [settings] = await db
      .select()
      .from(schema.autopilotSettings)
      .where(eq(schema.autopilotSettings.userId, user.id))
    expect(settings!.webhookSecret).toMatch(/^v1\./)
    expect(settings!.webhookSecret).not.toContain('whsec_')

    const page = await api('/autopilot', { as: user, auth: 'cookie' })
    const input = /<input[^>]*id="webhook-secret"[^>]*>/.exec(page.text)?.[0] ?? ''
    const shown = /value="([^"]*)"/.exec(input)?.[1] ?? ''
    expect(shown).toMatch(/^whsec_/)
    expect(page.text).not.toContain(settings!.webhookSecret!)

    const post = await makePost(user)
    const res = await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: ['webhook'] },
    })
    expect(res.status, res.text).toBeLessThan(300)
    const [delivery] = await receiver.waitForRequests(`/signed/${user.id}`, 1, 60_000)
    const event = new Webhook(shown).verify(delivery!.body, delivery!.headers) as { type: string }
    expect(event.type).toBe('post.published')
  })

  it('plaintext secrets from before are encrypted at worker start, once, with two workers starting together', async () => {
    const user = await createTestUser()
    const plain = generateWebhookSecret()
    await db
      .update(schema.autopilotSettings)
      .set({ webhookUrl: receiver.url(`/old/${user.id}`), webhookSecret: plain })
      .where(eq(schema.autopilotSettings.userId, user.id))
    const prefix = `creds-${Date.now().toString(36)}`
    const workers = await Promise.all([
      startWorker({ QUEUE_PREFIX: `${prefix}-a` }),
      startWorker({ QUEUE_PREFIX: `${prefix}-b` }),
    ])
    processes.push(...workers)
    const stored = await waitFor(
      async () => {
        const [row] = await db
          .select()
          .from(schema.autopilotSettings)
          .where(eq(schema.autopilotSettings.userId, user.id))
        return row?.webhookSecret?.startsWith('v1.') ? row.webhookSecret : null
      },
      { timeout: 30_000 },
    )
    // Encrypted exactly once: it opens to the secret the user already has, not to another ciphertext.
    expect(decryptSecret(stored)).toBe(plain)
    await waitFor(async () => workers.every((w) => w.output().includes('webhook signing secrets encrypted at rest')), {
      timeout: 30_000,
    })
  })
})

describe('settings that cannot be half there', () => {
  it('the web process and the worker refuse to start in production without ENCRYPTION_KEY, naming it', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      ENCRYPTION_KEY: '',
      PORT: String(await freePort()),
      METRICS_PORT: '0',
      WORKER_METRICS_PORT: '0',
    }
    const [web, worker] = await Promise.all([
      runUntilExit(webArgs(env), env),
      runUntilExit(['--enable-source-maps', workerEntry(env)], env),
    ])
    expect(web.code).toBe(1)
    expect(web.output.trim()).toBe(
      'Rankwell web cannot start: ENCRYPTION_KEY: required in production (a long random string: it encrypts stored credentials)',
    )
    expect(worker.code).toBe(1)
    expect(worker.output.trim()).toBe(
      'Rankwell worker cannot start: ENCRYPTION_KEY: required in production (a long random string: it encrypts stored credentials)',
    )
  })

  it("no screen names a setting when a service is missing: the capability reads as this server's", async () => {
    const web = await startWeb(
      {
        DATAFORSEO_LOGIN: '',
        DATAFORSEO_PASSWORD: '',
        GOOGLE_CLIENT_ID: '',
        GOOGLE_CLIENT_SECRET: '',
        GOOGLE_ADS_DEVELOPER_TOKEN: '',
        OPENAI_API_KEY: '',
        SMTP_URL: '',
        STRIPE_SECRET_KEY: '',
      },
      { host: 'localhost' },
    )
    processes.push(web)
    const user = await createTestUser()
    const settingName =
      /\b(ENCRYPTION_KEY|SESSION_SECRET|OPENAI_[A-Z_]+|STRIPE_[A-Z_]+|SMTP_[A-Z_]+|DATAFORSEO_[A-Z_]+|GOOGLE_[A-Z_]+|S3_[A-Z_]+|UNSPLASH_[A-Z_]+|PEXELS_[A-Z_]+|DATABASE_URL|REDIS_URL)\b/
    for (const path of [
      '/rankings',
      '/settings/publishing',
      '/autopilot',
      '/keywords',
      '/blogposts',
      '/settings/content',
      '/pricing',
      '/profile',
      '/free-tools',
      '/free-keyword-research',
    ]) {
      const res = await fetch(`${web.url}${path}`, { headers: { Cookie: user.cookie }, redirect: 'manual' })
      // What a customer reads: the document without its scripts (the loader data's keys are not shown).
      const html = (await res.text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
      expect(html.match(settingName)?.[0], `${path} (${res.status})`).toBeUndefined()
    }
    const rankings = await fetch(`${web.url}/rankings`, { headers: { Cookie: user.cookie } })
    const text = await rankings.text()
    expect(text).toContain('Connecting Google Search Console is not available on this workspace yet.')
  })
})
