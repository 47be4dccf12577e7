import { json } from '@remix-run/node'
import { capabilities, capabilityDetails } from '#app/platform/capabilities.server'
import { checkHealth } from '#app/platform/observability/health.server'

/**
 * 200 only when Postgres and Redis both answer; 503 otherwise. `capabilities` says what this server can do for a
 * customer (decision 0353) and `capabilitiesOff` which variables would switch on a missing one (for the operator:
 * screens never name them). A missing capability does not make the server unhealthy.
 */
export async function loader() {
  const health = await checkHealth()
  const capabilitiesOff = Object.fromEntries(
    capabilityDetails()
      .filter((c) => c.enabledBy)
      .map((c) => [c.name, c.enabledBy]),
  )
  return json(
    { ...health, capabilities: capabilities(), capabilitiesOff },
    { status: health.ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  )
}
