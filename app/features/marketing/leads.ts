import { z } from 'zod'
import { HONEYPOT_FIELD } from '#app/platform/security/honeypot'
import { safeText } from '#app/platform/security/safe-text'

/** The ebook form's copy (spec section 8), shared by the page, its browser-side failure and the API. */
export const LEAD_MESSAGES = {
  success: 'Success! Check your email for the ebook link.',
  failed: 'Something went wrong. Please try again later.',
  thrown: 'Error: Unable to submit your email. Please try again.',
}

/** The ebook form and `POST /api/leads`: one address (and the honeypot). The page also checks it in the browser. */
export const leadInput = z.object({
  email: z
    .string({
      required_error: 'Please enter your email address.',
      invalid_type_error: 'Please enter your email address.',
    })
    .trim()
    .min(1, 'Please enter your email address.')
    .max(254, 'Please enter a valid email address.')
    .email('Please enter a valid email address.'),
  [HONEYPOT_FIELD]: safeText().optional(),
})

export type LeadInput = z.infer<typeof leadInput>
