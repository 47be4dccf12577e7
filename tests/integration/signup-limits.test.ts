import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { AUTH_MESSAGES } from '#app/features/accounts/account-schemas'
import { api, appUrl, createTestUser, uniqueEmail, uniqueIp } from '#tests/setup/app'
import { Browser } from '#tests/setup/http-browser'

/**
 * Issue 34 (6): sign-up, whose answer for a taken address the spec keeps, is rate-limited per client and per address
 * with the usual 429 (the per-client limit of the API: accounts.test.ts 'limits sign-ups per IP'). The forgot-password
 * timing: forgot-password-timing.test.ts.
 */

describe('sign-up limits (issue 34)', () => {
  const password = () => `pw-${crypto.randomBytes(9).toString('base64url')}`
  const signUp = (ip: string, email: string) =>
    api('/api/signup', {
      method: 'POST',
      json: { name: 'Sam', email, password: password() },
      headers: { 'X-Forwarded-For': ip },
    })

  it('limits sign-ups per address from any client: the taken answer stays, then the usual 429', async () => {
    const owner = await createTestUser()
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      const res = await signUp(uniqueIp(), owner.email)
      statuses.push(res.status)
      expect(res.body).toEqual({ message: AUTH_MESSAGES.duplicate })
    }
    expect(statuses).toEqual([409, 409, 409, 409, 409])
    const limited = await signUp(uniqueIp(), owner.email.toUpperCase())
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // Nothing more than the message: the same words as every other limit.
    expect(Object.keys(limited.body)).toEqual(['message'])
    expect(limited.body.message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/)
    // A new address from a new client is not affected.
    expect((await signUp(uniqueIp(), uniqueEmail('fresh'))).status).toBe(201)
  })

  it('limits the sign-up page per client, with the message on the form', async () => {
    const ip = uniqueIp()
    for (let i = 0; i < 10; i++) {
      const res = await new Browser(ip).postForm(`${appUrl()}/signup`, {
        name: 'Sam',
        email: uniqueEmail('page'),
        password: password(),
      })
      expect(res.status).toBe(302)
    }
    const email = uniqueEmail('page')
    const limited = await new Browser(ip).postForm(`${appUrl()}/signup`, { name: 'Sam', email, password: password() })
    expect(limited.status).toBe(429)
    expect(await limited.text()).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./)
    // Nobody was signed up by the refused attempt.
    expect((await signUp(uniqueIp(), email)).status).toBe(201)
  })
})
