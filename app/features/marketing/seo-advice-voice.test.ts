import { describe, expect, it } from 'vitest'
import { adviceTokens, META_ADVICE, TITLE_ADVICE, TITLE_MAX, TITLE_SCORE_NOTE } from '#app/features/content/seo-advice'
import { parseArticle } from './blog-source'
import { SEO_GUIDE } from './seo-guide'
import { seoScore } from './seo-score'

const article = `---
title: Test
description: A test article.
date: 2026-11-03
---

- {{seo:title-length}}.
- {{seo:meta-length}}.
`

/** Issue 35: the guide, the blog and the free title tool say the SEO advice of app/features/content/seo-advice.ts. */
describe('one voice for SEO advice on the public site', () => {
  it('the guide and the blog say the same sentences and numbers, and no other', () => {
    const guide = JSON.stringify(SEO_GUIDE)
    expect(guide).toContain(TITLE_ADVICE.sentence)
    expect(guide).toContain(META_ADVICE.sentence)
    const blog = parseArticle('test', article).markdown
    expect(blog).toBe('- At most 60 characters.\n- 120–160 characters.')
    // The numbers said before issue 35 (50–70, 140–160) are gone.
    for (const text of [guide, blog]) expect(text).not.toMatch(/50[–-]70|140[–-]160/)
    expect(() => adviceTokens('{{seo:title-lenght}}', 'x.md')).toThrow('x.md: unknown SEO advice token')
  })

  it('explains the spec’s title score where it differs from the advice', () => {
    expect(seoScore('a'.repeat(TITLE_MAX))).toBe(86)
    expect(TITLE_SCORE_NOTE).toContain('out of 70, capped at 100%')
    expect(TITLE_SCORE_NOTE).toContain(`at most ${TITLE_MAX} characters`)
    expect(TITLE_SCORE_NOTE).toContain('(86%)')
  })
})
