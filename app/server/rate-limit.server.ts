import { getEnv } from './env.server'
import { redis } from './redis.server'

/**
 * Fixed-window rate limits in Redis (shared by every web process). `hit` counts one attempt and says whether
 * it is allowed; when Redis is unreachable the limiter fails closed for safety-critical buckets.
 */
export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number }

export async function hit(
  bucket: string,
  opts: { limit: number; windowSeconds: number; failOpen?: boolean },
): Promise<RateLimitResult> {
  const key = `rl:${bucket}:${Math.floor(Date.now() / 1000 / opts.windowSeconds)}`
  try {
    const results = await redis().multi().incr(key).expire(key, opts.windowSeconds, 'NX').exec()
    const count = Number(results?.[0]?.[1] ?? 0)
    const windowEnd = (Math.floor(Date.now() / 1000 / opts.windowSeconds) + 1) * opts.windowSeconds
    return {
      allowed: count <= opts.limit,
      remaining: Math.max(0, opts.limit - count),
      retryAfterSeconds: Math.max(1, windowEnd - Math.floor(Date.now() / 1000)),
    }
  } catch {
    return { allowed: Boolean(opts.failOpen), remaining: 0, retryAfterSeconds: 60 }
  }
}

/** Clears a bucket's current window (e.g. after a successful sign-in). */
export async function resetBucket(bucket: string, windowSeconds: number) {
  const key = `rl:${bucket}:${Math.floor(Date.now() / 1000 / windowSeconds)}`
  await redis()
    .del(key)
    .catch(() => {})
}

/**
 * The client's IP address: Fly's proxy header when deployed there, X-Forwarded-For only when TRUST_FORWARDED_FOR
 * says a trusted proxy sets it, otherwise the socket's address (server.ts overwrites any client-sent value).
 */
export function clientIp(request: Request): string {
  const fly = request.headers.get('fly-client-ip')
  if (fly) return fly.trim()
  if (getEnv().TRUST_FORWARDED_FOR) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return request.headers.get('x-rankwell-client-ip') ?? 'unknown'
}
