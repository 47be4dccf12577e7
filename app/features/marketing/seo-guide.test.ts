import { describe, expect, it } from 'vitest'
import { difficultyBand } from '#app/features/keywords/difficulty'
import { GUIDE_DIFFICULTY_BANDS, SEO_GUIDE } from './seo-guide'

describe('the SEO guide', () => {
  it('teaches the same difficulty bands the keyword screen shows', () => {
    for (const band of GUIDE_DIFFICULTY_BANDS) {
      const [from, to] = band.range.replace('+', '').split('–').map(Number)
      expect(difficultyBand(from!).label).toBe(band.label)
      if (to !== undefined) {
        expect(difficultyBand(to).label).toBe(band.label)
        expect(difficultyBand(to + 1).label).not.toBe(band.label)
      } else {
        expect(difficultyBand(100).label).toBe(band.label)
      }
    }
  })

  it('covers what a founder needs, with unique chapter ids', () => {
    const ids = SEO_GUIDE.chapters.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    const titles = SEO_GUIDE.chapters.map((c) => c.title.toLowerCase()).join(' | ')
    for (const topic of ['keyword', 'intent', 'content', 'internal links', 'patience', 'measuring'])
      expect(titles).toContain(topic)
    const words = JSON.stringify(SEO_GUIDE).split(/\s+/).length
    expect(words).toBeGreaterThan(2200)
  })
})
