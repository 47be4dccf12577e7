import { apiError } from '#app/features/accounts/api-auth.server'
import { openApiJson } from '#app/features/developers/openapi.server'
import { getEnv } from '#app/platform/env.server'

/** GET /api/openapi.json: the OpenAPI 3.1 document of the /api routes (decision 0381). Public and cacheable. */
export function loader() {
  return new Response(openApiJson(getEnv().APP_URL), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'Access-Control-Allow-Origin': '*',
    },
  })
}

export const action = () => apiError(405, 'Method not allowed.')
