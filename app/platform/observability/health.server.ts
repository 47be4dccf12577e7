import { sqlClient } from '#app/platform/db/client.server'
import { redis } from '#app/platform/redis.server'

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ])
}

export async function checkHealth() {
  const [postgres, redisCheck] = await Promise.allSettled([
    withTimeout(sqlClient()`select 1 as ok`, 2_000),
    withTimeout(redis().ping(), 2_000),
  ])
  const result = {
    ok: postgres.status === 'fulfilled' && redisCheck.status === 'fulfilled',
    postgres: postgres.status === 'fulfilled' ? 'up' : 'down',
    redis: redisCheck.status === 'fulfilled' ? 'up' : 'down',
  }
  return result
}
