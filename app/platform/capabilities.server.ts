import { getEnv, services } from '#app/platform/env.server'

/**
 * What this server can do for a customer, from the credentials it was started with (issue 35, decision 0353).
 * Screens word a missing capability in product words ('Daily rank checks are not available on this workspace yet')
 * and never name a setting; the operator learns which setting would switch it on from `/healthz` and from the one
 * line per capability the web process and the worker log at start (`capabilityReport`).
 */
export type Capabilities = {
  /** Where keyword volumes and difficulty come from: measured (DataForSEO, Google Ads), estimated by AI, or none. */
  keywordData: 'dataforseo' | 'google-ads' | 'estimates' | 'none'
  /** Google's current results for a keyword (research before writing, rank checks). */
  serp: boolean
  /** Daily rank checks of tracked keywords (they need the search results above). */
  rankTracking: boolean
  /** Connecting a Google Search Console property (Google OAuth). */
  searchConsole: boolean
  /** 'Continue with Google' on the sign-in and sign-up pages. */
  googleSignIn: boolean
  /** AI writing: posts, Auto Pilot, the free AI tools. */
  writing: boolean
  /** Checkout and the customer portal. */
  payments: boolean
  /** Outgoing e-mail (verification, password reset, digests, the ebook). */
  email: boolean
  /** Stock photos as an image source (Unsplash and/or Pexels). */
  stockPhotos: boolean
}

export function capabilities(): Capabilities {
  const on = services()
  const env = getEnv()
  return {
    keywordData: on.dataforseo ? 'dataforseo' : on.googleAds ? 'google-ads' : on.openai ? 'estimates' : 'none',
    serp: on.dataforseo,
    rankTracking: on.dataforseo,
    searchConsole: on.google,
    googleSignIn: on.google,
    writing: on.openai,
    payments: on.stripe,
    email: on.smtp,
    stockPhotos: Boolean(env.UNSPLASH_ACCESS_KEY || env.PEXELS_API_KEY),
  }
}

/** Whether keyword volumes are measured (DataForSEO, Google Ads) rather than estimated: what a promise may claim. */
export function measuredKeywordData() {
  const source = capabilities().keywordData
  return source === 'dataforseo' || source === 'google-ads'
}

/** Which variables switch each capability on: for the operator (logs, /healthz), never for a customer's screen. */
const ENABLED_BY: Record<keyof Capabilities, string> = {
  keywordData: 'DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD, or the GOOGLE_ADS_* credentials (measured data)',
  serp: 'DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD',
  rankTracking: 'DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD',
  searchConsole: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
  googleSignIn: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
  writing: 'OPENAI_API_KEY',
  payments: 'STRIPE_SECRET_KEY (and the STRIPE_PRICE_* ids)',
  email: 'SMTP_URL',
  stockPhotos: 'UNSPLASH_ACCESS_KEY or PEXELS_API_KEY',
}

const PROVIDER: Partial<Record<keyof Capabilities, string>> = {
  serp: 'DataForSEO',
  rankTracking: 'DataForSEO',
  searchConsole: 'Google OAuth',
  googleSignIn: 'Google OAuth',
  writing: 'the OpenAI-compatible API',
  payments: 'Stripe',
  email: 'SMTP',
}

/** One entry per capability: on or off, the provider it uses, and what would switch it on (or measure it better). */
export function capabilityDetails(caps: Capabilities = capabilities()) {
  return (Object.keys(ENABLED_BY) as Array<keyof Capabilities>).map((name) => {
    const value = caps[name]
    const on = name === 'keywordData' ? value !== 'none' : Boolean(value)
    const provider =
      name === 'keywordData'
        ? value === 'dataforseo'
          ? 'DataForSEO'
          : value === 'google-ads'
            ? 'Google Ads Keyword Planner'
            : value === 'estimates'
              ? 'AI estimates'
              : null
        : name === 'stockPhotos'
          ? [getEnv().UNSPLASH_ACCESS_KEY ? 'Unsplash' : null, getEnv().PEXELS_API_KEY ? 'Pexels' : null]
              .filter(Boolean)
              .join(' and ') || null
          : on
            ? (PROVIDER[name] ?? null)
            : null
    // Estimates work, but measured data is better: the operator is told how to get it.
    const enabledBy =
      name === 'keywordData' && !on
        ? `${ENABLED_BY[name]}, or OPENAI_API_KEY (AI estimates)`
        : !on || value === 'estimates'
          ? ENABLED_BY[name]
          : null
    return { name, on, provider, enabledBy }
  })
}

/** The lines the web process and the worker log once at start: which provider each capability uses, or how to switch it on. */
export function capabilityReport(processName: string): string[] {
  return capabilityDetails().map(({ name, on, provider, enabledBy }) =>
    on
      ? `Rankwell ${processName}: ${name} on (${provider})${enabledBy ? `; measured data needs ${enabledBy}` : ''}`
      : `Rankwell ${processName}: ${name} off; set ${enabledBy} to switch it on`,
  )
}
