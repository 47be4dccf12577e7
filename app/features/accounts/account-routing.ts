import { safeRedirect } from '#app/platform/security/redirect'

/** Pages a signed-in person should never be sent back to after signing in. */
const AUTH_PAGES = ['/signin', '/signup', '/logout', '/oauth-callback', '/api/']

/**
 * Where a person goes right after signing in: /onboarding until onboarding is done; then the guard's `redirectTo`
 * when it is a safe same-site path, otherwise /keywords.
 */
export function landingPath(user: { onboardingComplete: boolean }, redirectTo?: string | null): string {
  if (!user.onboardingComplete) return '/onboarding'
  const target = safeRedirect(redirectTo, '/keywords')
  const path = target.split(/[?#]/)[0]!
  if (AUTH_PAGES.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))) return '/keywords'
  return target
}

/** The /keywords URL that runs the onboarding's first search at once (`run=1`). */
export function firstSearchPath(input: {
  productService: string
  country: { code: string; name: string } | null
  language: { code: string; name: string } | null
}): string {
  const params = new URLSearchParams({ query: input.productService })
  if (input.country) params.set('countryCode', input.country.code)
  if (input.language) params.set('languageCode', input.language.code)
  if (input.country) params.set('countryName', input.country.name)
  if (input.language) params.set('languageName', input.language.name)
  params.set('run', '1')
  return `/keywords?${params}`
}

/** Messages for `/signin?error=<code>` (Google sign-in and the one-time sign-in link). */
export const SIGN_IN_ERRORS: Record<string, string> = {
  'google-denied': 'Google sign-in was cancelled. You can try again or sign in with your email and password.',
  'google-unavailable': 'Google sign-in is not available right now. Please sign in with your email and password.',
  'google-unverified': 'Your Google account’s email address is not verified, so we cannot sign you in with it.',
  'google-conflict': 'This email address is already linked to a different Google account.',
  'google-failed': 'Google sign-in failed. Please try again.',
  'link-expired': 'That sign-in link has expired or was already used. Please sign in again.',
  // Issue 34: the second step's pending sign-in is missing or older than five minutes.
  'code-expired': 'Your sign-in took too long. Please sign in again.',
}

export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null
  return SIGN_IN_ERRORS[code] ?? null
}
