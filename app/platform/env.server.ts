import { z } from 'zod'

/**
 * The process environment, parsed once. Every variable the app reads is listed here
 * (and in the README's table). Services whose credentials are missing are switched off.
 */
const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))

const bool = z
  .string()
  .optional()
  .transform((v) => v === 'true' || v === '1')

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().positive().default(3000),
  APP_URL: z.string().url().default('http://localhost:3000'),
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required (npm run dev sets one up for you)'),
  REDIS_URL: z.string().min(1, 'REDIS_URL is required (npm run dev sets one up for you)'),
  SESSION_SECRET: optional,
  /**
   * Key(s) for credentials stored encrypted at rest (AES-256-GCM): a comma-separated list, newest first. The first
   * encrypts; every one decrypts (rotation). Required in production; `npm run dev` generates one per data directory.
   */
  ENCRYPTION_KEY: optional,
  OPENAI_API_KEY: optional,
  OPENAI_BASE_URL: optional,
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  /** Embeddings model (same OpenAI-compatible API) for internal-link relevance and the cannibalisation check. */
  OPENAI_EMBEDDING_MODEL: z.string().default('text-embedding-3-small'),
  /** Issue 33: the Images API model (same OpenAI-compatible API and base URL) for generated post images. */
  OPENAI_IMAGE_MODEL: z.string().default('gpt-image-1'),
  /** Issue 33: stock photos (the user's choice of image source): Unsplash and/or Pexels, each when its key is set. */
  UNSPLASH_ACCESS_KEY: optional,
  UNSPLASH_API_URL: z.string().url().default('https://api.unsplash.com'),
  PEXELS_API_KEY: optional,
  PEXELS_API_URL: z.string().url().default('https://api.pexels.com/v1'),
  /**
   * Issue 33: where post images are stored. Unset: in Postgres (table image_files, each file at most
   * IMAGE_MAX_BYTES). Set S3_BUCKET for an S3-compatible bucket (AWS, R2, MinIO…) through the AWS SDK.
   */
  S3_BUCKET: optional,
  S3_ENDPOINT: optional,
  S3_REGION: z.string().default('auto'),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  /** Path-style bucket addressing (MinIO and most S3-compatible servers); virtual-hosted style when false. */
  S3_FORCE_PATH_STYLE: z
    .string()
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  /** Issue 33: the largest stored image file (bytes, after compression). */
  IMAGE_MAX_BYTES: z.coerce.number().int().positive().default(600_000),
  DATAFORSEO_LOGIN: optional,
  DATAFORSEO_PASSWORD: optional,
  DATAFORSEO_API_URL: z.string().url().default('https://api.dataforseo.com/v3'),
  GOOGLE_ADS_DEVELOPER_TOKEN: optional,
  GOOGLE_ADS_CLIENT_ID: optional,
  GOOGLE_ADS_CLIENT_SECRET: optional,
  GOOGLE_ADS_REFRESH_TOKEN: optional,
  GOOGLE_ADS_CUSTOMER_ID: optional,
  GOOGLE_ADS_LOGIN_CUSTOMER_ID: optional,
  GOOGLE_ADS_API_URL: z.string().url().default('https://googleads.googleapis.com'),
  STRIPE_SECRET_KEY: optional,
  STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_URL: optional,
  STRIPE_PRICE_MONTHLY: optional,
  STRIPE_PRICE_QUARTERLY: optional,
  STRIPE_PRICE_YEARLY: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_OAUTH_URL: optional,
  /** Issue 34: page-view and web-vital events older than this many days are deleted (default about 13 months). */
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().positive().default(396),
  /** Search Console API (webmasters v3); tests point it at the loopback fake. */
  SEARCH_CONSOLE_API_URL: z.string().url().default('https://www.googleapis.com/webmasters/v3'),
  /** DataForSEO SERP calls per minute for daily rank tracking, shared by every worker (a Redis counter). */
  RANKINGS_SERP_PER_MINUTE: z.coerce.number().int().positive().default(600),
  SMTP_URL: optional,
  MAIL_FROM: z.string().default('Rankwell <hello@rankwell.app>'),
  SUPPORT_EMAIL: z.string().default('support@rankwell.app'),
  /**
   * Issue 34: one switch per kind of outgoing request that may reach private and loopback addresses (the SSRF guard
   * refuses them otherwise). Each defaults to off and must stay off in production; tests and `npm run dev` turn them
   * on for their loopback fakes. WEBHOOK_: Auto Pilot webhooks and their tests. RESEARCH_: pages read for research,
   * the customer's sitemap and site pages, stock photo downloads. CMS_: WordPress, Ghost and Webflow calls.
   */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool,
  RESEARCH_ALLOW_PRIVATE_NETWORKS: bool,
  CMS_ALLOW_PRIVATE_NETWORKS: bool,
  /** Webhook retries: the first retry waits this long, each next one 5× longer (capped at a quarter of the window). */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(5_000),
  /** Webhook retries stop, and an endpoint failing without a success for this long is disabled (default 24 h). */
  WEBHOOK_DISABLE_AFTER_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3600 * 1000),
  /** Time limit of one webhook request. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Time limit of one model call while writing a post (the brief, a section); the job retries after it. */
  POST_MODEL_TIMEOUT_MS: z.coerce.number().int().positive().default(90_000),
  /**
   * Where the client's IP (for rate limits) comes from: `none` (the socket), `fly` (Fly-Client-IP), `cloudflare`
   * (CF-Connecting-IP) or a number N of trusted proxies (the Nth address from the right of X-Forwarded-For).
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => v?.trim().toLowerCase() || 'none')
    .pipe(
      z.union([
        z.enum(['none', 'fly', 'cloudflare']),
        z
          .string()
          .regex(/^[1-9][0-9]?$/, 'TRUST_PROXY must be none, fly, cloudflare or a number of proxies (1–99)')
          .transform(Number),
      ]),
    ),
  ANALYTICS_GA4_ID: optional,
  /** First retry delay of a failed publication (doubles on each of its 5 attempts). */
  PUBLISH_RETRY_BASE_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * How long a worker's claim on a publication holds without a heartbeat before another worker may take it over
   * (crash recovery; issue 33: the holder renews it every third of this, so a dead worker's claim expires quickly).
   */
  PUBLISH_CLAIM_LEASE_MS: z.coerce.number().int().positive().default(15_000),
  /** How often the publishing sweep runs (scheduled posts, review windows, lost jobs). */
  PUBLISH_SWEEP_EVERY_MS: z.coerce.number().int().positive().default(60_000),
  /** Webflow's Data API (v2) base URL; tests and offline development point it at a local fake. */
  WEBFLOW_API_URL: z.string().url().default('https://api.webflow.com/v2'),
  /** Set by `npm run dev` and the test runner: the services answered by local fakes. Shown as a badge. */
  OFFLINE_SERVICES: optional,
  /** BullMQ key prefix, so that several apps (or test runs) can share one Redis. */
  QUEUE_PREFIX: z.string().default('rankwell'),
  /**
   * Issue 20: Prometheus metrics (/metrics) on a port of their own, reachable on the private network only (Fly's
   * [metrics] scraper); 0 turns the endpoint off. The worker serves its own on WORKER_METRICS_PORT.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9091),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9092),
  /** When set, /metrics also requires `Authorization: Bearer <METRICS_TOKEN>`; required in production (issue 34). */
  METRICS_TOKEN: optional,
  /**
   * Issue 34: the address /metrics listens on: loopback by default; in production the machine's private address
   * (on Fly `fly-local-6pn`, the private IPv6 network the [metrics] scraper uses), never a public one.
   */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Issue 20: error reports through the official Sentry SDK; nothing is sent when unset. */
  SENTRY_DSN: optional,
  SENTRY_ENVIRONMENT: optional,
  /** Postgres connections per process. */
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  /**
   * Postgres outages: how long opening a connection may take, how long one statement may run (server-side
   * statement_timeout) and how long an idle connection is kept. A request therefore fails within seconds when
   * Postgres is down or stuck, and answers 503 (see outage.server.ts) instead of hanging.
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  DATABASE_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** Redis on the request path: the longest one command (rate limit, queue add) may wait before it fails. */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
  /** Worker: concurrent post generations per worker process. */
  POST_WORKER_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /** Worker: BullMQ stalled-job detection (how often to look, and how long a job's lock lasts). */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * Graceful shutdown (SIGTERM, a deploy). Web: for SHUTDOWN_DRAIN_DELAY_MS /healthz answers 503 'draining' while the
   * port still accepts (so the proxy's health check sees it and stops sending), then the port closes and in-flight
   * requests finish; the process exits at the latest SHUTDOWN_TIMEOUT_MS after the signal. Worker: stops taking jobs
   * at once, lets running jobs finish for up to SHUTDOWN_TIMEOUT_MS, then hands the rest back to the queue.
   * Both must stay under fly.toml's kill_timeout.
   */
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().nonnegative().default(10_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(25_000),
  /** Worker: how often the 'reconcile-stale-posts' job looks for posts whose job Redis lost. */
  POST_RECONCILE_EVERY_MS: z.coerce.number().int().positive().default(60_000),
  /** A post still queued or generating this long after its creation, without a job in Redis, is queued again. */
  POST_STALE_AFTER_MS: z.coerce.number().int().positive().default(60_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
})

export type Env = z.infer<typeof schema> & { SESSION_SECRETS: string[] }

/** The name of every variable the app reads (issue 35: a test checks that no customer-facing page names one). */
export const ENV_VARIABLE_NAMES = Object.keys(schema.shape)

function parseEnv(): Env {
  const parsed = schema.safeParse(process.env)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')
    throw new Error(`Invalid environment:\n${problems}`)
  }
  const data = parsed.data
  // No fallback constant: a secret known from the source would let anyone forge sessions. `npm run dev` generates
  // one per data directory (.data/secrets.json); production and every other runner set their own.
  if (!data.SESSION_SECRET) {
    throw new Error(
      data.NODE_ENV === 'production'
        ? 'Invalid environment:\n  SESSION_SECRET: required in production (a long random string)'
        : 'Invalid environment:\n  SESSION_SECRET: required (`npm run dev` generates one in .data/secrets.json)',
    )
  }
  // Credentials at rest (CMS passwords and keys, webhook signing secrets, Search Console tokens) need the key: a
  // production process without it would run with publishing dead, so it does not start (one line naming it).
  if (data.NODE_ENV === 'production' && !data.ENCRYPTION_KEY) {
    throw new Error(
      'Invalid environment:\n  ENCRYPTION_KEY: required in production (a long random string: it encrypts stored credentials)',
    )
  }
  // Issue 34: /metrics names every route and job; in production it answers only with its token (a process that would
  // serve it without one does not start). METRICS_PORT and WORKER_METRICS_PORT both 0 turn metrics off.
  if (data.NODE_ENV === 'production' && !data.METRICS_TOKEN && (data.METRICS_PORT || data.WORKER_METRICS_PORT)) {
    throw new Error(
      'Invalid environment:\n  METRICS_TOKEN: required in production (a long random string that /metrics asks of its scraper), unless METRICS_PORT and WORKER_METRICS_PORT are 0',
    )
  }
  const secrets = data.SESSION_SECRET.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return { ...data, SESSION_SECRETS: secrets }
}

let cached: Env | undefined
export function getEnv(): Env {
  cached ??= parseEnv()
  return cached
}

/**
 * The environment for a process's entry point (server.ts, worker/index.ts): an invalid one ends the process with
 * exit code 1 and one log line per problem, naming the variable ('Rankwell cannot start: ENCRYPTION_KEY: required in
 * production …'), instead of a stack trace.
 */
export function startupEnv(processName: string): Env {
  try {
    return getEnv()
  } catch (error) {
    const lines = (error instanceof Error ? error.message : String(error))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && line !== 'Invalid environment:')
    for (const line of lines) console.error(`Rankwell ${processName} cannot start: ${line}`)
    process.exit(1)
  }
}

/** Which external services are usable with the configured credentials. */
export function services() {
  const env = getEnv()
  return {
    openai: Boolean(env.OPENAI_API_KEY),
    dataforseo: Boolean(env.DATAFORSEO_LOGIN && env.DATAFORSEO_PASSWORD),
    googleAds: Boolean(
      env.GOOGLE_ADS_DEVELOPER_TOKEN &&
      env.GOOGLE_ADS_CLIENT_ID &&
      env.GOOGLE_ADS_CLIENT_SECRET &&
      env.GOOGLE_ADS_REFRESH_TOKEN &&
      env.GOOGLE_ADS_CUSTOMER_ID,
    ),
    stripe: Boolean(env.STRIPE_SECRET_KEY),
    google: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    smtp: Boolean(env.SMTP_URL),
  }
}

/** The only values the browser ever sees. */
export function publicEnv() {
  const env = getEnv()
  return {
    APP_URL: env.APP_URL,
    ANALYTICS_GA4_ID: env.ANALYTICS_GA4_ID ?? null,
    STRIPE_PUBLISHABLE_KEY: env.STRIPE_PUBLISHABLE_KEY ?? null,
    OFFLINE_SERVICES: env.OFFLINE_SERVICES ? env.OFFLINE_SERVICES.split(',').filter(Boolean) : [],
    GOOGLE_SIGN_IN: services().google,
  }
}
export type PublicEnv = ReturnType<typeof publicEnv>
