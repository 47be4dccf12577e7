import { Redis, type RedisOptions } from 'ioredis'
import { getEnv } from './env.server'

declare global {
  var __rankwellRedis: Redis | undefined
}

/**
 * The web process's connection: a command waits at most REDIS_COMMAND_TIMEOUT_MS (also while it waits for a
 * connection) and is not retried after a failed reconnection, so requests answer with an error instead of hanging.
 */
export function redis(): Redis {
  globalThis.__rankwellRedis ??= createRedis({
    maxRetriesPerRequest: 1,
    commandTimeout: getEnv().REDIS_COMMAND_TIMEOUT_MS,
  })
  return globalThis.__rankwellRedis
}

/**
 * The connection, or null while it is known to be down (it lost Redis and is waiting to reconnect): callers that
 * have a fallback (rate limits) skip Redis at once instead of waiting for a command to time out.
 */
export function redisUnlessDown(): Redis | null {
  const client = redis()
  return client.status === 'reconnecting' || client.status === 'close' || client.status === 'end' ? null : client
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
