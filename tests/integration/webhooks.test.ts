import dns from 'node:dns'
import os from 'node:os'
import { Queue } from 'bullmq'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { blockedAddressReason } from '#app/platform/security/ssrf.server'
import { testEventBody } from '#app/features/autopilot/settings/webhooks.server'
import { generateWebhookSecret, randomMessageId } from '#app/platform/webhooks/signing.server'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import { startWeb, startWorker } from '#tests/setup/processes'
import { createTestUser, waitFor, type TestUser } from '#tests/setup/app'

/**
 * Webhook delivery against processes of our own: a web and a worker with fast retries (base 200 ms, endpoint
 * disabled after 8 s of failures, 1.5 s request timeout) on a queue prefix of their own, and a worker with the
 * SSRF guard on (WEBHOOK_ALLOW_PRIVATE_NETWORKS=false), fed directly through its queue.
 */
const runId = Date.now().toString(36)
const FAST = {
  QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}-wh-${runId}`,
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_DISABLE_AFTER_MS: '8000',
  WEBHOOK_TIMEOUT_MS: '1500',
}
const GUARDED = { QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}-ssrf-${runId}`, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }

let receiver: Receiver
let web: { url: string; stop: () => Promise<void> }
const processes: Array<{ stop: () => Promise<void> }> = []
let guardedQueue: Queue

beforeAll(async () => {
  receiver = await startReceiver()
  const [w, fastWorker, guardedWorker] = await Promise.all([startWeb(FAST), startWorker(FAST), startWorker(GUARDED)])
  web = w
  processes.push(w, fastWorker, guardedWorker)
  guardedQueue = new Queue('webhook-delivery', {
    connection: { url: process.env.REDIS_URL },
    prefix: GUARDED.QUEUE_PREFIX,
  })
}, 240_000)

afterAll(async () => {
  await guardedQueue?.close()
  await Promise.all(processes.map((p) => p.stop()))
  await receiver?.close()
})

async function userWithWebhook(path: string) {
  const user = await createTestUser()
  const secret = generateWebhookSecret()
  await db
    .update(schema.autopilotSettings)
    .set({ webhookUrl: receiver.url(path), webhookSecret: secret })
    .where(eq(schema.autopilotSettings.userId, user.id))
  return { user, secret }
}

/** A form post to /autopilot on our web process, as the signed-in browser would send it. */
async function pageAction(user: TestUser, fields: Record<string, string>) {
  const res = await fetch(`${web.url}/autopilot`, {
    method: 'POST',
    headers: { Cookie: user.cookie, Origin: web.url, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  })
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

async function deliveriesOf(userId: string) {
  return db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.userId, userId))
}

async function attemptsOf(deliveryId: string) {
  const rows = await db.select().from(schema.webhookAttempts).where(eq(schema.webhookAttempts.deliveryId, deliveryId))
  return rows.sort((a, b) => a.attemptedAt.getTime() - b.attemptedAt.getTime())
}

async function settingsOf(userId: string) {
  const [row] = await db.select().from(schema.autopilotSettings).where(eq(schema.autopilotSettings.userId, userId))
  return row!
}

describe('webhook delivery', () => {
  it('sends a signed test event that the official standardwebhooks library verifies', async () => {
    const path = `/test-event-${runId}`
    const { user, secret } = await userWithWebhook(path)
    const res = await pageAction(user, { intent: 'test-event' })
    expect(res.status).toBe(302)
    const [req] = await receiver.waitForRequests(path, 1)
    expect(new Webhook(secret).verify(req!.body, req!.headers)).toMatchObject({ type: 'test' })
    expect(req!.headers['webhook-id']).toMatch(/^msg_/)
    expect(Math.abs(Number(req!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30)
    expect(req!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
  })

  it('retries 429, 5xx and timeouts with the same webhook-id and body, honouring Retry-After', async () => {
    const path = `/retry-${runId}`
    const { user, secret } = await userWithWebhook(path)
    receiver.script(path, [
      { status: 429, headers: { 'Retry-After': '1' } },
      { status: 503, body: 'busy' },
      { status: 200, hangMs: 3000 },
    ])
    expect((await pageAction(user, { intent: 'test-event' })).status).toBe(302)
    const requests = await receiver.waitForRequests(path, 4, 30_000)
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect(new Set(requests.map((r) => r.body)).size).toBe(1)
    for (const r of requests) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow()
    // Retry-After: 1 is honoured although the base delay is 200 ms.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(900)

    const delivery = await waitFor(async () => {
      const [d] = await deliveriesOf(user.id)
      return d?.status === 'delivered' ? d : null
    })
    expect(delivery.attempts).toBe(4)
    const attempts = await attemptsOf(delivery.id)
    expect(attempts.map((a) => a.statusCode)).toEqual([429, 503, null, 200])
    expect(attempts[2]!.error).toMatch(/Timed out/)
    expect(attempts[1]!.error).toContain('HTTP 503')
    expect((await settingsOf(user.id)).webhookFailingSince).toBeNull()

    // The screen lists the delivery; redelivering sends the same message again.
    const page = await fetch(`${web.url}/autopilot`, { headers: { Cookie: user.cookie } })
    const html = await page.text()
    expect(html).not.toContain('Recent deliveries') // Auto Pilot is off: no webhook section
    await db.update(schema.autopilotSettings).set({ enabled: true }).where(eq(schema.autopilotSettings.userId, user.id))
    const onPage = await (await fetch(`${web.url}/autopilot`, { headers: { Cookie: user.cookie } })).text()
    expect(onPage).toContain('Recent deliveries')
    expect(onPage).toContain('Redeliver')
    expect((await pageAction(user, { intent: 'redeliver', deliveryId: delivery.id })).status).toBe(302)
    const again = await receiver.waitForRequests(path, 5)
    expect(again[4]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id'])
    expect(again[4]!.body).toBe(requests[0]!.body)
    await db
      .update(schema.autopilotSettings)
      .set({ enabled: false })
      .where(eq(schema.autopilotSettings.userId, user.id))
  })

  it('does not retry other 4xx answers', async () => {
    const path = `/bad-request-${runId}`
    const { user } = await userWithWebhook(path)
    receiver.script(path, [{ status: 400, body: 'nope' }])
    await pageAction(user, { intent: 'test-event' })
    await receiver.waitForRequests(path, 1)
    const delivery = await waitFor(async () => {
      const [d] = await deliveriesOf(user.id)
      return d?.status === 'failed' ? d : null
    })
    await new Promise((r) => setTimeout(r, 2000))
    expect(receiver.requests(path)).toHaveLength(1)
    expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: 400 })
    expect(delivery.lastError).toContain('HTTP 400')
    expect((await settingsOf(user.id)).webhookDisabledAt).toBeNull()
  })

  it('does not follow redirects, not even to a metadata address', async () => {
    const path = `/redirect-${runId}`
    const { user } = await userWithWebhook(path)
    receiver.script(path, [{ status: 302, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } }])
    await pageAction(user, { intent: 'test-event' })
    const delivery = await waitFor(async () => {
      const [d] = await deliveriesOf(user.id)
      return d?.status === 'failed' ? d : null
    })
    expect(receiver.requests(path)).toHaveLength(1)
    expect(delivery.lastStatusCode).toBe(302)
    expect(delivery.lastError).toMatch(/redirect .*169\.254\.169\.254.* not followed/)
  })

  it('disables the endpoint after failing for the whole window, shows why, and re-enables on saving the URL', async () => {
    const path = `/always-down-${runId}`
    const { user } = await userWithWebhook(path)
    await db.update(schema.autopilotSettings).set({ enabled: true }).where(eq(schema.autopilotSettings.userId, user.id))
    receiver.script(
      path,
      Array.from({ length: 50 }, () => ({ status: 500, body: 'down' })),
    )
    await pageAction(user, { intent: 'test-event' })
    const settings = await waitFor(
      async () => {
        const s = await settingsOf(user.id)
        return s.webhookDisabledAt ? s : null
      },
      { timeout: 30_000 },
    )
    expect(settings.webhookDisabledReason).toContain('HTTP 500')
    const [delivery] = await deliveriesOf(user.id)
    expect(delivery!.status).toBe('failed')
    const attempts = await attemptsOf(delivery!.id)
    expect(attempts.length).toBeGreaterThanOrEqual(3)
    expect(attempts.at(-1)!.attemptedAt.getTime() - attempts[0]!.attemptedAt.getTime()).toBeGreaterThanOrEqual(7500)
    const count = receiver.requests(path).length
    await new Promise((r) => setTimeout(r, 1500))
    expect(receiver.requests(path)).toHaveLength(count)

    const page = await (await fetch(`${web.url}/autopilot`, { headers: { Cookie: user.cookie } })).text()
    expect(page).toContain('Webhook deliveries are paused')
    expect(page).toContain('HTTP 500')
    expect(page).toContain('Re-enable webhook')

    // While disabled nothing is sent; saving the URL re-enables the endpoint.
    const refused = await pageAction(user, { intent: 'test-event' })
    expect(refused.status).toBe(400)
    expect(await deliveriesOf(user.id)).toHaveLength(1)
    const saved = await pageAction(user, { intent: 'save-webhook', webhookUrl: receiver.url(path) })
    expect(saved.status).toBe(302)
    const after = await settingsOf(user.id)
    expect(after.webhookDisabledAt).toBeNull()
    expect(after.webhookFailingSince).toBeNull()
    await db
      .update(schema.autopilotSettings)
      .set({ enabled: false })
      .where(eq(schema.autopilotSettings.userId, user.id))
  })
})

describe('webhook SSRF guard (private networks not allowed)', () => {
  /** A delivery of a test event to `url`, queued straight to the guarded worker. */
  async function deliverGuarded(url: string) {
    const user = await createTestUser()
    await db
      .update(schema.autopilotSettings)
      .set({ webhookUrl: url, webhookSecret: generateWebhookSecret() })
      .where(eq(schema.autopilotSettings.userId, user.id))
    const [delivery] = await db
      .insert(schema.webhookDeliveries)
      .values({ userId: user.id, messageId: randomMessageId(), eventType: 'test', url, body: testEventBody() })
      .returning()
    await guardedQueue.add('deliver-webhook', { deliveryId: delivery!.id }, { jobId: `webhook-${delivery!.id}-0` })
    return waitFor(async () => {
      const [d] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, delivery!.id))
      return d?.status === 'failed' ? d : null
    })
  }

  // The owner's delivery log gives a generic reason: never the address a name resolved to, nor our network's errors.
  const REFUSED = 'Refused: the webhook URL must point to a public internet address.'

  it.each([
    ['a loopback address', '/ssrf-loopback', (port: number) => `http://127.0.0.1:${port}/ssrf-loopback`],
    ['a private 10.x address', null, () => 'http://10.0.0.1/hook'],
    ['the cloud metadata address', null, () => 'http://169.254.169.254/latest/meta-data/'],
    ['an IPv4-mapped IPv6 loopback', null, (port: number) => `http://[::ffff:127.0.0.1]:${port}/x`],
    ['localhost by name', null, (port: number) => `http://localhost:${port}/x`],
  ])('refuses %s at delivery time and never connects', async (_label, path, url) => {
    const delivery = await deliverGuarded(url(receiver.port))
    expect(delivery.lastError).toBe(REFUSED)
    expect(delivery.lastStatusCode).toBeNull()
    expect(delivery.attempts).toBe(1)
    if (path) expect(receiver.requests(path)).toHaveLength(0)
  })

  it('refuses a host name that resolves to a private address', async () => {
    // This machine's own name resolves to a loopback or private address (checked here first).
    const candidates = [os.hostname(), 'vm', 'runsc']
    let host: string | null = null
    for (const name of candidates) {
      const addresses = await dns.promises.lookup(name, { all: true }).catch(() => [])
      if (addresses.length > 0 && addresses.every((a) => blockedAddressReason(a.address))) {
        host = name
        break
      }
    }
    expect(host, 'a host name of this machine that resolves to a private address').toBeTruthy()
    const path = '/ssrf-hostname'
    const delivery = await deliverGuarded(`http://${host}:${receiver.port}${path}`)
    expect(delivery.lastError).toBe(REFUSED)
    expect(delivery.lastError).not.toMatch(/resolves|127\.|10\.|::1/)
    expect(receiver.requests(path)).toHaveLength(0)
  })
})
