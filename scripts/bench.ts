// `npm run bench`: the production build against fresh Postgres and Redis (and local fakes for the providers),
// then every benchmark module in bench/ in name order. Each prints its own figures.
import fs from 'node:fs'
import path from 'node:path'
import { migrateDatabase } from './lib/migrate'
import { ensureDatabase, freePort, log, run, startPostgres, startProcess, startRedis, stopProcess, tmpDir, waitForHttp } from './lib/services'
import type { BenchContext } from '../bench/context'

const root = process.cwd()
const filter = process.argv.slice(2).find((a) => !a.startsWith('-'))
const cleanups: Array<() => Promise<void>> = []

try {
  const scratch = tmpDir('rankwell-bench-')
  cleanups.push(async () => fs.rmSync(scratch, { recursive: true, force: true }))
  const pg = await startPostgres({ dataDir: path.join(scratch, 'postgres'), port: await freePort(), persistent: false })
  cleanups.push(pg.stop)
  const redis = await startRedis({ dataDir: path.join(scratch, 'redis'), port: await freePort(), persistent: false })
  cleanups.push(redis.stop)
  const databaseUrl = await ensureDatabase(pg.url, `rankwell_bench_${Date.now().toString(36)}`)
  await migrateDatabase(databaseUrl)
  const port = await freePort()
  const appUrl = `http://localhost:${port}`
  const { startFakes } = await import('../tests/fakes/index')
  const fakes = await startFakes({ stripeWebhookUrl: `${appUrl}/api/stripe/webhook` })
  cleanups.push(fakes.close)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...fakes.env,
    NODE_ENV: 'production',
    PORT: String(port),
    APP_URL: appUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    SESSION_SECRET: 'bench-secret',
    QUEUE_PREFIX: 'rankwell-bench',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  }
  Object.assign(process.env, env)
  if (!fs.existsSync(path.join(root, 'build/server/index.js')) || process.env.BENCH_REBUILD !== '0') {
    if ((await run('npm', ['run', 'build', '--silent'], env)) !== 0) throw new Error('build failed')
  }
  const web = startProcess('web', process.execPath, ['--import', 'tsx', 'server.ts'], env, { quiet: true })
  cleanups.push(() => stopProcess(web))
  await waitForHttp(`${appUrl}/healthz`)

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
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
}
process.exit(process.exitCode ?? 0)
