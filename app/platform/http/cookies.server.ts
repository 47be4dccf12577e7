import { getEnv } from '#app/platform/env.server'

/**
 * The options every cookie of ours shares: HTTP-only, SameSite=Lax, Secure in production, the whole site, signed
 * with SESSION_SECRETS (the first signs, every one verifies). `maxAgeSeconds` omitted: a browser-session cookie.
 */
export function signedCookieOptions(maxAgeSeconds?: number) {
  const env = getEnv()
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: env.NODE_ENV === 'production',
    path: '/',
    secrets: env.SESSION_SECRETS,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  }
}
