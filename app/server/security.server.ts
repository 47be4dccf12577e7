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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Paths that authenticate by signature rather than by cookie. */
const SIGNED_PATHS = ['/api/stripe/webhook']

/**
 * Refuses a cookie-authenticated write that did not come from our own site.
 * Returns the reason when refused, otherwise null.
 */
export function checkOrigin(req: {
  method: string
  path: string
  origin?: string
  secFetchSite?: string
  host?: string
  hasCookie: boolean
  hasBearer: boolean
}): string | null {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return null
  if (!req.hasCookie || req.hasBearer) return null
  if (SIGNED_PATHS.some((p) => req.path.startsWith(p))) return null
  if (req.origin && req.origin !== 'null') {
    try {
      if (new URL(req.origin).host === req.host) return null
    } catch {
      return 'Cross-site request refused.'
    }
    return 'Cross-site request refused.'
  }
  if (req.secFetchSite && !['same-origin', 'none'].includes(req.secFetchSite)) return 'Cross-site request refused.'
  return null
}
