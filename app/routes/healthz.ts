import { json } from '@remix-run/node'
import { checkHealth } from '#app/platform/observability/health.server'

/** 200 only when Postgres and Redis both answer; 503 otherwise. */
export async function loader() {
  const health = await checkHealth()
  return json(health, { status: health.ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
}
