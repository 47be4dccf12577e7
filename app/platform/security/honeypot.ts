/**
 * The honeypot of every public form (sign-in, sign-up, the free tools, the ebook) and of their JSON twins: a field
 * people never see and bots tend to fill in. A filled one marks the request as automated. The component is
 * app/components/ui/honeypot.tsx.
 */
export const HONEYPOT_FIELD = 'website'

/** Whether a form post or JSON body has the honeypot filled in. */
export function honeypotFilled(input: FormData | Record<string, unknown>) {
  const value = input instanceof FormData ? input.get(HONEYPOT_FIELD) : input[HONEYPOT_FIELD]
  return typeof value === 'string' ? value !== '' : Boolean(value)
}
