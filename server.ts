import crypto from 'node:crypto'
import path from 'node:path'
import { installGlobals, type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express, { type NextFunction, type Request, type Response } from 'express'
import { startupEnv } from '#app/platform/env.server'
import { capabilityReport } from '#app/platform/capabilities.server'
import { ifNoneMatchHits, letRemixReplaceHeaders, PRIVATE_CACHE_CONTROL } from '#app/platform/http/http-cache.server'
import { guardBuild } from '#app/platform/http/outage.server'
import { cachedPage, encodedBody, pageCacheKey, pageEncoding } from '#app/platform/http/page-cache.server'
import { bodyLimitFor, BODY_MESSAGES } from '#app/platform/http/body.server'
import { lingerIfBodyUnread } from '#app/platform/http/linger.server'
import { remixHandler } from '#app/platform/http/remix-handler.server'
import { renderRefusal, type Refusal } from '#app/platform/http/refusal.server'
import { installRequestIdLogging, logJson } from '#app/platform/observability/log.server'
import { installProcessGuards } from '#app/platform/observability/process-guards.server'
import {
  recordHttpRequest,
  routeLabel,
  setServerRoutes,
  startMetricsServer,
  type RouteManifest,
} from '#app/platform/observability/metrics.server'
import {
  newRequestScope,
  requestIdFrom,
  runInRequestScope,
  type RequestScope,
} from '#app/platform/http/request-scope.server'
import { checkOrigin, formTargets, securityHeadersFor } from '#app/platform/security/headers.server'
import { privateNetworkWarning } from '#app/platform/security/ssrf.server'
import { staticFiles } from '#app/platform/http/static-files.server'

installGlobals({ nativeFetch: true })

const env = startupEnv('web')
// Issue 20: error reports when SENTRY_DSN is set, request ids on every log line, /metrics on METRICS_PORT.
const { initSentry, flushSentry } = await import('#app/platform/observability/sentry.server')
await initSentry('web')
installRequestIdLogging()
const metricsServer = startMetricsServer({
  port: env.METRICS_PORT,
  host: env.METRICS_HOST,
  token: env.METRICS_TOKEN,
  log: (msg, extra) => logJson({ process: 'web', msg, ...extra }),
})
const switchesOn = privateNetworkWarning(env)
if (switchesOn) logJson({ process: 'web', level: 'warn', msg: switchesOn })
const isProduction = env.NODE_ENV === 'production'
const buildDir = path.resolve(process.env.REMIX_BUILD_DIR ?? 'build')
const headerOptions = { dev: !isProduction, formTargets: formTargets(env), analytics: Boolean(env.ANALYTICS_GA4_ID) }

const viteDevServer = isProduction
  ? undefined
  : await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } }))

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', true)
// One scope per request (issue 17's memoised lookups, issue 20's request id): the client's valid X-Request-Id or a
// new one, echoed in the response, on every log line of the request and on the jobs it enqueues. Each answered
// request is counted and timed for /metrics and logged once, under its route's label (issue 34: the matched Remix
// route id or a fixed label, never the path, so that no client can mint new series; routeLabel).
app.use((req: Request, res: Response, next: NextFunction) => {
  const started = performance.now()
  const scope = newRequestScope(requestIdFrom(req.get('x-request-id')))
  res.locals.scope = scope
  res.setHeader('X-Request-Id', scope.requestId)
  res.once('finish', () => {
    const seconds = (performance.now() - started) / 1000
    const route = routeLabel({
      path: req.path,
      status: res.statusCode,
      refused: res.locals.refused === true,
      staticFile: res.locals.staticFile === true,
      routes: serverRoutes,
    })
    recordHttpRequest(req.method, route, res.statusCode, seconds)
    if (req.path.startsWith('/assets/') || req.path === '/healthz') return
    logJson({
      msg: 'request',
      requestId: scope.requestId,
      method: req.method,
      route,
      status: res.statusCode,
      ms: Math.round(seconds * 1000),
      ...(scope.userId ? { userId: scope.userId } : {}),
    })
  })
  runInRequestScope(scope, next)
})

// Graceful shutdown (see `shutdown` below): while draining, /healthz says so with a 503 so that the proxy stops
// sending, and every response closes its connection so that no keep-alive connection is left to be cut.
let draining = false
const inFlight = new Set<Response>()
app.use((req: Request, res: Response, next: NextFunction) => {
  inFlight.add(res)
  res.on('close', () => inFlight.delete(res))
  if (draining) res.shouldKeepAlive = false
  if (draining && req.path === '/healthz') {
    res.status(503).set({ 'Cache-Control': 'no-store', 'Retry-After': '5' }).json({ ok: false, status: 'draining' })
    return
  }
  next()
})
app.use(compression())

function refuse(req: Request, res: Response, refusal: Refusal) {
  const { contentType, body } = renderRefusal(req.path, refusal)
  res.locals.refused = true
  // The body is not read: the connection ends after the answer (lingerIfBodyUnread below).
  res.status(refusal.status).set({ 'Content-Type': contentType, 'Cache-Control': 'no-store' })
  res.end(body)
}
// The security headers are computed once; each request only adds its nonce (issue 17: one middleware below instead
// of six, nothing rebuilt per request).
const securityHeadersWith = securityHeadersFor(headerOptions)
app.use((req: Request, res: Response, next: NextFunction) => {
  // The socket's address, for rate limits; never taken from the client.
  req.headers['x-rankwell-client-ip'] = req.socket.remoteAddress ?? 'unknown'
  // A per-request nonce for the Content-Security-Policy, handed to <Scripts> through the load context.
  const nonce = crypto.randomBytes(16).toString('base64')
  res.locals.cspNonce = nonce
  for (const [name, value] of securityHeadersWith(nonce)) res.setHeader(name, value)
  const declaredLength = req.headers['content-length']
  // An answer sent before the request's body was all received (a refusal below, a 413 counted while streaming) ends
  // its connection with a lingering close, so that a client still sending reads the answer instead of a reset. A
  // request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3).
  if (declaredLength !== undefined || req.headers['transfer-encoding'] !== undefined) lingerIfBodyUnread(req, res)
  // Writes must come from our own site (on top of SameSite=Lax): a clear 403 page or JSON, never Remix's 500.
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const problem = checkOrigin({
      method: req.method,
      path: req.path,
      origin: req.get('origin'),
      secFetchSite: req.get('sec-fetch-site'),
      host: req.get('host'),
      forwardedHost: req.get('x-forwarded-host'),
      hasCookie: Boolean(req.get('cookie')),
      hasBearer: /^Bearer\s/i.test(req.get('authorization') ?? ''),
    })
    if (problem) return refuse(req, res, { status: 403, message: problem })
  }
  // A body declared larger than its route accepts is refused before a byte of it is read
  // (app/server/http/body.server.ts counts chunked bodies while reading them).
  const declared = Number(declaredLength ?? NaN)
  if (Number.isFinite(declared) && declared > bodyLimitFor(req.path))
    return refuse(req, res, { status: 413, message: BODY_MESSAGES.tooLarge })
  next()
})

if (viteDevServer) {
  app.use(viteDevServer.middlewares)
  app.use(express.static('public', { maxAge: '1h' }))
} else {
  // A request answered by the static files is labelled as one (`/assets/*`, `(static)`): the marker is set before
  // them and taken off by the next middleware, which only a request they did not answer reaches.
  const serveStatic = staticFiles(path.join(buildDir, 'client'))
  app.use((req: Request, res: Response, next: NextFunction) => {
    res.locals.staticFile = true
    serveStatic(req, res, next)
  })
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.locals.staticFile = false
    next()
  })
}

// Everything Remix answers is `private, no-store` unless the app says otherwise (a public document, a resource
// route's own policy): redirects from loaders too, which depend on the visitor's cookie.
app.use((_req: Request, res: Response, next: NextFunction) => {
  res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL)
  letRemixReplaceHeaders(res)
  next()
})

// Every loader and action answers 503 'briefly unavailable' (with Retry-After) when Postgres or Redis is down.
// The build's routes label the metrics (the route tree is made once per build; in development, each time Vite
// hands over a new build).
let serverRoutes: RouteManifest | undefined
function loaded(serverBuild: ServerBuild) {
  if (serverBuild.routes !== serverRoutes) {
    serverRoutes = serverBuild.routes
    setServerRoutes(serverRoutes)
  }
  return guardBuild(serverBuild)
}
const build = viteDevServer
  ? async () => loaded((await viteDevServer.ssrLoadModule('virtual:remix/server-build')) as ServerBuild)
  : loaded((await import(path.resolve(buildDir, 'server/index.js'))) as ServerBuild)

// Issue 17: an anonymous GET/HEAD of a public page rendered less than its s-maxage ago is answered from this
// process's copy, with the same headers and validator (app/server/page-cache.server.ts; decision 0174). Any other
// request, and a miss, goes on to Remix; a miss carries its key so that a public page rendered for it is kept.
const buildVersion = typeof build === 'function' ? undefined : build.assets.version
app.use((req: Request, res: Response, next: NextFunction) => {
  const key = buildVersion ? pageCacheKey(req, buildVersion) : null
  if (!key) return next()
  const page = cachedPage(key)
  if (!page) {
    res.locals.pageCacheKey = key
    return next()
  }
  for (const [name, value] of page.headers) res.setHeader(name, value)
  res.setHeader('Vary', 'Accept-Encoding')
  if (ifNoneMatchHits(req.get('if-none-match') ?? null, page.etag)) {
    res.status(304).end()
    return
  }
  // The body compressed once for the page's life in the cache, instead of by the compression middleware on every
  // visit (it leaves a response that already has a Content-Encoding alone).
  const encoding = pageEncoding(req.get('accept-encoding'))
  // A HEAD gets the headers of the GET; it compresses nothing that has not been compressed yet.
  const body = encoding
    ? req.method === 'HEAD'
      ? page.encoded?.[encoding]
      : encodedBody(key, page, encoding)
    : page.body
  if (encoding) res.setHeader('Content-Encoding', encoding)
  res.status(page.status)
  if (body) res.setHeader('Content-Length', body.length)
  res.end(req.method === 'HEAD' ? undefined : body)
})

// Remix behind Express (app/server/http/remix-handler.server.ts: the stock adapter's behaviour, documents sent in one
// write).
app.all(
  '*',
  remixHandler({
    build,
    mode: env.NODE_ENV,
    getLoadContext: (req, res) => ({
      cspNonce: res.locals.cspNonce as string,
      cspPolicy: res.getHeader('Content-Security-Policy') as string | undefined,
      scope: res.locals.scope as RequestScope,
      pageCacheKey: res.locals.pageCacheKey as string | undefined,
      // A client-side navigation's data request (`?_data=`): Remix removes the parameter from the request it hands
      // to loaders, so a loader that answers those differently (deferred data) learns it here.
      dataRequest: req.query._data !== undefined,
    }),
  }),
)

const server = app.listen(env.PORT, () => {
  console.log(`Rankwell web listening on http://localhost:${env.PORT} (${env.NODE_ENV})`)
  // Decision 0353: what this server can do for customers, and which variable would switch on what it cannot.
  for (const line of capabilityReport('web')) console.log(line)
})
server.keepAliveTimeout = 65_000

/**
 * SIGTERM (a deploy, a scale-down): 1. draining at once: /healthz answers 503 'draining' and every response carries
 * `Connection: close`, while the port still accepts for SHUTDOWN_DRAIN_DELAY_MS so the proxy's health check sees it
 * (a request that still arrives is served normally); 2. the port closes (no new connections) and idle keep-alive
 * connections are closed; in-flight requests finish; 3. the process exits once they have, and at the latest
 * SHUTDOWN_TIMEOUT_MS after the signal (below fly.toml's kill_timeout).
 */
let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  draining = true
  const started = Date.now()
  for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false
  console.log(`Rankwell web draining (${signal}): /healthz answers 503 'draining'`)
  const force = setTimeout(() => {
    console.log(`Rankwell web stopping: ${inFlight.size} request(s) still running after ${env.SHUTDOWN_TIMEOUT_MS} ms`)
    server.closeAllConnections()
    process.exit(1)
  }, env.SHUTDOWN_TIMEOUT_MS)
  force.unref()
  // Ctrl-C in a terminal (SIGINT) has no proxy to tell: the port closes at once.
  if (signal === 'SIGTERM') await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DRAIN_DELAY_MS))
  console.log(`Rankwell web closing the port: finishing ${inFlight.size} in-flight request(s)`)
  // Connections that were kept alive by a response sent before the signal close as soon as they are idle.
  setInterval(() => server.closeIdleConnections(), 200).unref()
  server.close(async () => {
    const { closeDb } = await import('#app/platform/db/client.server')
    const { closeRedis } = await import('#app/platform/redis.server')
    const { closeQueues } = await import('#app/platform/queue/queues.server')
    metricsServer?.close()
    await Promise.allSettled([closeDb(), closeRedis(), closeQueues(), viteDevServer?.close(), flushSentry()])
    console.log(`Rankwell web stopped ${Date.now() - started} ms after ${signal}`)
    process.exit() // 0, or 1 after an uncaught exception (process.exitCode)
  })
  server.closeIdleConnections()
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
installProcessGuards('web', (reason) => void shutdown(reason))
