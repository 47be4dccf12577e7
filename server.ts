import crypto from 'node:crypto'
import path from 'node:path'
import { createRequestHandler } from '@remix-run/express'
import { installGlobals, type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express, { type NextFunction, type Request, type Response } from 'express'
import { getEnv } from '#app/server/env.server'
import { letRemixReplaceHeaders } from '#app/server/http-cache.server'
import { newRequestScope, runInRequestScope, type RequestScope } from '#app/server/request-scope.server'
import { checkOrigin, formTargets, securityHeaders } from '#app/server/security.server'
import { staticFiles } from '#app/server/static-files.server'

installGlobals({ nativeFetch: true })

const env = getEnv()
const isProduction = env.NODE_ENV === 'production'
const buildDir = path.resolve(process.env.REMIX_BUILD_DIR ?? 'build')
const headerOptions = { dev: !isProduction, formTargets: formTargets(env), analytics: Boolean(env.ANALYTICS_GA4_ID) }

const viteDevServer = isProduction
  ? undefined
  : await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } }))

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', true)

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

// The socket's address, for rate limits; never taken from the client.
app.use((req: Request, _res: Response, next: NextFunction) => {
  req.headers['x-rankwell-client-ip'] = req.socket.remoteAddress ?? 'unknown'
  next()
})
// A per-request nonce for the Content-Security-Policy, handed to <Scripts> through the load context.
app.use((_req: Request, res: Response, next: NextFunction) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
  next()
})
app.use((req: Request, res: Response, next: NextFunction) => {
  for (const [name, value] of Object.entries(securityHeaders(res.locals.cspNonce as string, headerOptions)))
    res.setHeader(name, value)
  next()
})
// Cookie-authenticated writes must come from our own site (on top of SameSite=Lax).
app.use((req: Request, res: Response, next: NextFunction) => {
  const problem = checkOrigin({
    method: req.method,
    path: req.path,
    origin: req.get('origin'),
    secFetchSite: req.get('sec-fetch-site'),
    host: req.get('host'),
    hasCookie: Boolean(req.get('cookie')),
    hasBearer: /^Bearer\s/i.test(req.get('authorization') ?? ''),
  })
  if (problem) {
    res.status(403).json({ message: problem })
    return
  }
  next()
})

if (viteDevServer) {
  app.use(viteDevServer.middlewares)
  app.use(express.static('public', { maxAge: '1h' }))
} else {
  app.use(staticFiles(path.join(buildDir, 'client')))
}

// One scope per request for memoised lookups (the signed-in user), reachable from loaders and session helpers.
app.use((_req: Request, res: Response, next: NextFunction) => {
  const scope = newRequestScope()
  res.locals.scope = scope
  letRemixReplaceHeaders(res)
  runInRequestScope(scope, next)
})

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  : ((await import(path.resolve(buildDir, 'server/index.js'))) as ServerBuild)

app.all(
  '*',
  createRequestHandler({
    build,
    mode: env.NODE_ENV,
    getLoadContext: (_req, res) => ({
      cspNonce: res.locals.cspNonce as string,
      cspPolicy: res.getHeader('Content-Security-Policy') as string | undefined,
      scope: res.locals.scope as RequestScope,
    }),
  }),
)

const server = app.listen(env.PORT, () => {
  console.log(`Rankwell web listening on http://localhost:${env.PORT} (${env.NODE_ENV})`)
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
    const { closeDb } = await import('#app/server/db.server')
    const { closeRedis } = await import('#app/server/redis.server')
    const { closeQueues } = await import('#app/jobs/queues.server')
    await Promise.allSettled([closeDb(), closeRedis(), closeQueues(), viteDevServer?.close()])
    console.log(`Rankwell web stopped ${Date.now() - started} ms after ${signal}`)
    process.exit(0)
  })
  server.closeIdleConnections()
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
