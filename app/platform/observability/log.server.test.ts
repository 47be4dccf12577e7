import { describe, expect, it } from 'vitest'
import { withoutApiKeys } from './log.server'

describe('withoutApiKeys', () => {
  it('takes personal API keys out of a log line, whole or cut short, and leaves other lines alone', () => {
    const key = 'rwk_0aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV3wX4yZ5abcVWXyz'
    const line = withoutApiKeys(`refused ${key} and {"token":"${key.slice(0, 20)}"}`)
    expect(line).not.toContain(key.slice(4, 10))
    expect(line).toBe('refused rwk_[Filtered] and {"token":"rwk_[Filtered]"}')
    expect(withoutApiKeys('GET /api/user 200 (rwk_ keys: 2)')).toBe('GET /api/user 200 (rwk_ keys: 2)')
  })
})
