/** Where our forms may lead after a redirect: Stripe's hosted pages and Google's sign-in. */
export function formTargets(env: { STRIPE_API_URL?: string; GOOGLE_OAUTH_URL?: string }): string[] {
  const targets = ['https://checkout.stripe.com', 'https://billing.stripe.com', 'https://accounts.google.com']
  for (const url of [env.STRIPE_API_URL, env.GOOGLE_OAUTH_URL]) {
    if (url) targets.push(new URL(url).origin)
  }
  return targets
}

/** Security headers on every response, with a per-request CSP nonce for our inline scripts. */
export function securityHeaders(
  nonce: string,
  opts: { dev: boolean; formTargets?: string[]; analytics?: boolean },
): Record<string, string> {
  // Google Tag Manager and Analytics are named only when a GA4 id is configured (ANALYTICS_GA4_ID).
  const scriptSrc = [`'self'`, `'nonce-${nonce}'`, ...(opts.analytics ? ['https://www.googletagmanager.com'] : [])]
  const connectSrc = [
    `'self'`,
    ...(opts.analytics ? ['https://www.google-analytics.com', 'https://*.google-analytics.com'] : []),
  ]
  if (opts.dev) {
    scriptSrc.push(`'unsafe-inline'`)
    connectSrc.push('ws:', 'wss:')
  }
  const csp = [
    `default-src 'self'`,
    `script-src ${opts.dev ? scriptSrc.filter((s) => !s.startsWith(`'nonce-`)).join(' ') : scriptSrc.join(' ')}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: https:`,
    `font-src 'self' data:`,
    `connect-src ${connectSrc.join(' ')}`,
    `frame-src https://www.youtube-nocookie.com`,
    `media-src 'self'`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self' ${(opts.formTargets ?? []).join(' ')}`.trim(),
    `frame-ancestors 'none'`,
  ].join('; ')
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(opts.dev ? {} : { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }),
  }
}

/**
 * `securityHeaders` for one set of options, computed once per process (issue 17): each request only puts its nonce
 * into the CSP instead of building every header again.
 */
export function securityHeadersFor(opts: {
  dev: boolean
  formTargets?: string[]
  analytics?: boolean
}): (nonce: string) => Array<[string, string]> {
  const marker = '\u0000nonce\u0000'
  const entries = Object.entries(securityHeaders(marker, opts)).map(([name, value]) => ({
    name,
    parts: value.split(marker),
  }))
  return (nonce) => entries.map(({ name, parts }) => [name, parts.length === 1 ? parts[0]! : parts.join(nonce)])
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Paths that authenticate by signature rather than by cookie. */
const SIGNED_PATHS = ['/api/stripe/webhook']

/** The host a URL-ish Origin header names; null when it is 'null' or not a URL. */
function originHost(origin: string): string | null {
  if (origin === 'null') return null
  try {
    return new URL(origin).host
  } catch {
    return null
  }
}

/**
 * Refuses a write that did not come from our own site. Returns the reason when refused, otherwise null.
 * - Pages and their actions (everything outside /api): an Origin header must name our host (and the forwarded host
 *   when a proxy sets one), whether or not a cookie came along. Remix's own guard throws on the same requests,
 *   which used to answer 500; refusing them here answers a clear 403 instead.
 * - /api: a cookie-authenticated write must come from our site (an Origin naming our host; `null` is refused);
 *   Bearer-token calls and signed webhooks need not.
 */
export function checkOrigin(req: {
  method: string
  path: string
  origin?: string
  secFetchSite?: string
  host?: string
  forwardedHost?: string
  hasCookie: boolean
  hasBearer: boolean
}): string | null {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return null
  if (SIGNED_PATHS.some((p) => req.path.startsWith(p))) return null
  const isApi = req.path === '/api' || req.path.startsWith('/api/')
  if (isApi && (!req.hasCookie || req.hasBearer)) return null
  // Issue 34: `Origin: null` (a sandboxed frame, a data: URL, a redirect across sites) names no site of ours: a
  // cookie-authenticated write carrying it is refused, on pages and /api alike, whatever Sec-Fetch-Site says.
  if (req.origin !== undefined) {
    const host = originHost(req.origin)
    const forwarded = req.forwardedHost?.split(',')[0]?.trim()
    if (!host || host !== req.host || (forwarded && host !== forwarded)) return CROSS_SITE_MESSAGE
    return null
  }
  if (req.secFetchSite && !['same-origin', 'none'].includes(req.secFetchSite)) return CROSS_SITE_MESSAGE
  return null
}

export const CROSS_SITE_MESSAGE = 'Cross-site request refused.'
