import { getEnv, type Env } from './env.server'
import { recordQuotaRefusal } from './metrics.server'
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
    // Refusals count on /metrics by the bucket's family (its name up to the first ':'), never per user or address.
    if (count > opts.limit) recordQuotaRefusal(`rate_limit:${bucket.split(':')[0]}`)
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
 * The client's IP address for rate limits. By default (TRUST_PROXY=none) the socket's address, which server.ts
 * copies into a header after removing any client-sent value; no request header can move a client to another
 * bucket. Behind a known proxy: `fly` → Fly-Client-IP, `cloudflare` → CF-Connecting-IP, a number N → the Nth
 * address from the right of X-Forwarded-For (the one the Nth trusted proxy saw), never the client-written leftmost.
 */
export function clientIp(request: Request, trust: Env['TRUST_PROXY'] = getEnv().TRUST_PROXY): string {
  const socket = request.headers.get('x-rankwell-client-ip')?.trim() || 'unknown'
  if (trust === 'none') return socket
  if (trust === 'fly' || trust === 'cloudflare') {
    const value = request.headers.get(trust === 'fly' ? 'fly-client-ip' : 'cf-connecting-ip')?.trim()
    return value || socket
  }
  const hops = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  // With N trusted proxies the last N entries were written by them; the Nth from the right is the client they saw.
  return hops.length >= trust ? hops[hops.length - trust]! : socket
}
