import { json, type ActionFunctionArgs } from '@remix-run/node'
import { captureLead, LEAD_MESSAGES } from '#app/features/marketing/leads.server'
import { failureJson, methodNotAllowed, publicJsonPost } from '#app/platform/http/json-api.server'

/** POST /api/leads {email}: stores the lead once per address and e-mails the ebook link. 200 is success. */
export async function action({ request }: ActionFunctionArgs) {
  return publicJsonPost(
    request,
    { logLabel: '[leads] could not store the lead', unavailable: { message: LEAD_MESSAGES.thrown } },
    async (body) => {
      const outcome = await captureLead(body, request)
      return outcome.ok ? json({ message: outcome.message }) : failureJson(outcome)
    },
  )
}

export const loader = methodNotAllowed
