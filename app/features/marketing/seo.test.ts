import { describe, expect, it } from 'vitest'
import { PLANS } from '#app/features/billing/plans'
import { appUrlFrom, robotsTxt, seoMeta, sitemapXml, softwareJsonLd } from './seo'
import { faqJsonLd } from '#app/platform/seo/json-ld'

const matches = [{ id: 'root', data: { env: { APP_URL: 'https://rankwell.example/' } } }, { id: 'routes/free-tools' }]

describe('seoMeta', () => {
  it('builds title, description, canonical and Open Graph tags with absolute URLs', () => {
    const meta = seoMeta({ title: 'Free SEO Tools', description: 'Four free tools.', path: '/free-tools', matches })
    expect(meta).toContainEqual({ title: 'Free SEO Tools | Rankwell' })
    expect(meta).toContainEqual({ name: 'description', content: 'Four free tools.' })
    expect(meta).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'https://rankwell.example/free-tools' })
    expect(meta).toContainEqual({ property: 'og:url', content: 'https://rankwell.example/free-tools' })
    expect(meta).toContainEqual({ property: 'og:title', content: 'Free SEO Tools | Rankwell' })
    expect(meta.some((m) => 'name' in m && m.name === 'robots')).toBe(false)
  })

  it('does not repeat the brand, adds noindex and JSON-LD when asked', () => {
    const meta = seoMeta({
      title: 'Rankwell: SEO',
      description: 'd',
      path: '/',
      appUrl: 'http://localhost:3000',
      noindex: true,
      jsonLd: [{ '@type': 'Thing' }],
    })
    expect(meta).toContainEqual({ title: 'Rankwell: SEO' })
    expect(meta).toContainEqual({ name: 'robots', content: 'noindex, follow' })
    expect(meta).toContainEqual({ 'script:ld+json': { '@type': 'Thing' } })
    expect(meta).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'http://localhost:3000/' })
  })

  it('falls back to localhost without root data', () => {
    expect(appUrlFrom(undefined)).toBe('http://localhost:3000')
    expect(appUrlFrom(matches)).toBe('https://rankwell.example')
  })
})

describe('JSON-LD', () => {
  it('lists the free trial and every plan from plans.ts as offers', () => {
    const data = softwareJsonLd('https://rankwell.example')
    expect(data['@type']).toBe('SoftwareApplication')
    expect(data.offers[0]).toMatchObject({ name: 'Free Trial', price: '0.00', priceCurrency: 'USD' })
    expect(data.offers.slice(1).map((o) => o.price)).toEqual(PLANS.map((p) => p.price.toFixed(2)))
    expect(data.offers).toContainEqual(expect.objectContaining({ price: '49.90' }))
    // The allowance is monthly on every plan, also on those billed every 3 months or yearly.
    for (const offer of data.offers.slice(1)) {
      expect(offer.description).toContain('500 keyword analyses a month, 100 AI-generated blog posts a month')
      expect(offer.description).not.toMatch(/analyses (a year|every 3 months)/)
    }
  })

  it('turns questions and answers into an FAQPage', () => {
    const data = faqJsonLd([{ question: 'Q?', answer: 'A.' }])
    expect(data.mainEntity).toEqual([
      { '@type': 'Question', name: 'Q?', acceptedAnswer: { '@type': 'Answer', text: 'A.' } },
    ])
  })
})

describe('sitemap and robots', () => {
  it('lists the public pages with absolute URLs', () => {
    const xml = sitemapXml('https://rankwell.example')
    expect(xml).toContain('<loc>https://rankwell.example/</loc>')
    expect(xml).toContain('<loc>https://rankwell.example/free-blog-outline</loc>')
    expect(xml).not.toContain('/keywords')
  })

  it('keeps crawlers out of the app and points to the sitemap', () => {
    const txt = robotsTxt('https://rankwell.example')
    expect(txt).toContain('Disallow: /api/')
    expect(txt).toContain('Disallow: /keywords')
    expect(txt).toContain('Sitemap: https://rankwell.example/sitemap.xml')
    expect(txt).not.toMatch(/Disallow: \/\n/)
  })
})
