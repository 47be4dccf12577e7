import { describe, expect, it } from 'vitest'
import { characterCount, seoScore } from './seo-score'

describe('seoScore', () => {
  it('is the length divided by 70 as a rounded percentage', () => {
    expect(seoScore('a'.repeat(35))).toBe(50)
    expect(seoScore('a'.repeat(1))).toBe(1)
    expect(seoScore('a'.repeat(52))).toBe(74) // 74.28…
    expect(seoScore('a'.repeat(53))).toBe(76) // 75.71…
  })

  it('is capped at 100', () => {
    expect(seoScore('a'.repeat(70))).toBe(100)
    expect(seoScore('a'.repeat(71))).toBe(100)
    expect(seoScore('a'.repeat(300))).toBe(100)
  })

  it('is 0 for an empty title and ignores surrounding spaces', () => {
    expect(seoScore('')).toBe(0)
    expect(seoScore('   ')).toBe(0)
    expect(seoScore('  ' + 'a'.repeat(35) + '  ')).toBe(50)
  })

  it('counts characters, not UTF-16 code units', () => {
    expect(characterCount('Café ☕ guide')).toBe(12)
    expect(characterCount('🚀'.repeat(7))).toBe(7)
    expect(seoScore('🚀'.repeat(7))).toBe(10)
  })
})
