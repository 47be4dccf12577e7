import { describe, expect, it } from 'vitest'
import {
  buildJsonLd,
  faqFromMarkdown,
  filterLinks,
  finishArticle,
  jsonLdScript,
  linkUrls,
  pickInternalLinks,
  urlSet,
} from './content'

const research = ['https://a.example/guide', 'https://b.example/stats']
const own = ['https://acme.test/pricing']
const allowed = (u: string) => urlSet([...research, ...own])(u)

describe('content finish', () => {
  it('keeps only research and own links; other links become text, foreign images and raw HTML go', () => {
    const md =
      'See [guide](https://a.example/guide), [evil](https://evil.example/x), [js](javascript:alert(1)) and [price](https://acme.test/pricing).\n\n![t](https://evil.example/p.png) <a href="https://evil.example">click</a> <img src="https://evil.example/i.png">'
    const out = filterLinks(md, allowed)
    expect(linkUrls(out)).toEqual(['https://a.example/guide', 'https://acme.test/pricing'])
    expect(out).toContain('evil')
    expect(out).not.toContain('evil.example')
    expect(out).toContain('click')
  })

  it('picks relevant own pages, never the post itself, each once', () => {
    const picked = pickInternalLinks(
      'email newsletter tools',
      [
        { url: 'https://acme.test/blog/email-newsletter-checklist', title: 'Checklist' },
        { url: 'https://acme.test/blog/email-newsletter-checklist/', title: 'Dup' },
        { url: 'https://acme.test/about', title: 'About' },
        { url: 'https://acme.test/blog/newsletter-tools', title: 'Self' },
      ],
      { exclude: ['https://acme.test/blog/newsletter-tools'] },
    )
    expect(picked.map((p) => p.url)).toEqual(['https://acme.test/blog/email-newsletter-checklist'])
  })

  it('adds missing internal links, closes with the CTA, then lists the sources', () => {
    const out = finishArticle('# T\n\nBody.', {
      internal: [
        { url: 'https://acme.test/a', title: 'A' },
        { url: 'https://acme.test/b', title: 'B' },
      ],
      cta: { text: 'Try it free', url: 'https://acme.test/signup' },
      sources: [{ url: 'https://a.example/guide', title: 'Guide' }],
    })
    expect(out).toBe(
      '# T\n\nBody.\n\n**Related reading:** [A](https://acme.test/a) · [B](https://acme.test/b)\n\n**[Try it free](https://acme.test/signup)**\n\n## Sources\n\n1. [Guide](https://a.example/guide)\n',
    )
  })

  it('builds Article and FAQPage JSON-LD and escapes it for a script element', () => {
    const md = '# T\n\n## Frequently Asked Questions\n\n### Is it free?\n\nYes, **mostly**.\n\n## End\n\nBye.'
    expect(faqFromMarkdown(md)).toEqual([{ question: 'Is it free?', answer: 'Yes, mostly.' }])
    const ld = buildJsonLd({
      title: 'T',
      description: 'D',
      markdown: md,
      url: null,
      language: 'English',
      keyword: 'k',
      publishedAt: new Date('2026-01-01T00:00:00Z'),
      modifiedAt: null,
      business: { name: 'Acme', url: 'https://acme.test' },
    })
    expect(ld[0]).toMatchObject({ '@type': 'Article', headline: 'T', datePublished: '2026-01-01T00:00:00.000Z' })
    expect(ld[1]).toMatchObject({ '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'Is it free?' }] })
    expect(jsonLdScript({ a: '</script>' })).not.toContain('</script>')
  })
})
