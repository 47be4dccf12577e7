import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUserId } from '#app/features/accounts/api-auth.server'
import { listRankings, toApiRanking, trackingUsage } from '#app/features/rankings/rankings.server'

/** GET /api/rankings[?market=<geo id>] → {data: [...], asOf, usage}: the tracked keywords, newest movers first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const market = new URL(request.url).searchParams.get('market') ?? undefined
  const [rankings, usage] = await Promise.all([listRankings(userId, { market }), trackingUsage(userId)])
  return json(
    { data: rankings.rows.map(toApiRanking), asOf: rankings.asOf, usage },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
