/**
 * Run as a child process by tests/integration/hardening.test.ts: starts the app's Sentry set-up (SENTRY_DSN points at
 * the Sentry fake) and reports one exception and one message whose every part carries the secrets given in
 * SENTRY_SECRETS (JSON list): the message, the exception's value, a breadcrumb's message and data, extra, a context,
 * tags, and the request's URL, query string, headers, cookies and data. The events go through the app's own
 * `beforeSend`; the test then reads what the fake received.
 */
import * as Sentry from '@sentry/node'
import { flushSentry, initSentry } from '#app/platform/observability/sentry.server'

const secrets = JSON.parse(process.env.SENTRY_SECRETS ?? '[]') as string[]
const marker = process.env.SENTRY_MARKER ?? 'no-marker'
const all = secrets.join(' ')
const query = secrets.map((s, i) => `v${i}=${encodeURIComponent(s)}`).join('&')

if (!(await initSentry('worker'))) throw new Error('SENTRY_DSN is not set')
Sentry.addBreadcrumb({
  category: 'http',
  message: `GET https://api.example/resource?${query} answered 500 for ${all}`,
  data: { url: `https://api.example/resource?${query}`, response: all, nested: { list: secrets } },
})
Sentry.withScope((scope) => {
  scope.setTag('marker', marker)
  scope.setTag('upstream_hint', all)
  scope.setExtra('payload', { note: all, list: secrets })
  scope.setContext('upstream', { answer: all })
  scope.addEventProcessor((event) => ({
    ...event,
    request: {
      url: `https://app.example/hook?${query}`,
      method: 'POST',
      query_string: query,
      headers: { 'x-upstream': all, cookie: all, referer: `https://app.example/?${query}` },
      cookies: { rw_session: all },
      data: { body: all },
    },
  }))
  Sentry.captureException(new Error(`The upstream refused ${all}`))
  Sentry.captureMessage(`Upstream answered with ${all}`)
})
await flushSentry(10_000)
process.exit(0)
