import { describe, expect, it } from 'vitest'
import { scrubText } from './sentry.server'

describe('scrubText', () => {
  it.each([
    ['a Standard Webhooks secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/abc='],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['a Google access token', 'ya29.a0AfH6SMBx-very_long.token-value_123'],
    ['a Google refresh token', '1//0gLw8Xk2-abcDEF_ghiJKLmnoPQRstuVWXyz'],
    ['a personal API key', 'rwk_0aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV3wX4yZ5abcVWXyz'],
  ])('removes %s from text, whole', (_kind, secret) => {
    const out = scrubText(`failed: ${secret} (url https://x.example/?q=${encodeURIComponent(secret)})`)
    expect(out).not.toContain(secret)
    expect(out).not.toContain(encodeURIComponent(secret))
    expect(out).not.toMatch(/abc=|R8U|123\)|VWXyz/)
    expect(out).toContain('[Filtered]')
  })

  it('leaves ordinary text alone', () => {
    const text = 'GET /blogpost/1 answered 500 after 1/2 s (v1//x)'
    expect(scrubText(text)).toBe(text)
  })
})
