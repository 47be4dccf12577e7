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

/**
 * Issue 34: a cookie's name: `__Host-<name>` in production (the browser then accepts it only with Secure, Path=/ and
 * no Domain, so a sibling subdomain cannot set or shadow it), the plain name elsewhere (http://localhost in `npm run
 * dev`). Every cookie of ours is named through this.
 */
export function cookieName(name: string): string {
  return getEnv().NODE_ENV === 'production' ? `__Host-${name}` : name
}
