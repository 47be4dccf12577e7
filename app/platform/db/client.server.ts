import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { getEnv } from '#app/platform/env.server'
import * as schema from './schema'

export { schema }
export type Db = PostgresJsDatabase<typeof schema>

declare global {
  var __rankwellDb: { sql: postgres.Sql; db: Db } | undefined
}

function connect() {
  const env = getEnv()
  // Short connect and statement timeouts: when Postgres is down or stuck a query fails within seconds (and the
  // request answers 503, see outage.server.ts) instead of waiting. The driver takes seconds; the env, milliseconds.
  const client = postgres(env.DATABASE_URL, {
    max: env.DATABASE_POOL_SIZE,
    idle_timeout: env.DATABASE_IDLE_TIMEOUT_MS / 1000,
    connect_timeout: env.DATABASE_CONNECT_TIMEOUT_MS / 1000,
    connection: { statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS },
    // The driver's default waits 3^n/100 s (up to 20 s) before a connection that failed may connect again, n
    // counting every failure of the pool: queries would sit behind that wait during an outage and for seconds after
    // it. A short, capped pause (0.1 s per failure, at most 1 s) keeps answers quick in both cases.
    backoff: (failures: number) => Math.min(0.1 * failures, 1),
    onnotice: () => {},
  })
  return { sql: client, db: drizzle(client, { schema }) }
}

/** One pool per process (kept across dev hot reloads). */
function instance() {
  globalThis.__rankwellDb ??= connect()
  return globalThis.__rankwellDb
}

export const db: Db = new Proxy({} as Db, {
  get(_t, prop) {
    return Reflect.get(instance().db, prop)
  },
})

export function sqlClient() {
  return instance().sql
}

/**
 * A drizzle query built once per connection pool instead of on every call (issue 17: building the SQL text of the
 * hot queries of a signed-in page was about a tenth of its CPU). `build` takes its inputs as `sql.placeholder`s;
 * a reconnect (tests close and reopen the pool) builds it again.
 */
export function preparedQuery<Q>(build: (db: Db) => Q): () => Q {
  let cached: { client: unknown; query: Q } | undefined
  return () => {
    const client = sqlClient()
    if (cached?.client !== client) cached = { client, query: build(instance().db) }
    return cached.query
  }
}

export async function closeDb() {
  const current = globalThis.__rankwellDb
  globalThis.__rankwellDb = undefined
  await current?.sql.end({ timeout: 5 })
}
