import { describe, expect, it } from 'vitest'
import { normaliseInput, rateLimitMessage, TOOL_MESSAGES } from './seo-tools'
import { apiErrors } from '#app/platform/forms/submission'
import { keywordsInput, strategyInput } from './seo-tools-schema'

describe('normaliseInput (the cache key)', () => {
  it('ignores case, repeated spaces and surrounding punctuation', () => {
    expect(normaliseInput('  Sustainable   FASHION ')).toBe('sustainable fashion')
    expect(normaliseInput('"sustainable fashion?"')).toBe('sustainable fashion')
    expect(normaliseInput('ｆａｓｈｉｏｎ')).toBe('fashion')
  })

  it('keeps inner punctuation that changes the meaning', () => {
    expect(normaliseInput('c++ tutorials')).toBe('c++ tutorials')
    expect(normaliseInput('b2b saas: pricing')).toBe('b2b saas: pricing')
  })
})

describe('tool input schemas', () => {
  it('trims and collapses spaces', () => {
    expect(keywordsInput.parse({ topic: '  vegan   recipes ' })).toEqual({ topic: 'vegan recipes' })
  })

  it('requires the field and bounds its length', () => {
    const missing = keywordsInput.safeParse({})
    expect(missing.success).toBe(false)
    if (!missing.success) expect(apiErrors(missing.error).errors).toEqual({ topic: ['Please enter a content topic.'] })
    expect(keywordsInput.safeParse({ topic: '   ' }).success).toBe(false)
    expect(keywordsInput.safeParse({ topic: 'a'.repeat(200) }).success).toBe(true)
    const long = keywordsInput.safeParse({ topic: 'a'.repeat(201) })
    expect(long.success).toBe(false)
    if (!long.success) expect(apiErrors(long.error).errors.topic).toEqual(['Please use at most 200 characters.'])
  })

  it('needs both strategy fields and reports each one', () => {
    const result = strategyInput.safeParse({ business: '', segment: 7 })
    expect(result.success).toBe(false)
    if (!result.success) expect(Object.keys(apiErrors(result.error).errors).sort()).toEqual(['business', 'segment'])
  })
})

describe('messages', () => {
  it('has the spec strings for every tool', () => {
    expect(TOOL_MESSAGES.outline.failed).toBe('An error occurred while generating outline. Please try later.')
    expect(TOOL_MESSAGES.strategy.empty).toBe('Could not generate SEO strategy. Please try again.')
  })

  it('tells how long to wait when rate-limited', () => {
    expect(rateLimitMessage(30)).toContain('try again in 1 minute,')
    expect(rateLimitMessage(1800)).toContain('try again in 30 minutes')
  })
})
