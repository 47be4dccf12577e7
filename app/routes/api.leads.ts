import { json, type ActionFunctionArgs } from '@remix-run/node'
import { captureLead, LEAD_MESSAGES } from '#app/features/marketing/leads.server'
import { leadInput } from '#app/features/marketing/leads'
import { apiErrors } from '#app/platform/forms/submission'
import { failureJson, methodNotAllowed, publicJsonPost } from '#app/platform/http/json-api.server'

/** POST /api/leads {email}: stores the lead once per address and e-mails the ebook link. 200 is success. */
export async function action({ request }: ActionFunctionArgs) {
  return publicJsonPost(
    request,
    { logLabel: '[leads] could not store the lead', unavailable: { message: LEAD_MESSAGES.thrown } },
    async (body) => {
      const parsed = leadInput.safeParse(body)
      if (!parsed.success) return failureJson({ status: 400, ...apiErrors(parsed.error) })
      const outcome = await captureLead(parsed.data, request)
      return outcome.ok ? json({ message: outcome.message }) : failureJson(outcome)
    },
  )
}

export const loader = methodNotAllowed
