import crypto from 'node:crypto'
import http from 'node:http'
import { matchRoutes, type AgnosticRouteObject } from '@remix-run/router'
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

/** The routes of a server build (its `routes` manifest), as far as labelling needs them. */
export type RouteManifest = Record<
  string,
  { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean } | undefined
>

/** The manifest as the nested route objects Remix itself matches against (its createRoutes). */
function routeTree(manifest: RouteManifest): AgnosticRouteObject[] {
  type Entry = { id: string; path?: string; index?: boolean; caseSensitive?: boolean }
  const byParent = new Map<string, Entry[]>()
  const entries = Object.values(manifest).filter((r): r is NonNullable<typeof r> => Boolean(r))
  for (const r of entries) {
    const siblings = byParent.get(r.parentId ?? '') ?? []
    siblings.push({ id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive })
    byParent.set(r.parentId ?? '', siblings)
  }
  const attach = (nodes: Entry[]): AgnosticRouteObject[] =>
    nodes.map(({ id, path, index, caseSensitive }) => {
      const children = byParent.get(id)
      return index
        ? { id, path, index: true, caseSensitive }
        : { id, path, caseSensitive, ...(children ? { children: attach(children) } : {}) }
    })
  return attach(byParent.get('') ?? [])
}

declare global {
  var __rankwellServerRoutes: RouteManifest | undefined
}

/**
 * The server build's routes, for labels computed inside the build (error reports): server.ts sets them when it loads
 * a build (each rebuild in development).
 */
export function setServerRoutes(manifest: RouteManifest) {
  globalThis.__rankwellServerRoutes = manifest
}

const matchers = new WeakMap<RouteManifest, (path: string) => string | undefined>()

/**
 * The id of the deepest route of `manifest` that answers `path` (`routes/blogpost.$id`), as Remix matches it;
 * undefined when none does. The route tree is built once per build (per manifest object).
 */
export function matchedRouteId(manifest: RouteManifest, path: string): string | undefined {
  let match = matchers.get(manifest)
  if (!match) {
    const tree = routeTree(manifest)
    match = (p) => matchRoutes(tree, p)?.at(-1)?.route.id
    matchers.set(manifest, match)
  }
  return match(path)
}

/** The label of a request refused by our own middleware (403 cross-site write, 413 body too large). */
export const REFUSED_ROUTE = '(refused)'
/** The label of every path that no route answers, and of every 404. */
export const NOT_FOUND_ROUTE = '(not found)'
/** Built, fingerprinted assets; other files of the client folder (favicon…) are `(static)`. */
export const ASSETS_ROUTE = '/assets/*'
export const STATIC_ROUTE = '(static)'

/**
 * Issue 34: the route label of an answered request, from a bounded set whatever the client sends: the matched Remix
 * route id, or one of the fixed labels above. Never the path itself, so that distinct paths cannot mint series.
 */
export function routeLabel(req: {
  path: string
  status: number
  refused?: boolean
  staticFile?: boolean
  routes?: RouteManifest
}): string {
  if (req.refused) return REFUSED_ROUTE
  if (req.status === 404) return NOT_FOUND_ROUTE
  if (req.staticFile) return req.path.startsWith('/assets/') ? ASSETS_ROUTE : STATIC_ROUTE
  const routes = req.routes ?? globalThis.__rankwellServerRoutes
  const id = routes ? matchedRouteId(routes, req.path) : undefined
  return id ?? NOT_FOUND_ROUTE
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
/** A method label: one of the known methods, else `OTHER` (a client may send any token as its method). */
export function methodLabel(method: string): string {
  const upper = method.toUpperCase()
  return METHODS.has(upper) ? upper : 'OTHER'
}

const STATUSES = new Set([
  200, 201, 202, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429, 500,
  502, 503, 504,
])
/** A status label: the code when it is one the app answers, else its class (`5xx`). */
export function statusLabel(status: number): string {
  if (STATUSES.has(status)) return String(status)
  const klass = Math.floor(status / 100)
  return klass >= 1 && klass <= 5 ? `${klass}xx` : 'other'
}

/** Records one answered HTTP request under bounded labels (`route` from `routeLabel`). */
export function recordHttpRequest(method: string, route: string, status: number, seconds: number) {
  const labels = { method: methodLabel(method), route, status: statusLabel(status) }
  const m = metrics()
  m.httpRequests.inc(labels)
  m.httpDuration.observe(labels, seconds)
}

/** Compares a presented Authorization header with the expected one in constant time. */
function sameToken(presented: string | undefined, expected: string): boolean {
  const a = crypto
    .createHash('sha256')
    .update(presented ?? '')
    .digest()
  const b = crypto.createHash('sha256').update(expected).digest()
  return crypto.timingSafeEqual(a, b)
}

/**
 * Serves `/metrics` (Prometheus text format) on its own port of `host` (METRICS_HOST: loopback by default, the
 * private network in production, never a public address); with `token`, only to `Authorization: Bearer <token>`
 * (required in production: env.server.ts). `beforeScrape` refreshes values read on demand (the worker's queue depths).
 */
export function startMetricsServer(opts: {
  port: number
  host: string
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
      if (opts.token && !sameToken(req.headers.authorization, `Bearer ${opts.token}`)) {
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
  server.listen(opts.port, opts.host, () =>
    opts.log('metrics listening', { host: opts.host, port: opts.port, path: '/metrics' }),
  )
  server.unref()
  return server
}
