import type { ActionFunctionArgs } from '@remix-run/node'
import { methodNotAllowed } from '#app/platform/http/json-api.server'
import { publicToolAction } from '#app/features/marketing/free-tools.server'

/** POST /api/public/generate-keywords: the free keywords tool as JSON (no sign-in; rate-limited per IP). */
export const action = ({ request }: ActionFunctionArgs) => publicToolAction('keywords', request)
export const loader = methodNotAllowed
