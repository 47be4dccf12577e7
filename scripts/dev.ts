// `npm run dev`: Postgres and Redis (embedded defaults), migrations, the demo account, local fakes for every
// third-party service without credentials, then the web app with hot reload and the worker. Ctrl-C stops all.
import path from 'node:path'
import { migrateDatabase } from './lib/migrate'
import { DEMO } from './lib/seed'
import {
  ensureDatabase,
  log,
  portIsFree,
  run,
  startPostgres,
  startProcess,
  startRedis,
  stopProcess,
} from './lib/services'
import { missingServices } from './lib/offline'
import { developmentSecrets } from './lib/secrets'

const root = process.cwd()
const PORT = Number(process.env.PORT ?? 3000)
const stops: Array<() => Promise<void>> = []
let stopping = false

async function shutdown(code = 0) {
  if (stopping) return
  stopping = true
  log('stopping everything that was started…')
  for (const stop of stops.reverse()) await stop().catch(() => {})
  process.exit(code)
}
process.on('SIGINT', () => void shutdown(0))
process.on('SIGTERM', () => void shutdown(0))

try {
  if (!(await portIsFree(PORT))) {
    log(`port ${PORT} is busy: is another 'npm run dev' running? Set PORT to use another one.`)
    process.exit(1)
  }
  const pg = await startPostgres({
    dataDir: path.join(root, '.data/postgres'),
    port: Number(process.env.PGPORT_DEV ?? 5433),
    persistent: true,
  })
  stops.push(pg.stop)
  const redis = await startRedis({
    dataDir: path.join(root, '.data/redis'),
    port: Number(process.env.REDIS_PORT_DEV ?? 6380),
    persistent: true,
  })
  stops.push(redis.stop)

  const databaseUrl = process.env.DATABASE_URL ?? (await ensureDatabase(pg.url, 'rankwell'))
  await migrateDatabase(databaseUrl)
  log('migrations applied')

  // Random secrets of this data directory (created on the first run), unless the environment gives its own.
  const secrets = developmentSecrets(path.join(root, '.data'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SESSION_SECRET: process.env.SESSION_SECRET || secrets.SESSION_SECRET,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY || secrets.ENCRYPTION_KEY,
    NODE_ENV: 'development',
    PORT: String(PORT),
    APP_URL: process.env.APP_URL ?? `http://localhost:${PORT}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    // The local fakes and a local WordPress or Ghost are on loopback: each kind of outgoing request may reach it.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true',
    RESEARCH_ALLOW_PRIVATE_NETWORKS: process.env.RESEARCH_ALLOW_PRIVATE_NETWORKS ?? 'true',
    CMS_ALLOW_PRIVATE_NETWORKS: process.env.CMS_ALLOW_PRIVATE_NETWORKS ?? 'true',
  }

  const missing = missingServices(env)
  if (missing.length) {
    const { startFakes } = await import('../tests/fakes/index')
    const fakes = await startFakes({ only: missing, stripeWebhookUrl: `http://localhost:${PORT}/api/stripe/webhook` })
    stops.push(fakes.close)
    Object.assign(env, fakes.env, { OFFLINE_SERVICES: missing.join(',') })
    log(`offline services (local fakes, no credentials set): ${missing.join(', ')}`)
  }

  const seeded = await run(path.join(root, 'node_modules/.bin/tsx'), ['scripts/seed.ts'], env)
  if (seeded !== 0) throw new Error('seeding the demo account failed')

  const tsx = path.join(root, 'node_modules/.bin/tsx')
  const web = startProcess('web', tsx, ['server.ts'], env)
  const worker = startProcess('worker', tsx, ['watch', '--clear-screen=false', 'worker/index.ts'], env)
  stops.push(
    () => stopProcess(web),
    () => stopProcess(worker),
  )
  web.on('exit', (code) => {
    if (!stopping) {
      log(`web exited (${code})`)
      void shutdown(1)
    }
  })
  log(`ready: http://localhost:${PORT}  —  demo account ${DEMO.email} / ${DEMO.password}`)
} catch (error) {
  console.error(error)
  await shutdown(1)
}
