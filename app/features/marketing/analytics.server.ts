import { sanitizePath } from './analytics'
import { analyticsPayload } from './analytics-schema'
import { db, schema } from '#app/platform/db/client.server'
import { clientIp, hit } from '#app/platform/security/rate-limit.server'

/**
 * Our own analytics, used when no GA4 id is configured: page views and web-vitals metrics stored in
 * analytics_events. No cookies and no IP addresses are stored; the IP is only used for the rate limit.
 */
export const EVENTS_LIMIT = { limit: 120, windowSeconds: 60 }

export type EventsOutcome =
  { status: 204; stored: number } | { status: 400 | 429; message: string; retryAfterSeconds?: number }

export async function recordEvents(raw: unknown, request: Request): Promise<EventsOutcome> {
  const parsed = analyticsPayload.safeParse(raw)
  if (!parsed.success) return { status: 400, message: 'Invalid analytics event.' }
  const limited = await hit(`events:${clientIp(request)}`, { ...EVENTS_LIMIT, failOpen: true })
  if (!limited.allowed)
    return { status: 429, message: 'Too many events.', retryAfterSeconds: limited.retryAfterSeconds }
  await db.insert(schema.analyticsEvents).values(
    parsed.data.map((event) => ({
      type: event.type,
      path: sanitizePath(event.path),
      name: event.type === 'web-vital' ? event.name : null,
      value: event.type === 'web-vital' ? event.value : null,
    })),
  )
  return { status: 204, stored: parsed.data.length }
}
