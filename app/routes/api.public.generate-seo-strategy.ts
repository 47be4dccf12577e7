import type { ActionFunctionArgs } from '@remix-run/node'
import { methodNotAllowed } from '#app/platform/http/json-api.server'
import { publicToolAction } from '#app/features/marketing/free-tools.server'

/** POST /api/public/generate-seo-strategy: the free strategy tool as JSON (no sign-in; rate-limited per IP). */
export const action = ({ request }: ActionFunctionArgs) => publicToolAction('strategy', request)
export const loader = methodNotAllowed
