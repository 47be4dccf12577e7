/**
 * Typed helpers for tests (possibly in another process) to steer the fakes over
 * their control APIs. Base URLs come from the env vars set by startFakes()/run.ts
 * (FAKE_OPENAI_URL, FAKE_DATAFORSEO_URL, FAKE_GOOGLE_ADS_URL, FAKE_STRIPE_URL,
 * FAKE_GOOGLE_OAUTH_URL, FAKE_SMTP_CONTROL_URL); pass `env` to override.
 */
import type { EnqueueSpec, RecordedRequest } from './http'
import type { StoredMessage } from './smtp'
import type { Delivery } from './stripe'

export type ControlledFake = 'openai' | 'dataforseo' | 'googleAds' | 'stripe' | 'googleOAuth' | 'web' | 'site'

type Env = Record<string, string | undefined>

const ENV_VARS: Record<ControlledFake, string> = {
  openai: 'FAKE_OPENAI_URL',
  dataforseo: 'FAKE_DATAFORSEO_URL',
  googleAds: 'FAKE_GOOGLE_ADS_URL',
  stripe: 'FAKE_STRIPE_URL',
  googleOAuth: 'FAKE_GOOGLE_OAUTH_URL',
  web: 'FAKE_WEB_URL',
  site: 'FAKE_SITE_URL',
}

function baseUrl(name: ControlledFake, env: Env): string {
  const v = env[ENV_VARS[name]]
  if (!v) throw new Error(`${ENV_VARS[name]} is not set; start the fakes (tests/fakes/run.ts) first`)
  return v.replace(/\/+$/, '')
}

async function call<T>(url: string, method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status}: ${text}`)
  return (text ? JSON.parse(text) : undefined) as T
}

export interface FakeControl {
  readonly url: string
  reset(): Promise<void>
  enqueue(spec: EnqueueSpec | EnqueueSpec[]): Promise<void>
  /** The requests the fake recorded (it keeps the last 500); `since` (from `mark()`): only those after that mark. */
  requests(filter?: { method?: string; path?: string; since?: number }): Promise<RecordedRequest[]>
  /** Where the fake's request log is now: `requests({ since })` then lists only what came after (a test's own span). */
  mark(): Promise<number>
  latency(ms: number): Promise<void>
  /** Hold every request unanswered for `ms` milliseconds (0 ends it): a provider that hangs. */
  stall(ms: number): Promise<void>
}

export function fakeControl(name: ControlledFake, env: Env = process.env): FakeControl {
  const url = baseUrl(name, env)
  return {
    url,
    reset: async () => {
      await call(`${url}/__control/reset`, 'POST', {})
    },
    enqueue: async (spec) => {
      await call(`${url}/__control/enqueue`, 'POST', spec)
    },
    requests: async (filter) => {
      const query = filter?.since ? `?since=${filter.since}` : ''
      const { requests } = await call<{ requests: RecordedRequest[] }>(`${url}/__control/requests${query}`, 'GET')
      return requests.filter(
        (r) =>
          (!filter?.method || r.method === filter.method.toUpperCase()) &&
          (!filter?.path || r.path.includes(filter.path)),
      )
    },
    mark: async () => (await call<{ seq: number }>(`${url}/__control/mark`, 'GET')).seq,
    latency: async (ms) => {
      await call(`${url}/__control/latency`, 'POST', { ms })
    },
    stall: async (ms) => {
      await call(`${url}/__control/stall`, 'POST', { ms })
    },
  }
}

/** Number of chat completion calls the OpenAI fake received since the last reset. */
export async function countChatCompletions(env: Env = process.env): Promise<number> {
  const reqs = await fakeControl('openai', env).requests({ method: 'POST', path: '/chat/completions' })
  return reqs.length
}

// --- SMTP -------------------------------------------------------------------

function smtpControlUrl(env: Env): string {
  const v = env.FAKE_SMTP_CONTROL_URL
  if (!v) throw new Error('FAKE_SMTP_CONTROL_URL is not set; start the fakes first')
  return v.replace(/\/+$/, '')
}

export async function smtpMessages(to?: string, env: Env = process.env): Promise<StoredMessage[]> {
  const q = to ? `?to=${encodeURIComponent(to)}` : ''
  const { messages } = await call<{ messages: StoredMessage[] }>(`${smtpControlUrl(env)}/messages${q}`, 'GET')
  return messages
}

export async function clearSmtp(env: Env = process.env): Promise<void> {
  await call(`${smtpControlUrl(env)}/messages`, 'DELETE')
}

/** Polls until a message (optionally to `to` and matching `predicate`) arrives. */
export async function waitForSmtpMessage(
  opts: { to?: string; predicate?: (m: StoredMessage) => boolean; timeoutMs?: number } = {},
  env: Env = process.env,
): Promise<StoredMessage> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000)
  for (;;) {
    const found = (await smtpMessages(opts.to, env)).filter(opts.predicate ?? (() => true))
    if (found.length > 0) return found[found.length - 1]
    if (Date.now() > deadline)
      throw new Error(`no SMTP message${opts.to ? ` to ${opts.to}` : ''} within ${opts.timeoutMs ?? 10_000}ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

// --- Stripe extras ------------------------------------------------------------

export interface StripeEventRecord {
  id: string
  type: string
  created: number
  deliveries: Array<{ at: string; status: number | null; error?: string }>
  event: {
    id: string
    type: string
    data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> }
  } & Record<string, unknown>
}

export function stripeControl(env: Env = process.env) {
  const url = baseUrl('stripe', env)
  return {
    ...fakeControl('stripe', env),
    setWebhook: (webhookUrl: string | null, secret?: string) =>
      call<{ ok: true }>(`${url}/__control/webhook`, 'POST', { url: webhookUrl, ...(secret ? { secret } : {}) }),
    renew: (subscriptionId: string) =>
      call<{ subscription: Record<string, unknown>; deliveries: Delivery[] }>(
        `${url}/__control/subscriptions/${encodeURIComponent(subscriptionId)}/renew`,
        'POST',
        {},
      ),
    paymentFailed: (subscriptionId: string) =>
      call<{ subscription: Record<string, unknown>; deliveries: Delivery[] }>(
        `${url}/__control/subscriptions/${encodeURIComponent(subscriptionId)}/payment_failed`,
        'POST',
        {},
      ),
    giveUp: (subscriptionId: string) =>
      call<{ subscription: Record<string, unknown>; deliveries: Delivery[] }>(
        `${url}/__control/subscriptions/${encodeURIComponent(subscriptionId)}/give_up`,
        'POST',
        {},
      ),
    /** Holds every Stripe API request unanswered (on) or answers again (off); webhooks still go out. */
    hang: (on: boolean) => call<{ ok: true; hanging: boolean }>(`${url}/__control/hang`, 'POST', { on }),
    completeCheckout: (sessionId: string, details: { email?: string; name?: string } = {}) =>
      call<{ session: Record<string, unknown>; deliveries: Delivery[] }>(
        `${url}/__control/checkout/${encodeURIComponent(sessionId)}/complete`,
        'POST',
        details,
      ),
    sendEvent: (type: string, object: Record<string, unknown>, previousAttributes?: Record<string, unknown>) =>
      call<Delivery>(`${url}/__control/send-event`, 'POST', { type, object, previous_attributes: previousAttributes }),
    events: async (type?: string) => {
      const { events } = await call<{ events: StripeEventRecord[] }>(`${url}/__control/events`, 'GET')
      return type ? events.filter((e) => e.type === type) : events
    },
    resend: (eventId: string) => call<Delivery>(`${url}/__control/resend/${encodeURIComponent(eventId)}`, 'POST', {}),
    objects: () =>
      call<{
        customers: Array<Record<string, unknown>>
        checkout_sessions: Array<Record<string, unknown>>
        subscriptions: Array<Record<string, unknown>>
        invoices: Array<Record<string, unknown>>
        invoice_payments: Array<Record<string, unknown>>
        refunds: Array<Record<string, unknown>>
        prices: Array<Record<string, unknown>>
      }>(`${url}/__control/objects`, 'GET'),
  }
}

// --- DataForSEO SERP extras -----------------------------------------------------

export function serpControl(env: Env = process.env) {
  const url = baseUrl('dataforseo', env)
  return {
    ...fakeControl('dataforseo', env),
    /** Puts `url` at organic `position` for `keyword` (every market) until moved; `position: null` removes it. */
    place: (p: {
      keyword: string
      url: string
      position: number | null
      domain?: string
      title?: string
      description?: string
    }) => call<{ ok: true }>(`${url}/__control/serp/place`, 'POST', p),
    clearPlacements: () => call<{ ok: true }>(`${url}/__control/serp/place`, 'DELETE'),
    /** The top 10 of every SERP point at pages of this server (the web fake); null restores example domains. */
    pages: (baseUrl: string | null) => call<{ ok: true }>(`${url}/__control/serp/pages`, 'POST', { baseUrl }),
    /** Extra latency of the SERP endpoint only. */
    latency: (ms: number) => call<{ ok: true }>(`${url}/__control/serp/latency`, 'POST', { ms }).then(() => undefined),
    /** The SERP endpoint fails: HTTP status (500…), 'timeout' (never answers) or 'junk' (200 with non-JSON). */
    fail: (kind: number | 'timeout' | 'junk', times = 10) =>
      call<{ ok: true }>(
        `${url}/__control/enqueue`,
        'POST',
        kind === 'timeout'
          ? { hang: true, path: '/serp/', times }
          : kind === 'junk'
            ? { status: 200, body: '<html>not json</html>', path: '/serp/', times }
            : { status: kind, path: '/serp/', times },
      ),
  }
}

// --- Web extras (competitor pages and a user's site) -------------------------------

export function webControl(name: 'web' | 'site' = 'web', env: Env = process.env) {
  const url = baseUrl(name, env)
  return {
    ...fakeControl(name, env),
    /** A fixed answer for one exact path (a hostile page, a 500, a slow page, a non-HTML answer). */
    page: (p: { path: string; status?: number; html?: string; contentType?: string; delayMs?: number }) =>
      call<{ ok: true }>(`${url}/__control/page`, 'POST', p),
    /** The sitemap lists these paths of this server. */
    sitemap: (paths: string[]) => call<{ ok: true }>(`${url}/__control/sitemap`, 'POST', { paths }),
    robots: (body: string) => call<{ ok: true }>(`${url}/__control/robots`, 'POST', { body }),
  }
}

// --- Google OAuth extras --------------------------------------------------------

export function googleOAuthControl(env: Env = process.env) {
  const url = baseUrl('googleOAuth', env)
  return {
    ...fakeControl('googleOAuth', env),
    setIdentity: (identity: {
      email?: string
      name?: string
      email_verified?: boolean
      sub?: string
      picture?: string
    }) => call<{ ok: true }>(`${url}/__control/identity`, 'POST', identity),
    setAuto: (decision: 'allow' | 'deny' | null) => call<{ ok: true }>(`${url}/__control/auto`, 'POST', { decision }),
    /** Adds a Search Console property (seen by every grant with a webmasters scope) and its daily rows. */
    searchConsoleSite: (
      siteUrl: string,
      rows: Array<{ date: string; page: string; query: string; clicks: number; impressions: number; position: number }>,
    ) => call<{ ok: true }>(`${url}/__control/search-console/site`, 'POST', { siteUrl, rows }),
    /** At most this many rows per searchanalytics.query page (0 restores the API's own 25,000). */
    searchConsolePageCap: (rows: number) =>
      call<{ ok: true }>(`${url}/__control/search-console/page-cap`, 'POST', { rows }),
    /** Revokes a token the way an account owner does (Google's revocation endpoint). */
    revoke: (token: string) =>
      call<Record<string, never>>(`${url}/revoke?token=${encodeURIComponent(token)}`, 'POST', {}),
    /** Every call of /revoke (by the app or by `revoke`): the token sent and whether it ended a live grant. */
    revocations: async () =>
      (
        await call<{ revocations: Array<{ token: string; revoked: boolean; at: string }> }>(
          `${url}/__control/revocations`,
          'GET',
        )
      ).revocations,
  }
}

/** Resets every fake whose URL is present in env (and clears SMTP). */
export async function resetAllFakes(env: Env = process.env): Promise<void> {
  const names = (Object.keys(ENV_VARS) as ControlledFake[]).filter((n) => env[ENV_VARS[n]])
  await Promise.all(names.map((n) => fakeControl(n, env).reset()))
  if (env.FAKE_SMTP_CONTROL_URL) await clearSmtp(env)
}
