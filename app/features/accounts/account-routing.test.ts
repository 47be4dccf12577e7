import { describe, expect, it } from 'vitest'
import { firstSearchPath, landingPath, signInErrorMessage } from './account-routing'

describe('landingPath', () => {
  it('sends people who have not finished onboarding to /onboarding, whatever redirectTo says', () => {
    expect(landingPath({ onboardingComplete: false })).toBe('/onboarding')
    expect(landingPath({ onboardingComplete: false }, '/blogposts')).toBe('/onboarding')
  })
  it('sends onboarded people to /keywords, or to a safe redirectTo', () => {
    expect(landingPath({ onboardingComplete: true })).toBe('/keywords')
    expect(landingPath({ onboardingComplete: true }, '/blogpost/abc?x=1')).toBe('/blogpost/abc?x=1')
  })
  it('ignores unsafe or looping targets', () => {
    expect(landingPath({ onboardingComplete: true }, 'https://evil.example')).toBe('/keywords')
    expect(landingPath({ onboardingComplete: true }, '//evil.example/x')).toBe('/keywords')
    expect(landingPath({ onboardingComplete: true }, '/signin?redirectTo=/x')).toBe('/keywords')
    expect(landingPath({ onboardingComplete: true }, '/logout')).toBe('/keywords')
    expect(landingPath({ onboardingComplete: true }, '/api/user')).toBe('/keywords')
  })
  it('keeps paths that merely start like an auth page', () => {
    expect(landingPath({ onboardingComplete: true }, '/signing-tips')).toBe('/signing-tips')
  })
})

describe('firstSearchPath', () => {
  it('carries the product/service as the query plus the market, and run=1', () => {
    const url = new URL(
      firstSearchPath({
        productService: 'email marketing & automation',
        country: { code: '2840', name: 'United States' },
        language: { code: '1000', name: 'English' },
      }),
      'http://x',
    )
    expect(url.pathname).toBe('/keywords')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      query: 'email marketing & automation',
      countryCode: '2840',
      languageCode: '1000',
      countryName: 'United States',
      languageName: 'English',
      run: '1',
    })
  })
  it('leaves out a market that was not chosen', () => {
    expect(firstSearchPath({ productService: 'crm', country: null, language: null })).toBe('/keywords?query=crm&run=1')
  })
})

describe('signInErrorMessage', () => {
  it('maps known codes and ignores others', () => {
    expect(signInErrorMessage('google-denied')).toMatch(/cancelled/)
    expect(signInErrorMessage('<script>')).toBeNull()
    expect(signInErrorMessage(null)).toBeNull()
  })
})
