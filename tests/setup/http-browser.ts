/**
 * A tiny cookie jar for following redirects across the app and the fake Google by hand, for integration tests that
 * act as one browser (its own client IP, its cookies).
 */
import { expect } from 'vitest'
import { appUrl, uniqueIp } from './app'

export class Browser {
  cookies = new Map<string, string>()
  constructor(readonly ip = uniqueIp()) {}
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const i = pair!.indexOf('=')
      const name = pair!.slice(0, i).trim()
      const value = pair!.slice(i + 1).trim()
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  async get(url: string) {
    const sameSite = url.startsWith(appUrl())
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { ...(sameSite && this.cookies.size ? { Cookie: this.header() } : {}), 'X-Forwarded-For': this.ip },
    })
    if (sameSite) this.remember(res)
    return res
  }
  /** `fields` as pairs when a name repeats (checkboxes). */
  async postForm(url: string, fields: Record<string, string> | Array<[string, string]>) {
    const sameSite = url.startsWith(appUrl())
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-For': this.ip,
        ...(sameSite ? { Origin: appUrl(), ...(this.cookies.size ? { Cookie: this.header() } : {}) } : {}),
      },
      body: new URLSearchParams(fields),
    })
    if (sameSite) this.remember(res)
    return res
  }
}

export const location = (res: Response) => {
  const to = res.headers.get('location') ?? ''
  return to.startsWith('http') ? to : `${appUrl()}${to}`
}
export const path = (res: Response) => {
  const url = new URL(location(res))
  return `${url.pathname}${url.search}`
}

/**
 * Goes through Google sign-in as a person on the fake's consent page: our /api/auth/google, the consent form
 * (allow or deny, with the e-mail typed in), our callback, and (when allowed) /oauth-callback.
 */
export async function googleSignIn(
  browser: Browser,
  identity: { email: string; name?: string; verified?: boolean; decision?: 'allow' | 'deny' },
) {
  const start = await browser.get(`${appUrl()}/api/auth/google`)
  expect(start.status).toBe(302)
  const consentUrl = location(start)
  expect(consentUrl).toContain('/o/oauth2/v2/auth')
  const consent = await fetch(consentUrl)
  const html = await consent.text()
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1]
  expect(requestId).toBeTruthy()
  const decided = await fetch(new URL('/o/oauth2/v2/auth/decision', consentUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      request_id: requestId!,
      email: identity.email,
      name: identity.name ?? 'Google Person',
      email_verified: String(identity.verified ?? true),
      decision: identity.decision ?? 'allow',
    }),
  })
  expect(decided.status).toBe(302)
  const callback = await browser.get(location(decided))
  expect(callback.status).toBe(302)
  return { callback, callbackPath: path(callback) }
}
