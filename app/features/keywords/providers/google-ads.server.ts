import { isRetryableStatus, retryAfterMs } from '#app/platform/http/http-retry'
import { cleanMonthly, competitionLevelOf, type MonthlySearches } from '#app/features/keywords/keyword-metrics'
import { durationMs, fetchJson, withRetries, type Outcome } from './http.server'
import { estimateIntents } from './intent-estimate.server'
import {
  IDEAS_PER_SEARCH,
  INTENT_UNAVAILABLE_NOTE,
  type KeywordIdea,
  type KeywordProvider,
  type ProviderQuery,
} from './types'

/**
 * Google Ads Keyword Planner: KeywordPlanIdeaService.GenerateKeywordIdeas over REST. The refresh token is exchanged
 * for an access token at `${GOOGLE_OAUTH_URL}/token` and the access token is kept until shortly before it expires.
 * Google Ads has no ranking difficulty: its competition index (0-100, advertiser competition) stands in for it.
 *
 * Issue 36: cost per click is the middle of the top-of-page bid range (low/high top-of-page bid micros, in the
 * account's currency, which the answer does not name: cpcCurrency null), competition the index / 100 with its level,
 * the trend monthlySearchVolumes. Google Ads has no search intent: when the AI model is configured, ONE batched call
 * estimates it for every idea (intentSource 'ai_estimate'); its failure leaves the rows without intent, with a note.
 */
export const GOOGLE_ADS_API_VERSION = 'v21'

type Config = {
  apiUrl: string
  oauthUrl: string
  developerToken: string
  clientId: string
  clientSecret: string
  refreshToken: string
  customerId: string
  loginCustomerId?: string
  /** The AI model is configured: estimate the ideas' intent with it. */
  estimateIntent?: boolean
}

type AdsError = {
  error?: {
    code?: number
    message?: string
    status?: string
    details?: Array<{ errors?: Array<{ message?: string; details?: { quotaErrorDetails?: { retryDelay?: string } } }> }>
  }
}

type IdeasAnswer = {
  results?: Array<{
    text?: string
    keywordIdeaMetrics?: {
      avgMonthlySearches?: string
      competitionIndex?: string
      competition?: string
      lowTopOfPageBidMicros?: string
      highTopOfPageBidMicros?: string
      monthlySearchVolumes?: Array<{ year?: string; month?: string; monthlySearches?: string }>
    }
  }>
}

const MONTHS = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
]

/** Micros (int64 as a string) in the currency's units. */
function fromMicros(v: unknown): number | null {
  const n = int64(v)
  return n === null ? null : n / 1_000_000
}

/** The middle of the top-of-page bid range (either end alone when only one is known), rounded to cents. */
function cpcOf(low: number | null, high: number | null): number | null {
  const value = low !== null && high !== null ? (low + high) / 2 : (low ?? high)
  return value === null ? null : Math.round(value * 100) / 100
}

function monthlyOf(v: IdeasAnswer['results'] extends Array<infer R> | undefined ? R : never): MonthlySearches | null {
  const list = v.keywordIdeaMetrics?.monthlySearchVolumes
  if (!Array.isArray(list)) return null
  const months = cleanMonthly(
    list.map((m) => ({
      year: int64(m.year),
      month: typeof m.month === 'string' ? MONTHS.indexOf(m.month) + 1 : null,
      searches: int64(m.monthlySearches),
    })),
  )
  return months.length ? months : null
}

const digits = (id: string) => id.replace(/\D/g, '')

/** int64 values arrive as JSON strings (proto3 JSON); absent means unknown. */
function int64(v: unknown): number | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null
  const n = Number(v)
  return Number.isFinite(n) ? Math.max(0, Math.round(n)) : null
}

/** Google's retryDelay hint of a quota error, when present. */
function retryDelayOf(body: unknown): number | undefined {
  const details = (body as AdsError | null)?.error?.details ?? []
  for (const d of details)
    for (const e of d.errors ?? []) {
      const ms = durationMs(e.details?.quotaErrorDetails?.retryDelay)
      if (ms !== undefined) return ms
    }
  return undefined
}

function errorMessage(body: unknown, status: number) {
  const e = (body as AdsError | null)?.error
  const detail = e?.details?.[0]?.errors?.[0]?.message
  return `HTTP ${status} ${e?.status ?? ''} ${detail ?? e?.message ?? ''}`.replace(/\s+/g, ' ').trim()
}

export function googleAdsProvider(config: Config): KeywordProvider {
  let token: { value: string; expiresAt: number } | null = null
  let refreshing: Promise<string> | null = null

  function exchangeRefreshToken(): Promise<string> {
    return withRetries('google_ads', async (signal): Promise<Outcome<{ value: string; expiresAt: number }>> => {
      const res = await fetchJson(
        `${config.oauthUrl.replace(/\/+$/, '')}/token`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            client_id: config.clientId,
            client_secret: config.clientSecret,
            refresh_token: config.refreshToken,
          }).toString(),
        },
        signal,
      )
      const body = (res.body ?? {}) as {
        access_token?: string
        expires_in?: number
        error?: string
        error_description?: string
      }
      if (res.status === 200 && typeof body.access_token === 'string') {
        const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600
        return {
          ok: true,
          value: { value: body.access_token, expiresAt: Date.now() + Math.max(0, lifetime - 60) * 1000 },
        }
      }
      return {
        ok: false,
        retryable: isRetryableStatus(res.status),
        status: res.status,
        retryAfterMs: retryAfterMs(res.headers),
        message: `token exchange: HTTP ${res.status} ${body.error ?? ''} ${body.error_description ?? ''}`.trim(),
      }
    }).then((t) => {
      token = t
      return t.value
    })
  }

  /** The cached access token, or one fresh exchange shared by concurrent callers. */
  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value
    refreshing ??= exchangeRefreshToken().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  return {
    id: 'google_ads',
    async ideas(q: ProviderQuery) {
      const customerId = digits(config.customerId)
      const url = `${config.apiUrl.replace(/\/+$/, '')}/${GOOGLE_ADS_API_VERSION}/customers/${customerId}:generateKeywordIdeas`
      const body = JSON.stringify({
        language: `languageConstants/${q.languageCode}`,
        geoTargetConstants: [`geoTargetConstants/${q.countryCode}`],
        keywordPlanNetwork: 'GOOGLE_SEARCH',
        includeAdultKeywords: false,
        keywordSeed: { keywords: [q.query] },
        pageSize: IDEAS_PER_SEARCH,
      })
      let reauthorized = false
      const answer = await withRetries('google_ads', async (signal): Promise<Outcome<IdeasAnswer>> => {
        const headers: Record<string, string> = {
          Authorization: `Bearer ${await accessToken()}`,
          'developer-token': config.developerToken,
          'Content-Type': 'application/json',
        }
        if (config.loginCustomerId) headers['login-customer-id'] = digits(config.loginCustomerId)
        const res = await fetchJson(url, { method: 'POST', headers, body }, signal)
        if (res.status === 200) return { ok: true, value: (res.body ?? {}) as IdeasAnswer }
        if (res.status === 401 && !reauthorized) {
          // The access token was revoked or expired early: exchange the refresh token again, once.
          reauthorized = true
          token = null
          return {
            ok: false,
            retryable: true,
            status: 401,
            retryAfterMs: 0,
            message: errorMessage(res.body, res.status),
          }
        }
        return {
          ok: false,
          retryable: isRetryableStatus(res.status),
          status: res.status,
          retryAfterMs: retryDelayOf(res.body) ?? retryAfterMs(res.headers),
          message: errorMessage(res.body, res.status),
        }
      })
      const ideas: KeywordIdea[] = []
      for (const r of answer.results ?? []) {
        if (typeof r.text !== 'string' || !r.text.trim()) continue
        const m = r.keywordIdeaMetrics
        const index = int64(m?.competitionIndex)
        ideas.push({
          keyword: r.text.trim(),
          avgMonthlySearches: int64(m?.avgMonthlySearches),
          difficultyScore: index,
          intent: null,
          intentSource: null,
          cpc: cpcOf(fromMicros(m?.lowTopOfPageBidMicros), fromMicros(m?.highTopOfPageBidMicros)),
          cpcCurrency: null,
          competition: index === null ? null : Math.min(100, index) / 100,
          competitionLevel: competitionLevelOf(m?.competition),
          monthlySearches: monthlyOf(r),
          serpFeatures: null,
        })
      }
      if (!config.estimateIntent || ideas.length === 0) return { ideas, note: null }
      try {
        const intents = await estimateIntents(
          q,
          ideas.map((i) => i.keyword),
        )
        return {
          ideas: ideas.map((i) => {
            const intent = intents.get(i.keyword.toLowerCase())
            return intent ? { ...i, intent, intentSource: 'ai_estimate' as const } : i
          }),
          note: null,
        }
      } catch (error) {
        console.error('[keywords] intent estimate failed:', error instanceof Error ? error.message : error)
        return { ideas, note: INTENT_UNAVAILABLE_NOTE }
      }
    },
  }
}
