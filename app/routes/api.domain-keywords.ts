import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { domainLookupSchema, MARKET_MESSAGES } from '#app/features/keywords/domains'
import {
  keywordGap,
  ownDomain,
  rankedKeywordsForDomain,
  userMarket,
  vetDomain,
  WEBSITE_SETTING_PATH,
  type DomainLookupResult,
} from '#app/features/keywords/domain-keywords.server'
import { parseParams } from '#app/platform/lists/list-params'

const STATUS = { invalid: 400, no_website: 400, quota: 402, provider_error: 502, unavailable: 503 } as const

/**
 * GET /api/domain-keywords?domain=&country=&language= (issue 36; country and language: Google Ads ids, by default
 * the user's onboarding market). The user's own domain (their website) → the keywords it ranks for, each with its
 * position, URL and `strikingDistance` (positions 4-20, the quickest wins); any other domain → the gap: the keywords
 * it ranks for and the user's domain does not (position and URL: the competitor's). Both are saved like a search and
 * count as one keyword search the first time a day: 200 {kind, domain, competitor, countryCode, languageCode, data}.
 * Bad domain or market: 400 {message, errors}; no website set (needed for a gap): 400 {message, errors: {website}};
 * over quota: 402 {redirect_to_profile, message}; provider failure: 502; DataForSEO not configured: 503.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const parsed = parseParams(domainLookupSchema, new URL(request.url).searchParams)
  if (!parsed.ok) {
    const first = Object.values(parsed.errors)[0] ?? 'Invalid query parameters.'
    return apiError(400, first, { errors: parsed.errors })
  }
  const domain = vetDomain(parsed.data.domain)
  if (!domain.ok) return apiError(400, domain.message, { errors: { domain: domain.message } })
  const fallback = await userMarket(userId)
  const countryCode = parsed.data.country ?? fallback?.countryCode
  const languageCode = parsed.data.language ?? fallback?.languageCode
  if (!countryCode || !languageCode) {
    const errors = {
      ...(countryCode ? {} : { country: MARKET_MESSAGES.country }),
      ...(languageCode ? {} : { language: MARKET_MESSAGES.language }),
    }
    return apiError(400, Object.values(errors)[0]!, { errors })
  }
  const market = { countryCode, languageCode }
  const own = await ownDomain(userId)
  const result: DomainLookupResult =
    own.ok && own.domain === domain.domain
      ? await rankedKeywordsForDomain(userId, { domain: domain.domain, market })
      : own.ok
        ? await keywordGap(userId, { competitor: domain.domain, market })
        : own
  if (!result.ok) {
    if (result.reason === 'quota') return apiError(402, result.message, { redirect_to_profile: true })
    if (result.reason === 'no_website')
      return apiError(400, result.message, { errors: { website: result.message }, settings: WEBSITE_SETTING_PATH })
    if (result.reason === 'invalid') {
      const field = result.field === 'market' ? 'country' : 'domain'
      return apiError(400, result.message, { errors: { [field]: result.message } })
    }
    return apiError(STATUS[result.reason], result.message)
  }
  return json(
    {
      kind: result.competitor ? 'gap' : 'ranked',
      domain: result.domain,
      competitor: result.competitor,
      countryCode: result.market.countryCode,
      languageCode: result.market.languageCode,
      data: result.keywords.map((k) => ({
        id: k.id,
        keyword: k.keyword,
        avgMonthlySearches: k.avgMonthlySearches,
        difficultyScore: k.difficultyScore,
        position: k.position,
        url: k.url,
        strikingDistance: k.strikingDistance,
        intent: k.intent,
        cpc: k.cpc,
        cpcCurrency: k.cpcCurrency,
      })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
