import http from 'node:http'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * Prometheus metrics (issue 20, docs/decisions/0200-metrics-and-request-ids.md). One registry per process — web and
 * worker each serve their own `/metrics` on a port of their own (METRICS_PORT, WORKER_METRICS_PORT), scraped by Fly's
 * `[metrics]`. The registry lives on globalThis: server.ts and the Remix server build each load this module, and
 * both must count into the same metrics.
 */
function create() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 })
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
  return {
    registry,
    httpRequests: new Counter({
      name: 'rankwell_http_requests_total',
      help: 'HTTP requests answered, by method, route and status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'rankwell_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: seconds,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'rankwell_job_duration_seconds',
      help: 'Time a job ran in the worker, by queue, job name and outcome (completed or failed).',
      labelNames: ['queue', 'job', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
    jobFailures: new Counter({
      name: 'rankwell_job_failures_total',
      help: 'Failed job attempts, by queue and job name.',
      labelNames: ['queue', 'job'] as const,
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'rankwell_queue_jobs',
      help: 'Jobs in each queue by state (waiting, active, delayed, failed), read from Redis when scraped.',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
    }),
    providerCalls: new Counter({
      name: 'rankwell_provider_calls_total',
      help: 'Calls to third-party providers (openai, dataforseo, google_ads, stripe, smtp, webhook, cms).',
      labelNames: ['provider'] as const,
      registers: [registry],
    }),
    providerErrors: new Counter({
      name: 'rankwell_provider_errors_total',
      help: 'Provider calls that failed (network error, timeout or an error status).',
      labelNames: ['provider'] as const,
      registers: [registry],
    }),
    providerDuration: new Histogram({
      name: 'rankwell_provider_request_duration_seconds',
      help: 'Latency of provider calls.',
      labelNames: ['provider'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    quotaRefusals: new Counter({
      name: 'rankwell_quota_refusals_total',
      help: 'Requests refused because a plan quota or rate limit was used up, by kind.',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
  }
}

export type Metrics = ReturnType<typeof create>

declare global {
  var __rankwellMetrics: Metrics | undefined
}

export function metrics(): Metrics {
  globalThis.__rankwellMetrics ??= create()
  return globalThis.__rankwellMetrics
}

export type Provider = 'openai' | 'dataforseo' | 'google_ads' | 'stripe' | 'smtp' | 'webhook' | 'cms' | (string & {})

/** Records one provider call that took `seconds`; `failed` for a network error, a timeout or an error status. */
export function recordProviderCall(provider: Provider, seconds: number, failed: boolean) {
  const m = metrics()
  m.providerCalls.inc({ provider })
  m.providerDuration.observe({ provider }, seconds)
  if (failed) m.providerErrors.inc({ provider })
}

/**
 * Runs one provider call and records it. `isFailure` decides for an answer (e.g. a 5xx status); a thrown error is
 * always a failure.
 */
export async function observeProvider<T>(
  provider: Provider,
  call: () => Promise<T>,
  isFailure: (result: T) => boolean = () => false,
): Promise<T> {
  const started = performance.now()
  try {
    const result = await call()
    recordProviderCall(provider, (performance.now() - started) / 1000, isFailure(result))
    return result
  } catch (error) {
    recordProviderCall(provider, (performance.now() - started) / 1000, true)
    throw error
  }
}

/** A fetch that records every call as `provider` (for SDKs that accept a fetch: OpenAI). */
export function instrumentedFetch(provider: Provider): typeof fetch {
  return (input, init) =>
    observeProvider(
      provider,
      () => fetch(input, init),
      (res) => res.status >= 500 || res.status === 429,
    )
}

export function recordQuotaRefusal(kind: string) {
  metrics().quotaRefusals.inc({ kind })
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A low-cardinality route label for a path: ids (UUIDs, numbers, long tokens) become `:id`, built assets one
 * label, and anything answered 404 `(not found)` so that scanners cannot mint new series.
 */
export function routeLabel(path: string, status: number): string {
  if (status === 404) return '(not found)'
  if (path.startsWith('/assets/')) return '/assets/*'
  const parts = path
    .split('/')
    .map((part) =>
      UUID.test(part) || /^\d+$/.test(part) || (part.length >= 24 && /^[\w-]+$/.test(part)) ? ':id' : part,
    )
  const label = parts.join('/') || '/'
  return label.length > 80 ? `${label.slice(0, 80)}…` : label
}

/** Records one answered HTTP request. */
export function recordHttpRequest(method: string, path: string, status: number, seconds: number) {
  const labels = { method, route: routeLabel(path, status), status: String(status) }
  const m = metrics()
  m.httpRequests.inc(labels)
  m.httpDuration.observe(labels, seconds)
}

/**
 * Serves `/metrics` (Prometheus text format) on its own port; with `token`, only to `Authorization: Bearer <token>`.
 * `beforeScrape` refreshes values read on demand (the worker's queue depths).
 */
export function startMetricsServer(opts: {
  port: number
  token?: string
  beforeScrape?: () => Promise<void>
  log: (msg: string, extra?: Record<string, unknown>) => void
}): http.Server | undefined {
  if (!opts.port) return undefined
  const m = metrics()
  const server = http.createServer((req, res) => {
    void (async () => {
      if ((req.url ?? '').split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found')
        return
      }
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) {
        res.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer' }).end('Unauthorized')
        return
      }
      try {
        await opts.beforeScrape?.()
        const body = await m.registry.metrics()
        res.writeHead(200, { 'Content-Type': m.registry.contentType, 'Cache-Control': 'no-store' })
        res.end(req.method === 'HEAD' ? undefined : body)
      } catch (error) {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics unavailable')
        opts.log('metrics scrape failed', { error: error instanceof Error ? error.message : String(error) })
      }
    })()
  })
  server.on('error', (error) => opts.log('metrics server error', { error: error.message }))
  server.listen(opts.port, () => opts.log('metrics listening', { port: opts.port, path: '/metrics' }))
  server.unref()
  return server
}
