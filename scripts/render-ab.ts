// `npm run bench:render -- <build> [<build> ...]`: the CPU a page costs in Remix's document handler, in-process and
// sequential, for one build or several side by side (issue 39). Each build folder (e.g. `build`, or a copy of an
// earlier build) is loaded into this one process, and the routes are requested from each in turn, round after round,
// so that a change of 10% shows through the noise of a shared machine (the HTTP bench's figures move by ±15% from run
// to run). Printed per route and build: the median over the rounds of the CPU ms per request, and for the last round
// the wall time, the time inside React's renderToString and inside Buffer.from (the document's encoding).
//
// The services are fresh (embedded Postgres, Redis), with a user who has 50 saved keywords (as `npm run bench -- web`).
// RENDER_ROUTES (comma-separated, default the web bench's rendered and signed-in pages), RENDER_ROUNDS (default 5),
// RENDER_N (requests per route, build and round; default 200), RENDER_PROFILE=<folder> (a V8 CPU profile per route of
// the first build, taken after the rounds).
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Session } from 'node:inspector/promises'
import { appEnv, provisionServices, runScript, type Cleanups } from './lib/app'

const builds = process.argv.slice(2).filter((a) => !a.startsWith('-'))
if (builds.length === 0) builds.push('build')
const SIGNED_IN = new Set(['/keywords', '/blogposts', '/profile'])
const routes = (
  process.env.RENDER_ROUTES ?? '/,/pricing,/free-tools,/signin,/blog,/keywords,/blogposts,/profile'
).split(',')
const rounds = Number(process.env.RENDER_ROUNDS ?? 5)
const perRun = Number(process.env.RENDER_N ?? 200)

// renderToString and Buffer.from, timed: wrapped before any build imports them (a build binds the CommonJS export
// it finds when it is first imported).
const require = createRequire(import.meta.url)
const reactDomServer = require('react-dom/server') as { renderToString: (...args: unknown[]) => string }
const timing = { render: 0, encode: 0 }
const renderToString = reactDomServer.renderToString
reactDomServer.renderToString = (...args) => {
  const started = performance.now()
  try {
    return renderToString(...args)
  } finally {
    timing.render += performance.now() - started
  }
}
const bufferFrom = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer
;(Buffer as unknown as { from: (...args: unknown[]) => Buffer }).from = (...args) => {
  const started = performance.now()
  try {
    return bufferFrom(...args)
  } finally {
    timing.encode += performance.now() - started
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const cleanups: Cleanups = []
await runScript(cleanups, async () => {
  const services = await provisionServices({ purpose: 'render', runId: `render_${Date.now().toString(36)}`, cleanups })
  Object.assign(
    process.env,
    appEnv(services, {
      SESSION_SECRET: 'bench-secret',
      ENCRYPTION_KEY: 'bench-encryption-key',
      QUEUE_PREFIX: 'rankwell-render',
    }),
  )
  const { webBenchUser } = await import('../bench/fixtures')
  const { newRequestScope, runInRequestScope } = await import('#app/platform/http/request-scope.server')
  const { createRequestHandler, installGlobals } = await import('@remix-run/node')
  installGlobals({ nativeFetch: true })
  const cookie = await webBenchUser(50)

  const handlers = new Map<string, ReturnType<typeof createRequestHandler>>()
  for (const dir of builds)
    handlers.set(dir, createRequestHandler(await import(path.resolve(dir, 'server/index.js')), 'production'))

  /** One document request as server.ts makes it (a request scope, a CSP nonce), its body read whole. */
  async function request(dir: string, route: string) {
    const scope = newRequestScope()
    const nonce = crypto.randomBytes(16).toString('base64')
    // A cookie that is no session bypasses nothing here (no page cache in-process) but matches the web bench.
    const headers = { Cookie: SIGNED_IN.has(route) ? cookie : 'rankwell-bench=render', Accept: 'text/html' }
    const res = await runInRequestScope(scope, () =>
      handlers.get(dir)!(new Request(`http://localhost:3000${route}`, { headers }), {
        cspNonce: nonce,
        cspPolicy: `script-src 'nonce-${nonce}'`,
        scope,
        dataRequest: false,
      }),
    )
    const bytes = (await res.arrayBuffer()).byteLength
    if (res.status !== 200) throw new Error(`${dir} ${route}: ${res.status}`)
    return bytes
  }

  console.log(`${rounds} rounds × ${perRun} requests per route and build; CPU ms per request (median of the rounds)`)
  for (const route of routes) {
    const cpu = new Map<string, number[]>()
    const last = new Map<string, string>()
    let bytes = 0
    for (const dir of builds) for (let i = 0; i < perRun; i++) await request(dir, route) // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const dir of builds) {
        timing.render = 0
        timing.encode = 0
        const wall = performance.now()
        const before = process.cpuUsage()
        for (let i = 0; i < perRun; i++) bytes = await request(dir, route)
        const used = process.cpuUsage(before)
        cpu.set(dir, [...(cpu.get(dir) ?? []), (used.user + used.system) / 1000 / perRun])
        last.set(
          dir,
          `wall ${((performance.now() - wall) / perRun).toFixed(2)}, renderToString ${(timing.render / perRun).toFixed(2)}, ` +
            `Buffer.from ${(timing.encode / perRun).toFixed(2)}`,
        )
      }
    }
    console.log(`${route} (${bytes} bytes)`)
    for (const dir of builds)
      console.log(`  ${dir.padEnd(24)} ${median(cpu.get(dir)!).toFixed(2).padStart(7)} ms CPU   (${last.get(dir)} ms)`)
    if (process.env.RENDER_PROFILE) {
      const session = new Session()
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.start')
      for (let i = 0; i < perRun; i++) await request(builds[0]!, route)
      const { profile } = await session.post('Profiler.stop')
      fs.mkdirSync(process.env.RENDER_PROFILE, { recursive: true })
      fs.writeFileSync(
        path.join(process.env.RENDER_PROFILE, `${encodeURIComponent(route)}.cpuprofile`),
        JSON.stringify(profile),
      )
      session.disconnect()
    }
  }
})
