import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import {
  CLUSTER_MESSAGES,
  clusterMarketSchema,
  clusterQuerySchema,
  type ClusterMarket,
} from '#app/features/keywords/clusters'
import { clusterMarkets, latestClusterRun, listClusters, startClusterRun } from '#app/features/keywords/clusters.server'
import { postProgressForKeywords } from '#app/features/publishing/post-progress.server'
import { parseParams } from '#app/platform/lists/list-params'

/**
 * Issue 36 (decision 0363): the user's saved keywords grouped by topic from their results pages.
 * GET /api/clusters?country=2840&language=1000 → 200 {data: [clusters], unclustered, market, keywordCount,
 * withoutSerp, run}; without both parameters, the market with most saved keywords. A cluster is {main, members,
 * totalVolume, post}: `main` and each member {id, keyword, volume, shared} (URLs of the top 10 shared with the main
 * keyword), `post` {keywordId, postId, state} when one of its keywords has a post (else null). `run`: the newest
 * clustering run of the market (null before the first).
 * POST /api/clusters {countryCode, languageCode} → 202 {run, started}: starts a run (or answers the one in progress,
 * started false). One 'clusters' lookup a day counts as a keyword search: 402 {redirect_to_profile, message} at the
 * limit. Bad input: 400 {message, errors}; no keyword search provider: 503.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const search = new URL(request.url).searchParams
  let market: ClusterMarket | null
  if (!search.has('country') && !search.has('language')) {
    const [first] = await clusterMarkets(userId)
    market = first ? { countryCode: first.countryCode, languageCode: first.languageCode } : null
  } else {
    const parsed = parseParams(clusterQuerySchema, search)
    if (!parsed.ok) return apiError(400, 'Invalid query parameters.', { errors: parsed.errors })
    market = { countryCode: parsed.data.country, languageCode: parsed.data.language }
  }
  const headers = { 'Cache-Control': 'private, no-store' }
  if (!market)
    return json({ data: [], unclustered: [], market: null, keywordCount: 0, withoutSerp: 0, run: null }, { headers })
  const [list, run] = await Promise.all([
    listClusters(userId, market, postProgressForKeywords),
    latestClusterRun(userId, market),
  ])
  return json(
    {
      data: list.clusters.map(({ post, ...cluster }) => ({
        ...cluster,
        post: post ? { keywordId: post.keywordId, postId: post.progress.postId, state: post.progress.state } : null,
      })),
      unclustered: list.unclustered,
      market,
      keywordCount: list.keywordCount,
      withoutSerp: list.withoutSerp,
      run,
    },
    { headers },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const market = await parseJson(request, clusterMarketSchema)
  const result = await startClusterRun(userId, market)
  if (result.ok) return json({ run: result.run, started: result.started }, { status: 202 })
  if (result.reason === 'quota')
    return apiError(402, (await quotaRefusal(userId, 'keywordSearches')).message, { redirect_to_profile: true })
  if (result.reason === 'no_keywords')
    return apiError(400, CLUSTER_MESSAGES.noKeywords, { errors: { countryCode: CLUSTER_MESSAGES.noKeywords } })
  return apiError(503, CLUSTER_MESSAGES.unavailable)
}
