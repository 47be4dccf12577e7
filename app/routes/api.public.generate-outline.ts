import type { ActionFunctionArgs } from '@remix-run/node'
import { methodNotAllowed, publicToolAction } from '#app/platform/http/json-api.server'

/** POST /api/public/generate-outline: the free outline tool as JSON (no sign-in; rate-limited per IP). */
export const action = ({ request }: ActionFunctionArgs) => publicToolAction('outline', request)
export const loader = methodNotAllowed
