import { describe, expect, it } from 'vitest'
import { apiErrors, parseSubmission } from '#app/platform/forms/submission'
import {
  helpSchema,
  onboardingFormSchema,
  onboardingSchema,
  profileFormSchema,
  profileSchema,
  signInSchema,
  signUpSchema,
} from './account-schemas'

describe('sign-in and sign-up', () => {
  it('trims the email and requires both fields', () => {
    expect(signInSchema.parse({ email: '  Jane@Example.com ', password: 'x' })).toEqual({
      email: 'Jane@Example.com',
      password: 'x',
    })
    const bad = signInSchema.safeParse({ email: '', password: '' })
    expect(bad.success).toBe(false)
    if (!bad.success) {
      const { errors } = apiErrors(bad.error)
      expect(errors.email?.[0]).toBe('Email is required.')
      expect(errors.password?.[0]).toBe('Password is required.')
    }
  })
  it('refuses a malformed email and a short password on sign-up', () => {
    const bad = signUpSchema.safeParse({ name: ' ', email: 'not-an-email', password: 'short' })
    expect(bad.success).toBe(false)
    if (!bad.success) {
      const { errors, message } = apiErrors(bad.error)
      expect(errors.name?.[0]).toBe('Name is required.')
      expect(errors.email?.[0]).toBe('Please enter a valid email address.')
      expect(errors.password?.[0]).toMatch(/at least 8/)
      expect(message).toBe('Name is required.')
    }
  })
  it('refuses non-string values', () => {
    expect(signInSchema.safeParse({ email: 42, password: ['a'] }).success).toBe(false)
  })
})

describe('onboarding', () => {
  const base = { marketSegment: 'Indie founders', productService: 'CRM software' }
  it('accepts an empty website and missing markets as null', () => {
    expect(onboardingSchema.parse({ ...base, website: '' })).toEqual({
      ...base,
      website: null,
      country: null,
      language: null,
    })
    expect(onboardingSchema.parse({ ...base, website: null, country: null, language: null }).website).toBeNull()
  })
  it('requires a URL when the website is filled', () => {
    expect(onboardingSchema.safeParse({ ...base, website: 'example dot com' }).success).toBe(false)
    expect(onboardingSchema.safeParse({ ...base, website: 'ftp://example.com' }).success).toBe(false)
    expect(onboardingSchema.parse({ ...base, website: ' https://example.com/a ' }).website).toBe(
      'https://example.com/a',
    )
  })
  it('requires Ideal Customer and Product/Service', () => {
    const bad = onboardingSchema.safeParse({ marketSegment: '  ', productService: '' })
    expect(bad.success).toBe(false)
    if (!bad.success) {
      const { errors } = apiErrors(bad.error)
      expect(errors.marketSegment?.[0]).toBe('Ideal Customer is required.')
      expect(errors.productService?.[0]).toBe('Product/Service is required.')
    }
  })
  it('takes markets by code and uses our own names', () => {
    const parsed = onboardingSchema.parse({
      ...base,
      country: { code: '2840', name: 'Whatever' },
      language: { code: 1001, name: 'German' },
    })
    expect(parsed.country).toEqual({ code: '2840', name: 'United States' })
    expect(parsed.language).toEqual({ code: '1001', name: 'German' })
  })
  it('refuses unknown market codes', () => {
    const bad = onboardingSchema.safeParse({ ...base, country: { code: '99999', name: 'Atlantis' } })
    expect(bad.success).toBe(false)
    if (!bad.success) expect(apiErrors(bad.error).errors.country?.[0]).toBe('Please choose a country from the list.')
  })
  it('reads the flat form fields into the same shape', () => {
    const form = new FormData()
    form.set('website', 'https://a.example')
    form.set('marketSegment', 'Shops')
    form.set('productService', 'POS')
    form.set('countryCode', '2826')
    form.set('languageCode', '')
    const submission = parseSubmission(form, onboardingFormSchema)
    expect(submission.status).toBe('success')
    if (submission.status === 'success')
      expect(submission.value).toEqual({
        website: 'https://a.example',
        marketSegment: 'Shops',
        productService: 'POS',
        country: { code: '2826', name: 'United Kingdom' },
        language: null,
      })
  })
  it('refuses an unknown code next to its select, and keeps what was posted', () => {
    const form = new FormData()
    form.set('marketSegment', 'Shops')
    form.set('productService', 'POS')
    form.set('countryCode', '99999')
    const reply = parseSubmission(form, onboardingFormSchema).reply()
    expect(reply.error).toEqual({ countryCode: ['Please choose a country from the list.'] })
    expect(reply.initialValue).toMatchObject({ marketSegment: 'Shops', countryCode: '99999' })
  })
})

describe('profile', () => {
  it('leaves the business details unchanged when they are absent', () => {
    const parsed = profileSchema.parse({ name: 'Jane', marketSegment: 'Shops', productService: 'POS' })
    expect(parsed.website).toBeUndefined()
    expect(parsed.country).toBeUndefined()
  })
  it('requires the name', () => {
    expect(profileSchema.safeParse({ name: '', marketSegment: 'a', productService: 'b' }).success).toBe(false)
  })
  it('leaves the markets unchanged when the form posts no select, and clears one posted empty', () => {
    const form = new FormData()
    form.set('name', 'Jane')
    form.set('marketSegment', 'Shops')
    form.set('productService', 'POS')
    const absent = parseSubmission(form, profileFormSchema)
    expect(absent.status === 'success' && absent.value).toEqual({
      name: 'Jane',
      marketSegment: 'Shops',
      productService: 'POS',
      country: undefined,
      language: undefined,
    })
    form.set('countryCode', '')
    form.set('languageCode', '1000')
    const chosen = parseSubmission(form, profileFormSchema)
    expect(chosen.status === 'success' && chosen.value).toMatchObject({
      country: null,
      language: { code: '1000', name: 'English' },
    })
  })
})

describe('help', () => {
  it('requires a question', () => {
    expect(helpSchema.safeParse({ question: '   ' }).success).toBe(false)
    expect(helpSchema.parse({ question: ' How do I? ' })).toEqual({ question: 'How do I?' })
  })
})
