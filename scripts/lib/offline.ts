export type FakeName = 'openai' | 'dataforseo' | 'googleAds' | 'stripe' | 'googleOAuth' | 'smtp' | 'webflow'

/** The third-party services that have no credentials in this environment (and get a local fake in dev). */
export function missingServices(env: NodeJS.ProcessEnv): FakeName[] {
  const missing: FakeName[] = []
  if (!env.OPENAI_API_KEY) missing.push('openai')
  if (!env.DATAFORSEO_LOGIN || !env.DATAFORSEO_PASSWORD) missing.push('dataforseo')
  if (!env.GOOGLE_ADS_DEVELOPER_TOKEN || !env.GOOGLE_ADS_REFRESH_TOKEN) missing.push('googleAds')
  if (!env.STRIPE_SECRET_KEY) missing.push('stripe')
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) missing.push('googleOAuth')
  if (!env.SMTP_URL) missing.push('smtp')
  if (!env.WEBFLOW_API_URL) missing.push('webflow')
  return missing
}
