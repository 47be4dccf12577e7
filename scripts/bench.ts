// `npm run bench`: the production build against fresh Postgres and Redis (and local fakes for the providers),
// then every benchmark module in bench/ in name order. Each prints its own figures.
import fs from 'node:fs'
import path from 'node:path'
import { appEnv, buildApp, provisionServices, runScript, startWeb, waitForApp, type Cleanups } from './lib/app'
import { log } from './lib/services'
import type { BenchContext } from '../bench/context'

const root = process.cwd()
const filter = process.argv.slice(2).find((a) => !a.startsWith('-'))
const cleanups: Cleanups = []

async function main() {
  const services = await provisionServices({ purpose: 'bench', runId: `bench_${Date.now().toString(36)}`, cleanups })
  const { appUrl, fakes } = services
  const env = appEnv(services, {
    SESSION_SECRET: 'bench-secret',
    ENCRYPTION_KEY: 'bench-encryption-key',
    QUEUE_PREFIX: 'rankwell-bench',
    // No proxy to tell: the web process exits at once on SIGTERM, within stopProcess's wait (so that a CPU profile,
    // WEB_CPU_PROF_DIR, is written: the default 10 s drain ended in a SIGKILL).
    SHUTDOWN_DRAIN_DELAY_MS: '0',
    // The three private-network switches (the fakes are on loopback) and METRICS_TOKEN come with appEnv.
  })
  Object.assign(process.env, env)
  // The shared build/ folder: rebuilt unless BENCH_REBUILD=0 and a build is there.
  if (!fs.existsSync(path.join(root, 'build/server/index.js')) || process.env.BENCH_REBUILD !== '0') {
    if ((await buildApp(env)) !== 0) throw new Error('build failed')
  }
  const web = startWeb(env, { quiet: true, cleanups })
  await waitForApp(env)

  const ctx: BenchContext = { appUrl, env, webPid: web.pid!, fakes: fakes.env, root }
  const modules = fs
    .readdirSync(path.join(root, 'bench'))
    .filter((f) => /^\d\d-.*\.ts$/.test(f))
    .filter((f) => !filter || f.includes(filter))
    .sort()
  for (const file of modules) {
    log(`── bench/${file}`)
    const mod = (await import(path.join(root, 'bench', file))) as { default: (ctx: BenchContext) => Promise<void> }
    await mod.default(ctx)
  }
}

await runScript(cleanups, main)
