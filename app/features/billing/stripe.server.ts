import Stripe from 'stripe'
import { getEnv } from '#app/platform/env.server'
import { recordProviderCall } from '#app/platform/observability/metrics.server'

/**
 * The Stripe client, through the official SDK. STRIPE_API_URL (tests, local development) points it at another host;
 * without STRIPE_SECRET_KEY billing is switched off and callers show a clear message instead.
 */
let cached: { key: string; client: Stripe } | undefined

export const STRIPE_TIMEOUT_MS = 4_500
export const STRIPE_RETRIES = 1

export function stripeConfigured() {
  return Boolean(getEnv().STRIPE_SECRET_KEY)
}

/** Host, port and protocol for the SDK from a base URL such as `http://127.0.0.1:4242`. */
export function stripeHostOptions(apiUrl: string | undefined): {
  host?: string
  port?: number
  protocol?: 'http' | 'https'
} {
  if (!apiUrl) return {}
  const url = new URL(apiUrl)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol }
}

/** The shared client, or null when Stripe is not configured. */
export function stripeClient(): Stripe | null {
  const env = getEnv()
  const key = env.STRIPE_SECRET_KEY
  if (!key) return null
  if (cached?.key !== key) {
    cached = {
      key,
      client: new Stripe(key, {
        ...stripeHostOptions(env.STRIPE_API_URL),
        // Every call fits a page: two attempts of at most 4.5 s (and Stripe's short backoff) stay under ~10 s.
        // No caller holds a database transaction or a row lock while it waits (see billing.server.ts).
        maxNetworkRetries: STRIPE_RETRIES,
        timeout: STRIPE_TIMEOUT_MS,
        appInfo: { name: 'Rankwell' },
      }),
    }
    // Calls, errors and latency for /metrics: every answered request (a 5xx or 429 is an error). Requests that got
    // no answer at all (network error, timeout) show as Stripe errors in the callers' logs, not here.
    cached.client.on('response', (event: Stripe.ResponseEvent) => {
      recordProviderCall('stripe', event.elapsed / 1000, event.status >= 500 || event.status === 429)
    })
  }
  return cached.client
}

export { Stripe }
