import { getEnv, type Env } from '#app/platform/env.server'
import { recordQuotaRefusal } from '#app/platform/observability/metrics.server'
import { redisUnlessDown } from '#app/platform/redis.server'

/**
 * Fixed-window rate limits in Redis (shared by every web process). `hit` counts one attempt and says whether
 * it is allowed. When Redis is unreachable, a `failOpen` bucket lets the attempt through; every other bucket (sign-in,
 * sign-up, password resets…) falls back to a stricter limit counted in this process: half the limit, so that even a
 * few processes together stay near it (decision 0125). Users keep signing in during a Redis outage, and are never
 * told 'Too many attempts' because Redis is away.
 */
export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number }

type Limit = { limit: number; windowSeconds: number; failOpen?: boolean }

const windowOf = (windowSeconds: number, now = Date.now()) => Math.floor(now / 1000 / windowSeconds)
const secondsLeft = (windowSeconds: number, now = Date.now()) =>
  Math.max(1, (windowOf(windowSeconds, now) + 1) * windowSeconds - Math.floor(now / 1000))

export async function hit(bucket: string, opts: Limit): Promise<RateLimitResult> {
  const result = await count(bucket, opts)
  // Refusals count on /metrics by the bucket's family (its name up to the first ':'), never per user or address.
  if (!result.allowed) recordQuotaRefusal(`rate_limit:${bucket.split(':')[0]}`)
  return result
}

async function count(bucket: string, opts: Limit): Promise<RateLimitResult> {
  const key = `rl:${bucket}:${windowOf(opts.windowSeconds)}`
  const client = redisUnlessDown()
  if (client) {
    try {
      const results = await client.multi().incr(key).expire(key, opts.windowSeconds, 'NX').exec()
      const failed = results?.find(([error]) => error)?.[0]
      if (failed) throw failed
      const count = Number(results?.[0]?.[1] ?? 0)
      return {
        allowed: count <= opts.limit,
        remaining: Math.max(0, opts.limit - count),
        retryAfterSeconds: secondsLeft(opts.windowSeconds),
      }
    } catch {
      // Redis is unreachable: fall through to the fallback below.
    }
  }
  if (opts.failOpen) return { allowed: true, remaining: 0, retryAfterSeconds: 60 }
  return localHit(key, { limit: Math.max(1, Math.floor(opts.limit / 2)), windowSeconds: opts.windowSeconds })
}

// The in-process fallback: counts per key and window, dropped once their window is over.
const local = new Map<string, { count: number; endsAt: number }>()
const LOCAL_MAX_KEYS = 50_000

function localHit(key: string, opts: { limit: number; windowSeconds: number }): RateLimitResult {
  const now = Date.now()
  if (local.size >= LOCAL_MAX_KEYS) for (const [k, v] of local) if (v.endsAt <= now) local.delete(k)
  // Still full (very many clients at once): the oldest key makes room.
  if (local.size >= LOCAL_MAX_KEYS && !local.has(key)) local.delete(local.keys().next().value!)
  const endsAt = (windowOf(opts.windowSeconds, now) + 1) * opts.windowSeconds * 1000
  const entry = local.get(key) ?? { count: 0, endsAt }
  entry.count++
  local.set(key, entry)
  return {
    allowed: entry.count <= opts.limit,
    remaining: Math.max(0, opts.limit - entry.count),
    retryAfterSeconds: secondsLeft(opts.windowSeconds, now),
  }
}

/** Clears a bucket's current window (e.g. after a successful sign-in). */
export async function resetBucket(bucket: string, windowSeconds: number) {
  const key = `rl:${bucket}:${windowOf(windowSeconds)}`
  local.delete(key)
  await redisUnlessDown()
    ?.del(key)
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
