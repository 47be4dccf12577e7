import { describe, expect, it } from 'vitest'
import { plainField, safeSlug, SLUG_MAX_LENGTH } from './plain-field'

describe('plain fields for a remote site', () => {
  it('strips tags, script and style contents, and comments', () => {
    expect(plainField('<script>alert(1)</script>How to <b>invoice</b> clients')).toBe('How to invoice clients')
    expect(plainField('<style>h1{}</style>A <i>title</i><!-- x -->')).toBe('A title')
    expect(plainField('Pay <img src=x onerror=alert(1)>late? 3 < 5 and 5 > 3')).toBe('Pay late? 3 < 5 and 5 > 3')
  })

  it('decodes character references once, and never lets decoding make a tag', () => {
    expect(plainField('Tom &amp; Jerry&#39;s &quot;guide&quot; &#x2014; 2026')).toBe(
      'Tom & Jerry\'s "guide" \u2014 2026',
    )
    expect(plainField('&lt;script&gt;alert(1)&lt;/script&gt;Safe &lt;b&gt;bold&lt;/b&gt;')).toBe('Safe bold')
    // Twice encoded: decoded once, so the text keeps one level (and is still no markup).
    expect(plainField('&amp;lt;b&amp;gt; stays')).toBe('&lt;b&gt; stays')
    expect(plainField('Unknown &bogus; and &#0; stay')).toBe('Unknown &bogus; and &#0; stay')
  })

  it('leaves no "<" that could open a tag where a theme prints the text raw', () => {
    expect(plainField('x <img src=x onerror=alert(1)')).toBe('x < img src=x onerror=alert(1)')
    expect(plainField('x &lt;svg onload=alert(1)')).toBe('x < svg onload=alert(1)')
    expect(plainField('a </b')).toBe('a < /b')
    expect(plainField('1 <2 and 3< 4')).toBe('1 <2 and 3< 4')
  })

  it('drops control characters and collapses whitespace', () => {
    expect(plainField('A\u0000 title\u0007\n\t here  ')).toBe('A title here')
  })
})

describe('slugs for a remote site', () => {
  it('keeps [a-z0-9-] only, lowercase, accents folded', () => {
    expect(safeSlug('how-to-invoice-clients', 'post-1')).toBe('how-to-invoice-clients')
    expect(safeSlug('Crème Brûlée: Über <b>Straße</b>!', 'post-1')).toBe('creme-brulee-uber-strasse')
    expect(safeSlug('../../wp-admin?x=<script>', 'post-1')).toBe('wp-admin-x')
    expect(safeSlug('--a__b--', 'post-1')).toBe('a-b')
  })

  it('is length-bounded, cut at a hyphen', () => {
    const long = safeSlug(Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), 'post-1')
    expect(long.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH)
    expect(long).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    expect(long.endsWith('-')).toBe(false)
    expect(safeSlug('a'.repeat(300), 'post-1')).toBe('a'.repeat(SLUG_MAX_LENGTH))
  })

  it('falls back when nothing is left (the fallback is unique to the post)', () => {
    expect(safeSlug('日本語のタイトル', 'post-6f1c1f8e')).toBe('post-6f1c1f8e')
    expect(safeSlug('', '')).toBe('post')
  })
})
