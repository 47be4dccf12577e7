import { describe, expect, it } from 'vitest'
import { finishArticle, linkUrls } from './content'
import { findPlacement, pickInternalLinks, placeInternalLinks, type LinkTarget } from './internal-links'

const POST = `# Invoicing for freelancers: a practical guide

Getting paid on time is the hardest part of working alone. Most freelancers learn it the expensive way.

## Write the invoice before the work starts

Agree on the scope, the price and the payment terms before you write a single line. Clients pay faster when you set payment terms as a freelancer from the first invoice [1].

## Choose the right tools

Accounting software sends reminders for you. Pick one that tracks hours and turns them into invoices in one click.

\`\`\`
payment terms as a freelancer inside code
\`\`\`

## Chase late payments without losing the client

A polite reminder after seven days works better than silence. Late fees are legal in most countries, but say so in the contract first.

## Sources

1. [Payment terms guide for freelancers](https://research.example/terms)
`

const FREELANCE_TERMS: LinkTarget = {
  url: 'https://acme.test/blog/p/123',
  title: 'How to set payment terms as a freelancer',
  text: 'Net 30, deposits and late fees explained. Deposits. Late fees. Writing terms into the contract.',
}
const REMINDERS: LinkTarget = {
  url: 'https://acme.test/blog/p/77',
  title: 'Late payment reminders that get invoices paid',
  text: 'Templates for a polite reminder. When to send the first reminder. Escalating late payments.',
}
const TOOLS: LinkTarget = {
  url: 'https://acme.test/features',
  title: 'Accounting software for small teams',
  text: 'Track hours, send invoices and reminders.',
}
const UNRELATED: LinkTarget = {
  url: 'https://acme.test/blog/p/9',
  title: 'Kubernetes autoscaling explained',
  text: 'Pods, nodes and the horizontal pod autoscaler.',
}

function linksOf(markdown: string) {
  return [...markdown.matchAll(/\[([^\]]+)\]\((https:\/\/acme\.test[^)]*)\)/g)].map((m) => ({ text: m[1], url: m[2] }))
}

describe('internal links by meaning', () => {
  it('links a page by what its title says, not its URL: a post about freelancers links the payment terms page', () => {
    const out = placeInternalLinks(POST, [FREELANCE_TERMS])
    const links = linksOf(out)
    expect(links).toEqual([{ text: 'set payment terms as a freelancer', url: FREELANCE_TERMS.url }])
    // On the phrase of its sentence, in the paragraph about it (not the heading, the code, or the Sources list).
    expect(out).toContain(
      `Clients pay faster when you [set payment terms as a freelancer](${FREELANCE_TERMS.url}) from the first invoice [1].`,
    )
    expect(out).toContain('## Write the invoice before the work starts')
    expect(out).toContain('payment terms as a freelancer inside code')
    expect(out.split('## Sources')[1]).not.toContain('acme.test')
    // Ranked by term overlap of the title, the URL /blog/p/123 says nothing.
    expect(pickInternalLinks('freelancer payment terms', [UNRELATED, FREELANCE_TERMS]).map((t) => t.url)).toEqual([
      FREELANCE_TERMS.url,
    ])
  })

  it('places 2–5 links, each target once, one per paragraph, anchors from the sentence; unrelated pages stay out', () => {
    const out = placeInternalLinks(POST, [FREELANCE_TERMS, REMINDERS, TOOLS, UNRELATED])
    const links = linksOf(out)
    expect(links.map((l) => l.url).sort()).toEqual([FREELANCE_TERMS.url, REMINDERS.url, TOOLS.url].sort())
    for (const l of links) {
      const words = l.text!.split(/\s+/)
      expect(words.length).toBeGreaterThanOrEqual(2)
      expect(words.length).toBeLessThanOrEqual(6)
      expect(POST).toContain(l.text)
    }
    expect(out).toContain(`A [polite reminder](${REMINDERS.url}) after seven days`)
    expect(out).toContain(`[Accounting software sends reminders](${TOOLS.url}) for you.`)
    // One new link per paragraph.
    for (const paragraph of out.split('\n\n')) expect(linksOf(paragraph).length).toBeLessThanOrEqual(1)
    // A second pass changes nothing: each target once.
    expect(placeInternalLinks(out, [FREELANCE_TERMS, REMINDERS, TOOLS, UNRELATED])).toBe(out)
  })

  it('never more than max, and an existing link counts', () => {
    const already = POST.replace('Most freelancers', `Most [freelancers](${UNRELATED.url})`)
    const out = placeInternalLinks(already, [FREELANCE_TERMS, REMINDERS, TOOLS, UNRELATED], { max: 2 })
    expect(linksOf(out)).toHaveLength(2)
  })

  it('never links inside a link, code, a heading or the whole sentence', () => {
    const md =
      '# Payment terms\n\n## Payment terms as a freelancer\n\nPayment terms.\n\nSee `payment terms freelancer` and [payment terms as a freelancer](https://x.example).\n'
    expect(placeInternalLinks(md, [FREELANCE_TERMS])).toBe(md)
    expect(findPlacement(md, FREELANCE_TERMS)).toBeNull()
  })

  it('finishArticle: inline where the text is about a target, the rest in Related reading only when fewer than 2 fit', () => {
    const body = POST.split('\n## Sources')[0]!
    const two = finishArticle(body, { internal: [FREELANCE_TERMS, REMINDERS], cta: null, sources: [] })
    expect(two).not.toContain('Related reading')
    expect(linkUrls(two)).toEqual(expect.arrayContaining([FREELANCE_TERMS.url, REMINDERS.url]))
    const one = finishArticle(body, { internal: [FREELANCE_TERMS, UNRELATED], cta: null, sources: [] })
    expect(one).toContain(`**Related reading:** [Kubernetes autoscaling explained](${UNRELATED.url})`)
    expect(linksOf(one)).toHaveLength(2)
  })
})
