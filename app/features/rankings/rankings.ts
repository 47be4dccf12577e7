/**
 * Rankings, the parts shared by the server and the screens: day arithmetic, keyword normalisation for the daily
 * check list, domain matching, the table's figures, and plan limits for tracked keywords.
 */
import { z } from 'zod'
import { normalizeSerpKeyword } from '#app/features/keywords/serp'
import { addDays, utcDay } from '#app/platform/dates'
import { describeAiCompetitors } from '#app/features/visibility/describe'

export const TRACKED_KEYWORD_LIMITS = { trial: 10, premium: 200 } as const

export const RANKINGS_MESSAGES = {
  limit: (limit: number) =>
    `You are tracking ${limit} keywords, the most your plan allows. Stop tracking one to track another.`,
  notFound: 'Keyword not found.',
  tracked: 'Keyword tracked. Its position is checked every day.',
  untracked: 'Keyword no longer tracked.',
  trackFailed: 'Could not change the tracking of this keyword. Check your connection and try again.',
  /** Tracked on a workspace without daily checks (decision 0353: 'checked every day' only when checks run). */
  trackedWithoutChecks:
    'Keyword tracked. Daily position checks are not available on this workspace yet; its average position comes from Google Search Console once it is connected.',
  noDailyChecks:
    'Daily position checks are not available on this workspace yet. Until then, positions come from Google Search Console (average position).',
  nothingConnected:
    'Connect Google Search Console to see the clicks, impressions and average positions of your posts. Daily position checks are not available on this workspace yet.',
  unavailable:
    'Rank tracking is not available yet on this workspace. Your tracked keywords are kept, and their positions appear here as soon as it is.',
  searchConsoleUnavailable: 'Connecting Google Search Console is not available on this workspace yet.',
  searchConsoleDisabled:
    'Google Search Console access was revoked, so we stopped pulling its data. Connect it again to resume.',
  refreshQueued: 'Refreshing this post: a new version will be ready for review shortly.',
  refreshUnavailable: 'This post cannot be refreshed right now.',
  refreshFailed: (reason: string) => `The last refresh failed: ${reason} The post was not changed; try again.`,
  refreshNoResearch:
    "The current search results for this post's keyword could not be read, so there was nothing to refresh it from.",
  refreshNoMarket: "This post's keyword has no market (country and language), so its search results cannot be read.",
} as const

/** The SERP cache's key (trimmed, lower case, single spaces): one daily check per keyword and market. */
export const normalizeKeyword = normalizeSerpKeyword

export { addDays, utcDay }

/** ISO week id (e.g. 2026-W48) of a day: the unit of refresh suggestions and digests. */
export function isoWeek(date: Date): string {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
  const dayNum = d.getUTCDay() || 7
  d.setUTCDate(d.getUTCDate() + 4 - dayNum)
  const yearStart = new Date(Date.UTC(d.getUTCFullYear(), 0, 1))
  const week = Math.ceil(((d.getTime() - yearStart.getTime()) / 86_400_000 + 1) / 7)
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`
}

/** Host without `www.`, lower case; null for something that is not a URL or host. */
export function domainOf(urlOrHost: string | null | undefined): string | null {
  if (!urlOrHost) return null
  const value = urlOrHost.trim()
  if (!value) return null
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`)
    return url.hostname.toLowerCase().replace(/^www\./, '') || null
  } catch {
    return null
  }
}

/** Whether a result's domain belongs to one of the user's domains (the domain itself or a subdomain). */
export function domainMatches(resultDomain: string, domains: string[]): boolean {
  const d = resultDomain.toLowerCase().replace(/^www\./, '')
  return domains.some((own) => d === own || d.endsWith(`.${own}`))
}

/** The user's best organic position in a result list, or null when none of their pages is listed. */
export function findPosition(
  items: Array<{ rank: number; url: string; domain: string }>,
  domains: string[],
): { position: number; url: string } | null {
  let best: { position: number; url: string } | null = null
  for (const item of items) {
    const domain = item.domain || domainOf(item.url) || ''
    if (!domainMatches(domain, domains)) continue
    if (!best || item.rank < best.position) best = { position: item.rank, url: item.url }
  }
  return best
}

/** Rows per page of the /rankings table (the API answers every row: a plan tracks at most a few hundred). */
export const RANKINGS_PAGE_SIZE = 50

export type PositionPoint = {
  day: string
  /** null: not in the top 100 ('not_ranked') or no answer that day ('error'). */
  position: number | null
  status: 'ranked' | 'not_ranked' | 'error'
}

/** Change of position between `asOf` and `days` earlier: positive = moved up. Null when either end is unknown. */
export function positionChange(points: PositionPoint[], asOf: string, days: number): number | null {
  const byDay = new Map(points.map((p) => [p.day, p]))
  const now = byDay.get(asOf)
  const then = byDay.get(addDays(asOf, -days))
  if (!now || !then || now.status === 'error' || then.status === 'error') return null
  const a = now.position ?? 101
  const b = then.position ?? 101
  if (a === 101 && b === 101) return 0
  return b - a
}

export function formatChange(change: number | null): string {
  if (change === null) return '–'
  if (change === 0) return '0'
  return change > 0 ? `▲ ${change}` : `▼ ${Math.abs(change)}`
}

export function formatPosition(point: PositionPoint | undefined): string {
  if (!point) return 'Not checked yet'
  if (point.status === 'error') return 'Check failed'
  if (point.position === null) return 'Not in top 100'
  return String(point.position)
}

export type SuggestionReason =
  | { kind: 'slipped'; from: number | null; to: number | null }
  | { kind: 'clicks_down'; before: number; after: number }
  | { kind: 'striking_distance'; queries: number }
  /** Issue 37: Google's AI Overviews cite competitors for the post's keyword and never the user's site. */
  | { kind: 'ai_competitors'; count: number; competitors: string[] }

export type StrikingQuery = { query: string; impressions: number; position: number }

export function describeReason(reason: SuggestionReason): string {
  if (reason.kind === 'slipped')
    return `Slipped from position ${reason.from ?? '–'} to ${reason.to ?? 'outside the top 100'} in 28 days`
  if (reason.kind === 'clicks_down') return `Clicks fell from ${reason.before} to ${reason.after} (28 days)`
  if (reason.kind === 'ai_competitors') return describeAiCompetitors(reason.count)
  return `${reason.queries} striking-distance ${reason.queries === 1 ? 'query' : 'queries'} not covered`
}

/** GET /api/rankings/:keywordId/history's query: how many days back (default a year). */
export const historyQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(3650).default(365) })
