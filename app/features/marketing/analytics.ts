/**
 * Page views and web-vitals metrics: the path clean-up that the browser and the server both apply, so that no
 * secret in a URL (sign-in tokens, Stripe session ids) is stored. The event schema is in analytics-schema.ts.
 */
const SENSITIVE_PARAMS = /^(token|code|state|session_id|key|api_key|secret|password|email|redirectto)$/i
export const MAX_PATH_LENGTH = 500

/** Path plus query string, with the values of sensitive parameters replaced and the hash dropped. */
export function sanitizePath(pathWithQuery: string): string {
  let url: URL
  try {
    url = new URL(pathWithQuery, 'http://localhost')
  } catch {
    return '/'
  }
  const params = new URLSearchParams()
  for (const [name, value] of url.searchParams) params.append(name, SENSITIVE_PARAMS.test(name) ? 'redacted' : value)
  const query = params.toString()
  return `${url.pathname}${query ? `?${query}` : ''}`.slice(0, MAX_PATH_LENGTH)
}

export const WEB_VITALS = ['CLS', 'FCP', 'INP', 'LCP', 'TTFB'] as const
export type WebVitalName = (typeof WEB_VITALS)[number]

export type AnalyticsEvent =
  { type: 'pageview'; path: string } | { type: 'web-vital'; path: string; name: WebVitalName; value: number }
