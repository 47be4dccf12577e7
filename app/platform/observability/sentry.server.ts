import type * as SentrySdk from '@sentry/node'
import { getEnv } from '#app/platform/env.server'
import { currentRequestScope } from '#app/platform/http/request-scope.server'

/**
 * Error reports (issue 20, docs/decisions/0202-sentry-error-reports.md): the official `@sentry/node` SDK, started by
 * the web process and the worker only when SENTRY_DSN is set (otherwise nothing is loaded into action and nothing
 * is sent). Unexpected exceptions carry the request id, the route and the user id; `beforeSend` removes passwords,
 * tokens, cookies, authorization headers, post bodies and the secrets `scrubText` knows (issue 34: webhook signing
 * secrets, JWTs, Google tokens) before anything leaves the process.
 */
// The SDK's client is the flag: server.ts and the Remix server build each load this module, the SDK only once. The
// SDK is loaded only when SENTRY_DSN is set (issue 39: loading it took a second of every start), and kept on a global
// so that both copies of this module see it.
const SDK = Symbol.for('rankwell.sentry-sdk')
const sdk = () => (globalThis as { [SDK]?: typeof SentrySdk })[SDK]
const enabled = () => Boolean(sdk()?.getClient())

export async function initSentry(processKind: 'web' | 'worker'): Promise<boolean> {
  const env = getEnv()
  if (!env.SENTRY_DSN || enabled()) return enabled()
  const Sentry = await import('@sentry/node')
  ;(globalThis as { [SDK]?: typeof SentrySdk })[SDK] = Sentry
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    serverName: processKind,
    // Errors only: no performance tracing; request and response bodies (post content, passwords) never collected.
    // Headers, cookies and query strings the SDK collects are filtered again by beforeSend.
    tracesSampleRate: 0,
    dataCollection: { httpBodies: [] },
    maxBreadcrumbs: 30,
    initialScope: { tags: { process: processKind } },
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
  })
  return true
}

/**
 * Reports an unexpected exception with what is known of its request (id, route, user) or job. A no-op without a DSN.
 */
export function reportError(
  error: unknown,
  context: { route?: string; method?: string; tags?: Record<string, string | number | undefined> } = {},
) {
  const Sentry = sdk()
  if (!Sentry?.getClient()) return
  const scope = currentRequestScope()
  Sentry.withScope((s) => {
    if (scope?.requestId) s.setTag('request_id', scope.requestId)
    if (scope?.userId) s.setUser({ id: scope.userId })
    if (context.route) s.setTag('route', context.route)
    if (context.method) s.setTag('method', context.method)
    for (const [key, value] of Object.entries(context.tags ?? {})) if (value !== undefined) s.setTag(key, String(value))
    Sentry.captureException(error)
  })
}

/** Waits (at most `ms`) until queued reports are sent: before a process exits. */
export async function flushSentry(ms = 2_000) {
  const Sentry = sdk()
  if (Sentry?.getClient()) await Sentry.flush(ms).catch(() => false)
}

const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|authorization|cookie|session|csrf|signature|dsn|credential/i
/** Post bodies and other content users write: never sent. */
const CONTENT_KEY = /^(content|content_?markdown|content_?html|markdown|html|body|text|brief|claims|prompt)$/i
const FILTERED = '[Filtered]'
/**
 * Secrets that show up inside strings (URLs, messages): bearer tokens, our API tokens and personal API keys, Stripe keys, Standard Webhooks
 * signing secrets (`whsec_` and base64), JWTs (three base64url parts, the first a JSON header: `eyJ…`), Google OAuth
 * access tokens (`ya29.…`) and refresh tokens (`1//…`), raw or URL-encoded (a query string), key=value pairs,
 * passwords in URLs.
 */
const SECRET_IN_TEXT: Array<[RegExp, string]> = [
  [/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${FILTERED}`],
  [/\bwhsec_(?:[A-Za-z0-9+/=_-]|%2[BF]|%3D){6,}/gi, FILTERED],
  [/\b(rw_|sk_|pk_|rk_)[A-Za-z0-9_]{6,}/g, FILTERED],
  // Personal API keys (issue 38: `rwk_` + 49 base62 characters), whole or cut short.
  [/\brwk_[A-Za-z0-9]{6,}/g, FILTERED],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, FILTERED],
  [/\bya29\.[A-Za-z0-9._-]+/g, FILTERED],
  [/\b1(?:\/\/|%2F%2F)[A-Za-z0-9._-]{8,}/gi, FILTERED],
  [/([?&;\s](?:[\w-]*(?:password|token|secret)|api_key|apikey|key|code|session)=)[^&\s;]+/gi, `$1${FILTERED}`],
  [/(\/\/[^/:@\s]+:)[^@/\s]+@/g, `$1${FILTERED}@`],
]

export function scrubText(text: string): string {
  let out = text
  for (const [pattern, replacement] of SECRET_IN_TEXT) out = out.replace(pattern, replacement)
  return out
}

/** A deep copy of `value` with secret and content keys filtered and secrets inside strings replaced. */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value)
  if (depth > 8 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value as Record<string, unknown>))
    out[key] = SECRET_KEY.test(key) || CONTENT_KEY.test(key) ? FILTERED : scrubValue(v, depth + 1)
  return out
}

type SentryEvent = Parameters<NonNullable<Parameters<typeof SentrySdk.init>[0]>['beforeSend'] & object>[0]

export function scrubEvent<E extends SentryEvent>(event: E): E {
  if (event.request) {
    const request = event.request
    delete request.cookies
    delete request.data
    if (request.headers) {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers))
        headers[name] = SECRET_KEY.test(name) ? FILTERED : scrubText(String(value))
      request.headers = headers
    }
    if (request.url) request.url = scrubText(request.url)
    if (typeof request.query_string === 'string') request.query_string = scrubText(request.query_string)
    else if (request.query_string)
      request.query_string = scrubValue(request.query_string) as typeof request.query_string
  }
  if (event.message) event.message = scrubText(event.message)
  if (event.logentry?.message) event.logentry = scrubValue(event.logentry) as typeof event.logentry
  if (event.tags) event.tags = scrubValue(event.tags) as typeof event.tags
  for (const exception of event.exception?.values ?? [])
    if (exception.value) exception.value = scrubText(exception.value)
  if (event.extra) event.extra = scrubValue(event.extra) as typeof event.extra
  if (event.contexts) event.contexts = scrubValue(event.contexts) as typeof event.contexts
  if (event.breadcrumbs) event.breadcrumbs = event.breadcrumbs.map((b) => scrubBreadcrumb(b))
  if (event.user) event.user = { id: event.user.id }
  return event
}

function scrubBreadcrumb<B extends { message?: string; data?: Record<string, unknown> }>(crumb: B): B {
  return {
    ...crumb,
    ...(crumb.message ? { message: scrubText(crumb.message) } : {}),
    ...(crumb.data ? { data: scrubValue(crumb.data) as Record<string, unknown> } : {}),
  }
}
