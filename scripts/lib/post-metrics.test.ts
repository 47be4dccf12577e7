import { describe, expect, it } from 'vitest'
import { EVIL_LINK_FORMS, EVIL_URLS } from '#tests/fakes/claims'
import {
  allowedUrl,
  citationLinks,
  figuresIn,
  figuresOf,
  jsonUrls,
  markdownUrls,
  postMetrics,
  sourcesList,
  textTable,
} from './post-metrics'

const read = 'https://a.example/guide'
const notRead = 'https://a.example/broken'
const site = 'http://127.0.0.1:4100'
const evidence = {
  pages: [
    { url: read, title: 'Guide', domain: 'a.example', rank: 1, status: 'read', reason: null, fetchedAt: 'x' },
    { url: notRead, title: 'Broken', domain: 'a.example', rank: 2, status: 'not read', reason: 'HTTP 500' },
  ],
  facts: [],
}
const siteContext = {
  siteUrls: [site],
  ctaUrls: [`${site}/signup`],
  targets: [{ url: `${site}/blog/invoice-checklist`, title: 'Invoice checklist for freelancers' }],
}

describe('post metrics (npm run eval:posts)', () => {
  it('sees every Markdown link form as the link marked renders', () => {
    const f = EVIL_LINK_FORMS
    const md = `Text ${f.inline} ${f.bare} ${f.www} ${f.autolink} ${f.singleQuotedTitle} ${f.parenthesisedTitle} ${f.reference}.\n\n${f.referenceDefinition}\n\n${f.image}\n\nSee ${f.rawHtml}.`
    expect(new Set(markdownUrls(md))).toEqual(new Set(EVIL_URLS))
    const allow = allowedUrl([read], { siteUrls: [site] })
    expect(markdownUrls(md).filter(allow)).toEqual([])
    expect(allow(`${read}#:~:text=73%25`)).toBe(true)
    expect(allow(notRead)).toBe(false)
    expect(allow(`${site}/pricing`)).toBe(true)
    expect(allow('http://127.0.0.1:9999/site/1/x')).toBe(false)
    expect(allow('#faq')).toBe(true)
    expect(allow('mailto:a@evil.example')).toBe(false)
  })

  it('finds URLs in JSON-LD strings, not the vocabulary', () => {
    expect(
      jsonUrls([{ '@context': 'https://schema.org', text: 'See https://evil.example/x and www.evil.example/w.' }]),
    ).toEqual(['https://evil.example/x', 'www.evil.example/w'])
  })

  it('normalises figures: 73% = 73 percent = 0.73, 7.3 million = 7,300,000', () => {
    expect(figuresOf('73% and 73 percent and 0.73')).toEqual([0.73, 0.73, 0.73])
    expect(figuresOf('7.3 million or 7,300,000 [F3] [2] [0 ]')).toEqual([7300000, 7300000])
    expect(figuresIn('A 2025 study: 73% of founders [F2]', 'In 2025, 73 percent of founders said so.')).toBe(true)
    expect(figuresIn('73% of founders', '45% of marketers')).toBe(false)
  })

  it('scores a post: unread citations, off-list links, Sources against citations, link relevance', () => {
    const md = [
      '# Invoices',
      `Most freelancers send invoices late [[1](${read}#:~:text=late)]. A broken page says so too [[2](${notRead})].`,
      `Pick the terms before the work starts, then use an [invoice checklist](${site}/blog/invoice-checklist) to check every detail and the payment date.`,
      `**Related reading:** [Pricing](${site}/pricing)`,
      `**[Start your free trial](${site}/signup)**`,
      '## Sources',
      `1. [Guide](${read})`,
    ].join('\n\n')
    const m = postMetrics(
      {
        keyword: 'invoice software',
        contentMarkdown: md,
        contentHtml: '<p><a href="https://evil.example/x">x</a><img src="https://a.example/guide"></p>',
        jsonLd: [{ '@context': 'https://schema.org', url: `${site}/blog/post` }],
        claims: [
          { text: 'a', status: 'verified', sourceUrl: read },
          { text: 'b', status: 'removed' },
          { text: 'c', sourceUrl: read },
        ],
        evidence,
      },
      siteContext,
    )
    expect(m.claims).toEqual({ verified: 1, rewritten: 0, unverified: 1, removed: 1 })
    expect(m.unreadCitations).toEqual([notRead])
    expect(m.offList).toEqual(['https://evil.example/x', notRead])
    expect(m.sourcesMatch).toBe(false)
    expect(m.internalLinks).toBe(2)
    expect(m.relevantLinks).toBe(1)
    expect(citationLinks(md).map((c) => c.n)).toEqual([1, 2])
    expect(sourcesList(md)).toEqual([{ n: 1, url: read }])

    const fixed = md.replace(/ A broken page says so too \[\[2\]\([^)]*\)\]\./, '')
    const ok = postMetrics(
      { keyword: 'invoice software', contentMarkdown: fixed, contentHtml: '', jsonLd: [], claims: [], evidence },
      siteContext,
    )
    expect(ok.unreadCitations).toEqual([])
    expect(ok.offList).toEqual([])
    expect(ok.sourcesMatch).toBe(true)
  })

  it('prints an aligned table', () => {
    expect(textTable(['post', 'n'], [['a', '1']], ['all', '10'])).toBe(
      ['post   n', '----  --', 'a      1', '----  --', 'all   10'].join('\n'),
    )
  })
})
