import { Redis, type RedisOptions } from 'ioredis'
import { getEnv } from './env.server'

declare global {
  var __rankwellRedis: Redis | undefined
}

/**
 * The web process's connection: a command waits at most 3 s and is not retried when Redis is down,
 * so requests answer with an error instead of hanging.
 */
export function redis(): Redis {
  globalThis.__rankwellRedis ??= createRedis({ maxRetriesPerRequest: 1, commandTimeout: 3_000 })
  return globalThis.__rankwellRedis
}

export function createRedis(options: RedisOptions = {}): Redis {
  const client = new Redis(getEnv().REDIS_URL, {
    lazyConnect: false,
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...options,
  })
  client.on('error', (err) => {
    if (getEnv().LOG_LEVEL === 'debug') console.error('[redis]', err.message)
  })
  return client
}

export async function closeRedis() {
  const current = globalThis.__rankwellRedis
  globalThis.__rankwellRedis = undefined
  if (current) await current.quit().catch(() => current.disconnect())
}
