import { z } from 'zod'
import { WEB_VITALS } from './analytics'
import { safeText } from '#app/platform/security/safe-text'

/** What POST /api/events accepts: one event or a batch of up to 20. */
export const analyticsEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pageview'), path: safeText().min(1).max(2000).startsWith('/') }),
  z.object({
    type: z.literal('web-vital'),
    path: safeText().min(1).max(2000).startsWith('/'),
    name: z.enum(WEB_VITALS),
    value: z.number().finite().min(0).max(3_600_000),
  }),
])

export const analyticsPayload = z.union([
  analyticsEvent.transform((e) => [e]),
  z.object({ events: z.array(analyticsEvent).min(1).max(20) }).transform((b) => b.events),
])
