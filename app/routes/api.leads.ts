import { json, type ActionFunctionArgs } from '@remix-run/node'
import { captureLead, LEAD_MESSAGES } from '#app/server/leads.server'
import { methodNotAllowed, readJsonBody } from '#app/server/public-api.server'

/** POST /api/leads {email}: stores the lead once per address and e-mails the ebook link. 200 is success. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST')
    return json({ message: 'Method not allowed.' }, { status: 405, headers: { Allow: 'POST' } })
  try {
    const body = await readJsonBody(request)
    if (!body) return json({ message: 'The request body must be a JSON object.' }, { status: 400 })
    const outcome = await captureLead(body, request)
    if (outcome.ok) return json({ message: outcome.message })
    return json(
      { message: outcome.message, ...(outcome.errors ? { errors: outcome.errors } : {}) },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : {},
      },
    )
  } catch (error) {
    console.error('[leads] could not store the lead', error)
    return json({ message: LEAD_MESSAGES.thrown }, { status: 503 })
  }
}

export const loader = methodNotAllowed
