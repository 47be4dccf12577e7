/**
 * Starts the loopback fakes and returns the environment the app reads.
 *
 *   const { fakes, env, close } = await startFakes({ only: ['openai', 'stripe'] })
 */
import { startDataForSeo, type DataForSeoFakeHandle } from './dataforseo'
import { startGhost, type GhostFakeHandle } from './ghost'
import { startGoogleAds, type GoogleAdsFakeHandle } from './google-ads'
import { startGoogleOAuth, type GoogleOAuthFakeHandle } from './google-oauth'
import { startOpenAI, type OpenAIFakeHandle } from './openai'
import { startS3, type S3FakeHandle } from './s3'
import { startSentry, type SentryFakeHandle } from './sentry'
import { startSmtp, type SmtpFakeHandle } from './smtp'
import { FAKE_STOCK_KEYS, startStock, type StockFakeHandle } from './stock'
import { startStripe, type StripeFakeHandle } from './stripe'
import { startWeb, type WebFakeHandle } from './web'
import { startWebflow, type WebflowFakeHandle } from './webflow'

export type FakeName =
  | 'openai'
  | 'dataforseo'
  | 'googleAds'
  | 'stripe'
  | 'googleOAuth'
  | 'smtp'
  | 'web'
  | 'webflow'
  | 'ghost'
  | 'sentry'
  | 'stock'
  | 's3'

export const ALL_FAKES: readonly FakeName[] = [
  'openai',
  'dataforseo',
  'googleAds',
  'stripe',
  'googleOAuth',
  'smtp',
  'web',
  'webflow',
  'ghost',
  'sentry',
  'stock',
  's3',
]

export interface StartFakesOptions {
  only?: FakeName[]
  /** Webhook target for Stripe events (signed with STRIPE_WEBHOOK_SECRET). */
  stripeWebhookUrl?: string
  /** Fixed latency (ms) added to every normal answer of the HTTP fakes. */
  latencyMs?: number
  host?: string
}

export interface Fakes {
  openai?: OpenAIFakeHandle
  dataforseo?: DataForSeoFakeHandle
  googleAds?: GoogleAdsFakeHandle
  stripe?: StripeFakeHandle
  googleOAuth?: GoogleOAuthFakeHandle
  smtp?: SmtpFakeHandle
  /** The pages that rank (the SERP's top 10 point here). */
  web?: WebFakeHandle
  /** A user's own website (sitemap.xml and pages), on another origin than `web`. */
  site?: WebFakeHandle
  webflow?: WebflowFakeHandle
  ghost?: GhostFakeHandle
  /** Sentry's envelope endpoint. Its DSN is FAKE_SENTRY_DSN: processes that should report set SENTRY_DSN to it. */
  sentry?: SentryFakeHandle
  /** Unsplash and Pexels (issue 33); the app gets the Unsplash key (stock photos come from Unsplash). */
  stock?: StockFakeHandle
  /** An S3 bucket (issue 33). The app does not use it unless S3_BUCKET is set: tests point the storage at it. */
  s3?: S3FakeHandle
}

export interface RunningFakes {
  fakes: Fakes
  env: Record<string, string>
  close(): Promise<void>
}

/** Fixed credentials the fakes accept; also what `env` exposes. */
export const FAKE_CREDENTIALS = {
  openaiApiKey: 'sk-fake-local',
  openaiModel: 'gpt-4o-mini',
  dataforseoLogin: 'fake-login',
  dataforseoPassword: 'fake-password',
  googleAdsDeveloperToken: 'fake-developer-token-0000',
  googleAdsClientId: 'fake-ads-client-id.apps.googleusercontent.com',
  googleAdsClientSecret: 'fake-ads-client-secret',
  googleAdsRefreshToken: '1//0gfake-ads-refresh-token',
  googleAdsCustomerId: '1234567890',
  stripeSecretKey: 'sk_test_fake_local',
  stripePublishableKey: 'pk_test_fake_local',
  stripeWebhookSecret: 'whsec_fake_local_secret',
  googleClientId: 'fake-google-client-id.apps.googleusercontent.com',
  googleClientSecret: 'fake-google-secret',
} as const

export async function startFakes(opts: StartFakesOptions = {}): Promise<RunningFakes> {
  const wanted = new Set<FakeName>(opts.only && opts.only.length > 0 ? opts.only : ALL_FAKES)
  const host = opts.host ?? '127.0.0.1'
  const c = FAKE_CREDENTIALS
  const fakes: Fakes = {}
  const env: Record<string, string> = {}
  const closers: Array<() => Promise<void>> = []

  try {
    if (wanted.has('web')) {
      const web = await startWeb({ host })
      const site = await startWeb({ host })
      fakes.web = web
      fakes.site = site
      closers.push(web.close, site.close)
      Object.assign(env, { FAKE_WEB_URL: web.url, FAKE_SITE_URL: site.url })
    }
    if (wanted.has('openai')) {
      const f = await startOpenAI({ host })
      fakes.openai = f
      closers.push(f.close)
      Object.assign(env, {
        OPENAI_API_KEY: c.openaiApiKey,
        OPENAI_BASE_URL: `${f.url}/v1`,
        OPENAI_MODEL: c.openaiModel,
        FAKE_OPENAI_URL: f.url,
      })
    }
    if (wanted.has('dataforseo')) {
      const f = await startDataForSeo({
        host,
        login: c.dataforseoLogin,
        password: c.dataforseoPassword,
        pagesBaseUrl: fakes.web?.url,
      })
      fakes.dataforseo = f
      closers.push(f.close)
      Object.assign(env, {
        DATAFORSEO_LOGIN: c.dataforseoLogin,
        DATAFORSEO_PASSWORD: c.dataforseoPassword,
        DATAFORSEO_API_URL: `${f.url}/v3`,
        FAKE_DATAFORSEO_URL: f.url,
      })
    }
    if (wanted.has('googleAds')) {
      const f = await startGoogleAds({
        host,
        developerToken: c.googleAdsDeveloperToken,
        clientId: c.googleAdsClientId,
        clientSecret: c.googleAdsClientSecret,
        refreshToken: c.googleAdsRefreshToken,
      })
      fakes.googleAds = f
      closers.push(f.close)
      Object.assign(env, {
        GOOGLE_ADS_DEVELOPER_TOKEN: c.googleAdsDeveloperToken,
        GOOGLE_ADS_CLIENT_ID: c.googleAdsClientId,
        GOOGLE_ADS_CLIENT_SECRET: c.googleAdsClientSecret,
        GOOGLE_ADS_REFRESH_TOKEN: c.googleAdsRefreshToken,
        GOOGLE_ADS_CUSTOMER_ID: c.googleAdsCustomerId,
        GOOGLE_ADS_API_URL: f.url,
        FAKE_GOOGLE_ADS_URL: f.url,
      })
    }
    if (wanted.has('stripe')) {
      const f = await startStripe({
        host,
        secretKey: c.stripeSecretKey,
        webhookUrl: opts.stripeWebhookUrl,
        webhookSecret: c.stripeWebhookSecret,
      })
      fakes.stripe = f
      closers.push(f.close)
      Object.assign(env, {
        STRIPE_SECRET_KEY: c.stripeSecretKey,
        STRIPE_PUBLISHABLE_KEY: c.stripePublishableKey,
        STRIPE_WEBHOOK_SECRET: c.stripeWebhookSecret,
        STRIPE_API_URL: f.url,
        STRIPE_PRICE_MONTHLY: 'price_monthly',
        STRIPE_PRICE_QUARTERLY: 'price_quarterly',
        STRIPE_PRICE_YEARLY: 'price_yearly',
        FAKE_STRIPE_URL: f.url,
      })
    }
    if (wanted.has('googleOAuth')) {
      const f = await startGoogleOAuth({
        host,
        clients: [
          { clientId: c.googleClientId, clientSecret: c.googleClientSecret },
          { clientId: c.googleAdsClientId, clientSecret: c.googleAdsClientSecret },
        ],
        refreshTokens: [
          {
            refreshToken: c.googleAdsRefreshToken,
            clientId: c.googleAdsClientId,
            scope: 'https://www.googleapis.com/auth/adwords',
          },
        ],
      })
      fakes.googleOAuth = f
      closers.push(f.close)
      Object.assign(env, {
        GOOGLE_CLIENT_ID: c.googleClientId,
        GOOGLE_CLIENT_SECRET: c.googleClientSecret,
        GOOGLE_OAUTH_URL: f.url,
        SEARCH_CONSOLE_API_URL: `${f.url}/webmasters/v3`,
        FAKE_GOOGLE_OAUTH_URL: f.url,
      })
    }
    if (wanted.has('smtp')) {
      const f = await startSmtp({ host })
      fakes.smtp = f
      closers.push(f.close)
      Object.assign(env, { SMTP_URL: f.url, FAKE_SMTP_CONTROL_URL: f.controlUrl })
    }
    if (wanted.has('webflow')) {
      const f = await startWebflow({ host })
      fakes.webflow = f
      closers.push(f.close)
      Object.assign(env, { WEBFLOW_API_URL: `${f.url}/v2`, FAKE_WEBFLOW_URL: f.url })
    }
    if (wanted.has('ghost')) {
      // A Ghost site is the user's own (its address goes into a destination), so it sets no app variable.
      const f = await startGhost({ host })
      fakes.ghost = f
      closers.push(f.close)
      Object.assign(env, { FAKE_GHOST_URL: f.url })
    }
    if (wanted.has('sentry')) {
      const f = await startSentry({ host })
      fakes.sentry = f
      closers.push(f.close)
      Object.assign(env, { FAKE_SENTRY_DSN: f.dsn, FAKE_SENTRY_URL: f.url })
    }
    if (wanted.has('stock')) {
      const f = await startStock({ host })
      fakes.stock = f
      closers.push(f.close)
      Object.assign(env, {
        UNSPLASH_ACCESS_KEY: FAKE_STOCK_KEYS.unsplash,
        UNSPLASH_API_URL: `${f.url}/unsplash`,
        FAKE_STOCK_URL: f.url,
        FAKE_PEXELS_API_URL: `${f.url}/pexels/v1`,
        FAKE_PEXELS_API_KEY: FAKE_STOCK_KEYS.pexels,
      })
    }
    if (wanted.has('s3')) {
      const f = await startS3({ host })
      fakes.s3 = f
      closers.push(f.close)
      Object.assign(env, { FAKE_S3_URL: f.url })
    }
  } catch (err) {
    await Promise.allSettled(closers.map((fn) => fn()))
    throw err
  }

  if (opts.latencyMs && opts.latencyMs > 0) {
    for (const f of [fakes.openai, fakes.dataforseo, fakes.googleAds, fakes.stripe, fakes.googleOAuth, fakes.webflow])
      f?.setLatency(opts.latencyMs)
  }

  return {
    fakes,
    env,
    close: async () => {
      await Promise.allSettled(closers.map((fn) => fn()))
    },
  }
}

export { signStripePayload } from './stripe'
export type {
  OpenAIFakeHandle,
  DataForSeoFakeHandle,
  GoogleAdsFakeHandle,
  StripeFakeHandle,
  GoogleOAuthFakeHandle,
  SmtpFakeHandle,
  WebFakeHandle,
}
