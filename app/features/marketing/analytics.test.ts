import { describe, expect, it } from 'vitest'
import { sanitizePath } from './analytics'
import { analyticsPayload } from './analytics-schema'

describe('sanitizePath', () => {
  it('keeps the path and the query string', () => {
    expect(sanitizePath('/free-tools?utm_source=newsletter&ref=x')).toBe('/free-tools?utm_source=newsletter&ref=x')
    expect(sanitizePath('/')).toBe('/')
  })

  it('redacts the values of sensitive parameters and drops the hash', () => {
    expect(sanitizePath('/oauth-callback?token=abc.def&next=1#top')).toBe('/oauth-callback?token=redacted&next=1')
    expect(sanitizePath('/checkout-success?session_id=cs_test_123')).toBe('/checkout-success?session_id=redacted')
    expect(sanitizePath('/signin?redirectTo=%2Fkeywords&Email=a@b.c')).toBe(
      '/signin?redirectTo=redacted&Email=redacted',
    )
  })

  it('never leaves our own origin and bounds the length', () => {
    expect(sanitizePath('https://evil.example/x?y=1')).toBe('/x?y=1')
    expect(sanitizePath(`/${'a'.repeat(900)}`)).toHaveLength(500)
  })
})

describe('analyticsPayload', () => {
  it('accepts one event or a batch', () => {
    expect(analyticsPayload.parse({ type: 'pageview', path: '/' })).toEqual([{ type: 'pageview', path: '/' }])
    const batch = analyticsPayload.parse({ events: [{ type: 'web-vital', path: '/', name: 'LCP', value: 1200 }] })
    expect(batch).toHaveLength(1)
  })

  it('refuses unknown metrics, relative or missing paths and oversized batches', () => {
    expect(analyticsPayload.safeParse({ type: 'web-vital', path: '/', name: 'FID', value: 1 }).success).toBe(false)
    expect(analyticsPayload.safeParse({ type: 'pageview', path: 'free-tools' }).success).toBe(false)
    expect(analyticsPayload.safeParse({ type: 'pageview' }).success).toBe(false)
    const many = Array.from({ length: 21 }, () => ({ type: 'pageview', path: '/' }))
    expect(analyticsPayload.safeParse({ events: many }).success).toBe(false)
  })
})
