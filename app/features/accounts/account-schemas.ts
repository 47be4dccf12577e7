import { z } from 'zod'
import { findCountry, findLanguage } from '#app/platform/markets/markets'
import { safeText } from '#app/platform/security/safe-text'

/**
 * One zod schema per account form, shared by the page actions (form data, through Conform: decision 0311), the pages
 * (the same checks in the browser) and the matching /api routes (JSON): sign-in, sign-up, onboarding, profile, help,
 * and the password and account forms. Onboarding and profile post their markets as select codes, so their forms have
 * a schema of their own built from the API's (`onboardingFormSchema`, `profileFormSchema`).
 */

const MAX_TEXT = 500

const requiredText = (label: string, max = MAX_TEXT) =>
  safeText({ required_error: `${label} is required.`, invalid_type_error: `${label} must be text.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`)

const email = safeText({ required_error: 'Email is required.', invalid_type_error: 'Email must be text.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email must be at most 254 characters.')
  .email('Please enter a valid email address.')

// argon2 hashes any length, but an unbounded password is an easy way to make the server work hard.
const password = safeText({ required_error: 'Password is required.', invalid_type_error: 'Password must be text.' })
  .min(1, 'Password is required.')
  .max(200, 'Password must be at most 200 characters.')

export const signInSchema = z.object({ email, password })
export type SignInInput = z.infer<typeof signInSchema>

export const MIN_PASSWORD_LENGTH = 8

export const signUpSchema = z.object({
  name: requiredText('Name', 100),
  email,
  password: password.min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`),
})
export type SignUpInput = z.infer<typeof signUpSchema>

/** Website: empty means none; otherwise an http(s) URL. */
const website = z
  .union([safeText(), z.null()], { invalid_type_error: 'Website must be text.' })
  .transform((v) => (v ?? '').trim())
  .pipe(
    z.union([
      z.literal('').transform(() => null),
      safeText()
        .max(2000, 'Website must be at most 2000 characters.')
        .url('Please enter a valid URL, such as https://example.com.')
        .refine((v) => /^https?:\/\//i.test(v), 'Please enter a valid URL, such as https://example.com.'),
    ]),
  )

/** A market choice from the lists in app/lib/markets.ts; the stored name is always our own label. */
function marketChoice(kind: 'country' | 'language') {
  const find = kind === 'country' ? findCountry : findLanguage
  const message = `Please choose a ${kind} from the list.`
  return z
    .object(
      { code: z.union([safeText(), z.number()]).transform(String), name: safeText().optional() },
      { invalid_type_error: message },
    )
    .nullable()
    .transform((v, ctx) => {
      if (!v) return null
      const option = find(v.code)
      if (!option) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message })
        return z.NEVER
      }
      return { code: option.value, name: option.label }
    })
}

export const onboardingSchema = z.object({
  website: website.optional().transform((v) => v ?? null),
  marketSegment: requiredText('Ideal Customer'),
  productService: requiredText('Product/Service'),
  country: marketChoice('country')
    .optional()
    .transform((v) => v ?? null),
  language: marketChoice('language')
    .optional()
    .transform((v) => v ?? null),
})
export type OnboardingInput = z.infer<typeof onboardingSchema>

/**
 * The profile edit: name, ideal customer and product/service (the API's PUT /api/user/update), plus the business
 * details the Auto Pilot screen shows (website, country, language), which are left as they are when absent.
 */
export const profileSchema = z.object({
  name: requiredText('Name', 100),
  marketSegment: requiredText('Ideal Customer'),
  productService: requiredText('Product/Service'),
  website: website.optional(),
  country: marketChoice('country').optional(),
  language: marketChoice('language').optional(),
})
export type ProfileInput = z.infer<typeof profileSchema>

export const helpSchema = z.object({
  question: safeText({
    required_error: 'Please describe your question.',
    invalid_type_error: 'Your question must be text.',
  })
    .trim()
    .min(1, 'Please describe your question.')
    .max(5000, 'Your question must be at most 5000 characters.'),
})
export type HelpInput = z.infer<typeof helpSchema>

/**
 * A market select of the onboarding and profile forms: the posted code (empty: none; absent: left as it is) read like
 * the API's `{ code }`, so that a code not in the list is refused next to the select itself (`countryCode`,
 * `languageCode`, the form's field names).
 */
function marketSelect(kind: 'country' | 'language') {
  return safeText()
    .optional()
    .transform((code) => (code === undefined ? undefined : code.trim() ? { code: code.trim() } : null))
    .pipe(marketChoice(kind).optional())
}

/** The onboarding form: the API's fields, with the markets as the selects' codes (`countryCode`, `languageCode`). */
export const onboardingFormSchema = onboardingSchema
  .omit({ country: true, language: true })
  .extend({ countryCode: marketSelect('country'), languageCode: marketSelect('language') })
  .transform(({ countryCode, languageCode, ...fields }): OnboardingInput => ({
    ...fields,
    country: countryCode ?? null,
    language: languageCode ?? null,
  }))

/** The profile form: the API's fields, with the markets as the selects' codes; an absent select leaves it as it is. */
export const profileFormSchema = profileSchema
  .omit({ country: true, language: true })
  .extend({ countryCode: marketSelect('country'), languageCode: marketSelect('language') })
  .transform(({ countryCode, languageCode, ...fields }): ProfileInput => ({
    ...fields,
    country: countryCode,
    language: languageCode,
  }))

/** The business fields as the form shows them (from a saved user or from a failed post). */
export type BusinessValues = {
  website: string
  marketSegment: string
  productService: string
  countryCode: string
  languageCode: string
}

type MarketChoice = { code: string } | null | undefined

export function businessValues(source: {
  website?: string | null
  marketSegment?: string | null
  productService?: string | null
  country?: MarketChoice
  language?: MarketChoice
}): BusinessValues {
  return {
    website: source.website ?? '',
    marketSegment: source.marketSegment ?? '',
    productService: source.productService ?? '',
    countryCode: source.country?.code ?? '',
    languageCode: source.language?.code ?? '',
  }
}

/** The profile's copy (spec section 8). */
export const PROFILE_MESSAGES = {
  updated: 'Profile updated successfully!',
  failed: 'Failed to update profile.',
  loadFailed: 'Failed to load profile data.',
} as const

/** Sign-in and sign-up copy, shared by the pages and the API. */
export const AUTH_MESSAGES = {
  signedIn: 'Signed in successfully. Welcome back!',
  signedUp: 'Account created successfully. Welcome to Rankwell!',
  invalid: 'Invalid email or password.',
  duplicate: 'An account with this email already exists. Please sign in instead.',
  generic: 'An error occurred.',
} as const

// Issue 34: the code of the second factor (a 6-digit code from the app, or a recovery code), where it is asked.
const MAX_CODE = 40
/** The code asked before a sensitive change: optional in the schema, required by the server when the factor is on. */
const optionalSecondFactorCode = safeText({ invalid_type_error: 'The code must be text.' })
  .trim()
  .max(MAX_CODE, 'That code is too long.')
  .optional()

// Issue 13: password reset and change, account deletion.
const newPassword = password.min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`)

export const forgotPasswordSchema = z.object({ email })
export const resetPasswordSchema = z.object({
  token: safeText({ required_error: 'The reset link is missing its token.' }).trim().min(1).max(200),
  password: newPassword,
})
export const changePasswordSchema = z.object({
  currentPassword: password.describe('current'),
  newPassword,
  code: optionalSecondFactorCode,
})
export const deleteAccountSchema = z.object({
  password: safeText().max(200, 'Password must be at most 200 characters.').optional(),
  confirm: z.literal('DELETE', { errorMap: () => ({ message: 'Type DELETE to confirm.' }) }),
  code: optionalSecondFactorCode,
})

export const ACCOUNT_MESSAGES = {
  verificationSent: 'We sent you a verification link. Please check your inbox.',
  verified: 'Your email address is verified.',
  badVerifyLink: 'This verification link is invalid or has expired. Sign in and send a new one.',
  resetSent: 'If an account exists for that address, we sent a link to reset the password. It works for one hour.',
  badResetLink: 'This reset link is invalid, has expired or was already used. Please ask for a new one.',
  passwordReset: 'Your password has been reset. Please sign in.',
  passwordChanged: 'Your password has been changed. Every other session has been signed out.',
  wrongPassword: 'Your current password is not correct.',
  signedOutEverywhere: 'Every other session and API token has been signed out.',
  sessionEnded: 'That session has been signed out.',
  deleted: 'Your account has been deleted.',
  accountSecured:
    'An unverified account had been created with your email address. Google confirmed the address is yours, so the account is now yours alone: its password was removed and every other session was signed out.',
  unverifiedAutopilot: 'Please verify your email address before Auto Pilot can publish.',
} as const

// ---------------------------------------------------------------------------------------------------------------
// Issue 34: a reclaimed account. When the owner of an address takes over an account nobody had verified (a used
// reset link, or Google's verified e-mail), what whoever created it left behind is removed, and the owner is told.
// ---------------------------------------------------------------------------------------------------------------

/** What a takeover removed: flags for what existed, counts where there can be several. */
export const reclaimedSettingsSchema = z.object({
  secondFactor: z.boolean(),
  businessDetails: z.boolean(),
  contentSettings: z.boolean(),
  destinations: z.number().int().min(0),
  webhook: z.boolean(),
  autopilot: z.boolean(),
  publications: z.number().int().min(0),
  searchConsole: z.boolean().default(false),
})
export type ReclaimedSettings = z.infer<typeof reclaimedSettingsSchema>

export const NOTHING_RECLAIMED: ReclaimedSettings = {
  secondFactor: false,
  businessDetails: false,
  contentSettings: false,
  destinations: 0,
  webhook: false,
  autopilot: false,
  publications: 0,
  searchConsole: false,
}

/** A stored summary (the signed OAuth cookie carries it to /oauth-callback), or null when it is not one. */
export function parseReclaimed(value: unknown): ReclaimedSettings | null {
  const parsed = reclaimedSettingsSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** The removed things in words, in the order the owner would look for them. */
export function reclaimedItems(r: ReclaimedSettings): string[] {
  return [
    r.secondFactor ? 'the authenticator app set up for sign-in' : null,
    r.businessDetails ? 'the business details (website, product, customers)' : null,
    r.contentSettings ? 'the content settings (call-to-action, voice)' : null,
    r.destinations ? counted(r.destinations, 'publishing destination', 'publishing destinations') : null,
    r.webhook ? 'the Auto Pilot webhook' : null,
    r.autopilot ? 'the Auto Pilot settings (Auto Pilot is off)' : null,
    r.publications ? counted(r.publications, 'pending publication', 'pending publications') : null,
    r.searchConsole ? 'the Search Console connection and its data' : null,
  ].filter((item): item is string => item !== null)
}

const inWords = (items: string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`

export const TAKEOVER_MESSAGES = {
  resetTookOver: 'Nobody had verified this account, so it is now yours alone: every session was signed out.',
  removed: (items: string[]) => `The settings left by whoever created it were removed: ${inWords(items)}.`,
  kept: 'Posts and keywords were kept: check them before you publish.',
} as const

/**
 * The message after a takeover: Google's (the account is secured) or a reset's (`reclaimed` is null when the
 * reset account had been verified: a plain reset), followed by what was removed, when anything was.
 */
export function takeoverMessage(how: 'google' | 'reset', reclaimed: ReclaimedSettings | null): string {
  if (how === 'reset' && !reclaimed) return ACCOUNT_MESSAGES.passwordReset
  const items = reclaimed ? reclaimedItems(reclaimed) : []
  return [
    how === 'google' ? ACCOUNT_MESSAGES.accountSecured : ACCOUNT_MESSAGES.passwordReset,
    how === 'reset' ? TAKEOVER_MESSAGES.resetTookOver : null,
    items.length ? TAKEOVER_MESSAGES.removed(items) : null,
    items.length ? TAKEOVER_MESSAGES.kept : null,
  ]
    .filter(Boolean)
    .join(' ')
}

// Issue 34: common passwords and the second factor (two-step sign-in)
// ---------------------------------------------------------------------------------------------------------------

export const SECOND_FACTOR_MESSAGES = {
  commonPassword: 'This password is too common. Choose one that is harder to guess.',
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
  codeOrRecoveryRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  sixDigits: 'Enter the 6 digits your authenticator app shows.',
  wrongCode: 'That code is not correct or was already used. Please try the current code.',
  tooMany: 'Too many attempts. Please wait a few minutes and try again.',
  mfaRequired:
    'This account has two-step sign-in. Send the 6-digit code from the authenticator app, or a recovery code, as "code".',
  pendingExpired: 'Your sign-in took too long. Please sign in again.',
  setupStarted: 'Scan the QR code with your authenticator app, then enter the code it shows.',
  enabled: 'Two-step sign-in is on. Save your recovery codes now: they are shown only once.',
  cancelled: 'Two-step sign-in was not turned on.',
  disabled: 'Two-step sign-in is off.',
  regenerated: 'New recovery codes: the old ones no longer work. Save these now: they are shown only once.',
  alreadyOn: 'Two-step sign-in is already on.',
  notStarted: 'Start again: turn on two-step sign-in.',
  verifyFirst: 'Please verify your email address before turning on two-step sign-in.',
} as const

/** A code typed at the second step: from the authenticator app, or a recovery code. */
const secondFactorCode = safeText({
  required_error: SECOND_FACTOR_MESSAGES.codeOrRecoveryRequired,
  invalid_type_error: 'The code must be text.',
})
  .trim()
  .min(1, SECOND_FACTOR_MESSAGES.codeOrRecoveryRequired)
  .max(MAX_CODE, 'That code is too long.')

/** The sign-in's second step (/signin/verify). */
export const signInCodeSchema = z.object({ code: secondFactorCode })

/** Turning two-step sign-in on: the app's current code proves the key was saved. */
export const totpConfirmSchema = z.object({
  code: safeText({ required_error: SECOND_FACTOR_MESSAGES.codeRequired })
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, SECOND_FACTOR_MESSAGES.codeRequired)
        .regex(/^\d{6}$/, SECOND_FACTOR_MESSAGES.sixDigits),
    ),
})

/** New recovery codes: a current code. */
export const recoveryCodesSchema = z.object({ code: secondFactorCode })

/** Turning two-step sign-in off: a current code, and the password when the account has one. */
export const totpDisableSchema = z.object({
  code: secondFactorCode,
  password: safeText().max(200, 'Password must be at most 200 characters.').optional(),
})

/** POST /api/login: the sign-in's fields, and the code when the account has two-step sign-in. */
export const apiLoginSchema = signInSchema.extend({ code: optionalSecondFactorCode })

/** DELETE /api/user's body: the password (and, with two-step sign-in on, a code). */
export const apiDeleteAccountSchema = z.object({
  password: safeText({ invalid_type_error: 'Password must be text.' }).max(200).optional(),
  code: safeText({ invalid_type_error: 'The code must be text.' }).max(40).optional(),
})
