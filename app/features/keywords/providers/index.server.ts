import { getEnv, services } from '#app/platform/env.server'
import { aiEstimateProvider } from './ai-estimate.server'
import { dataForSeoProvider } from './dataforseo.server'
import { googleAdsProvider } from './google-ads.server'
import type { KeywordProvider } from './types'

export {
  KeywordProviderError,
  type KeywordIdea,
  type KeywordProvider,
  type ProviderIdeas,
  type ProviderQuery,
} from './types'

let chosen: KeywordProvider | null | undefined

/**
 * The keyword data provider, by which credentials are set: DataForSEO (preferred), then Google Ads Keyword
 * Planner, then estimates by the AI model. Null when none of them is configured (keyword research is off).
 */
export function keywordProvider(): KeywordProvider | null {
  if (chosen !== undefined) return chosen
  const env = getEnv()
  const on = services()
  if (on.dataforseo) {
    chosen = dataForSeoProvider({
      apiUrl: env.DATAFORSEO_API_URL,
      login: env.DATAFORSEO_LOGIN!,
      password: env.DATAFORSEO_PASSWORD!,
    })
  } else if (on.googleAds) {
    chosen = googleAdsProvider({
      apiUrl: env.GOOGLE_ADS_API_URL,
      oauthUrl: env.GOOGLE_OAUTH_URL ?? 'https://oauth2.googleapis.com',
      developerToken: env.GOOGLE_ADS_DEVELOPER_TOKEN!,
      clientId: env.GOOGLE_ADS_CLIENT_ID!,
      clientSecret: env.GOOGLE_ADS_CLIENT_SECRET!,
      refreshToken: env.GOOGLE_ADS_REFRESH_TOKEN!,
      customerId: env.GOOGLE_ADS_CUSTOMER_ID!,
      loginCustomerId: env.GOOGLE_ADS_LOGIN_CUSTOMER_ID,
      estimateIntent: on.openai,
    })
  } else if (on.openai) {
    chosen = aiEstimateProvider()
  } else {
    chosen = null
  }
  return chosen
}
