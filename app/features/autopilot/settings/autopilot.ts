import { z } from 'zod'
import { difficultyRank } from '#app/features/keywords/difficulty'

/**
 * Auto Pilot's pure rules: webhook URL validation and cadence choices (with the forms' schemas), the schedule slot of a run, which keyword
 * to write about next, and the webhook retry schedule. No I/O here; the server modules call these.
 */

/** The screen's and the API's copy (the spec's toasts verbatim). */
export const AUTOPILOT_MESSAGES = {
  enabled: 'Auto Pilot Enabled.',
  disabled: 'Auto Pilot Disabled.',
  toggleFailed: 'Failed to toggle Auto Pilot.',
  planRequired: 'Auto Pilot is included in Premium and in the free trial. Upgrade in your profile to use it.',
  webhookSaved: 'Webhook URL saved successfully.',
  webhookFailed: 'Failed to save Webhook URL.',
  userFailed: 'Failed to fetch user data.',
  statusFailed: 'Failed to fetch Auto Pilot status.',
  quotaNotice:
    "Auto Pilot paused: you have used this period's blog posts. It resumes when your quota renews, or upgrade in your profile.",
  planNotice: 'Auto Pilot paused: your plan does not include Auto Pilot. Upgrade in your profile to resume.',
  detailsNotice:
    'Auto Pilot needs your business details (product/service or ideal customer). Add them in your profile.',
  noKeywordNotice:
    'Auto Pilot found no new keyword ideas for your business details this time. It will try again at the next run.',
  unavailableNotice: 'Auto Pilot could not write a post this time: AI writing or keyword research is unavailable.',
} as const

export const WEBHOOK_URL_MESSAGES = {
  empty: 'Webhook URL cannot be empty.',
  invalid: 'Please enter a valid URL.',
} as const

/** The spec's pattern: optional http/https, a domain or an IPv4 address, an optional port, an optional path. */
const WEBHOOK_URL_PATTERN =
  /^(?:(https?):\/\/)?((?:(?!-)[a-z\d-]{1,63}(?<!-)\.)+[a-z]{2,63}|(?:\d{1,3}\.){3}\d{1,3})(?::(\d{1,5}))?(\/[^\s]*)?$/i

export type WebhookUrlResult = { ok: true; url: string } | { ok: false; error: string }

/** Validates a webhook URL as typed by the user; stores it with https:// added when the scheme is missing. */
export function parseWebhookUrl(input: unknown): WebhookUrlResult {
  const value = typeof input === 'string' ? input.trim() : ''
  if (!value) return { ok: false, error: WEBHOOK_URL_MESSAGES.empty }
  const match = WEBHOOK_URL_PATTERN.exec(value)
  if (!match) return { ok: false, error: WEBHOOK_URL_MESSAGES.invalid }
  const host = match[2]!
  if (/^[\d.]+$/.test(host) && host.split('.').some((octet) => Number(octet) > 255)) {
    return { ok: false, error: WEBHOOK_URL_MESSAGES.invalid }
  }
  if (match[3] !== undefined && (Number(match[3]) < 1 || Number(match[3]) > 65535)) {
    return { ok: false, error: WEBHOOK_URL_MESSAGES.invalid }
  }
  const withScheme = match[1] ? value : `https://${value}`
  try {
    const url = new URL(withScheme)
    if (url.username || url.password) return { ok: false, error: WEBHOOK_URL_MESSAGES.invalid }
    return { ok: true, url: url.toString() }
  } catch {
    return { ok: false, error: WEBHOOK_URL_MESSAGES.invalid }
  }
}

/**
 * The webhook URL form of /autopilot and its JSON twin (decision 0311): the spec's messages under `webhookUrl`; the
 * value becomes the URL to store.
 */
export const webhookUrlForm = z.object({
  webhookUrl: z
    .string({ required_error: WEBHOOK_URL_MESSAGES.empty, invalid_type_error: WEBHOOK_URL_MESSAGES.empty })
    .transform((value, ctx) => {
      const parsed = parseWebhookUrl(value)
      if (parsed.ok) return parsed.url
      ctx.addIssue({ code: 'custom', message: parsed.error })
      return z.NEVER
    }),
})

export const CADENCE_OPTIONS = [
  { value: '1', label: '1 post a day' },
  { value: '2', label: '1 post every 2 days' },
  { value: '3', label: '1 post every 3 days' },
  { value: '4', label: '1 post every 4 days' },
  { value: '5', label: '1 post every 5 days' },
  { value: '6', label: '1 post every 6 days' },
  { value: '7', label: '1 post a week' },
] as const

export const DAY_MS = 24 * 3600 * 1000

export function parseCadence(input: unknown): number | null {
  const n = Number(input)
  return Number.isInteger(n) && n >= 1 && n <= 7 ? n : null
}

export const CADENCE_MESSAGE = 'Choose how often Auto Pilot writes.'

/** The schedule form of /autopilot: how often Auto Pilot writes, 1 to 7 days. */
export const cadenceForm = z.object({
  cadenceDays: z
    .string({ required_error: CADENCE_MESSAGE, invalid_type_error: CADENCE_MESSAGE })
    .transform((value, ctx) => {
      const days = parseCadence(value)
      if (days !== null) return days
      ctx.addIssue({ code: 'custom', message: CADENCE_MESSAGE })
      return z.NEVER
    }),
})

/**
 * The slot a scheduled run belongs to: the UTC date of its scheduled time. Runs of one schedule are at least a
 * day apart, so each gets its own date; a second run on the same date (a re-enabled schedule, a duplicate job,
 * another worker) finds the slot taken.
 */
export function slotFor(scheduledAt: Date | number): string {
  return new Date(scheduledAt).toISOString().slice(0, 10)
}

/** The scheduled time of a job made by a BullMQ job scheduler: its id ends with `:<millis>`. */
export function scheduledTimeOf(job: { id?: string | null; timestamp: number; delay?: number }): number {
  const fromId = /:(\d{10,})$/.exec(job.id ?? '')
  if (fromId) return Number(fromId[1])
  return job.timestamp + (job.delay ?? 0)
}

export type Candidate = {
  id: string
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
}

export const normalizeKeyword = (keyword: string) => keyword.trim().toLowerCase().replace(/\s+/g, ' ')

/**
 * The best unused opportunity: the easiest difficulty band first, then the highest volume, then the lower
 * difficulty; never a keyword already written (compared case- and space-insensitively).
 */
export function pickBestKeyword<T extends Candidate>(candidates: T[], usedKeywords: Iterable<string>): T | null {
  const used = new Set([...usedKeywords].map(normalizeKeyword))
  const seen = new Set<string>()
  const fresh = candidates.filter((c) => {
    const key = normalizeKeyword(c.keyword)
    if (!key || used.has(key) || seen.has(key)) return false
    seen.add(key)
    return true
  })
  fresh.sort(
    (a, b) =>
      difficultyRank(a.difficultyScore) - difficultyRank(b.difficultyScore) ||
      (b.avgMonthlySearches ?? -1) - (a.avgMonthlySearches ?? -1) ||
      (a.difficultyScore ?? 101) - (b.difficultyScore ?? 101) ||
      a.keyword.localeCompare(b.keyword),
  )
  return fresh[0] ?? null
}

/**
 * Delay before webhook retry number `retry` (1 = the first retry): `baseMs`, then 5× longer each time, capped at
 * a quarter of the retry window, with ±10% jitter. A Retry-After from the receiver is honoured (up to the cap).
 * With the defaults (5 s, 24 h): 5 s, 25 s, 2 min, 10 min, 52 min, 4.3 h, then every 6 h until a day has passed.
 */
export function retryDelayMs(
  retry: number,
  opts: { baseMs: number; windowMs: number; retryAfterMs?: number | null; random?: () => number },
): number {
  const cap = Math.max(opts.baseMs, Math.floor(opts.windowMs / 4))
  const exponential = Math.min(cap, opts.baseMs * 5 ** Math.max(0, retry - 1))
  const jitter = 1 + ((opts.random ?? Math.random)() * 0.2 - 0.1)
  const delay = Math.round(Math.min(cap, exponential * jitter))
  return opts.retryAfterMs ? Math.max(delay, Math.min(cap, opts.retryAfterMs)) : delay
}

export type AutopilotStatusRow = {
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
  /** `{_id}` once the post is written, else empty. */
  blogPost: { _id?: string }
}

/** Human-readable length of a time window: "24 hours", "3 seconds". */
export function formatWindow(ms: number): string {
  if (ms % DAY_MS === 0 && ms >= DAY_MS) return ms === DAY_MS ? '24 hours' : `${ms / DAY_MS} days`
  if (ms >= 3600_000) return `${Math.round(ms / 3600_000)} hours`
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} minutes`
  return `${Math.max(1, Math.round(ms / 1000))} seconds`
}

/** The webhook card of /autopilot, as the page's loader sends it. */
export type WebhookView = { url: string; secret: string; disabledAt: string | null; disabledReason: string | null }

/** A row of 'Recent deliveries', as the page's loader sends it. */
export type DeliveryView = {
  id: string
  eventType: string
  status: string
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  lastDurationMs: number | null
  nextAttemptAt: string | null
  createdAt: string
}

/** POST /api/autopilot/toggle's body (the route and the API reference share it). */
export const autopilotToggleSchema = z.object({
  enabled: z.boolean({
    required_error: 'enabled must be true or false.',
    invalid_type_error: 'enabled must be true or false.',
  }),
})
