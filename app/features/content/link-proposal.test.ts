import { describe, expect, it } from 'vitest'
import { proposeLink } from './link-proposal'

const target = {
  url: 'https://acme.test/blog/email-onboarding',
  title: 'Email onboarding that works',
  keyword: 'email onboarding',
}

describe('proposeLink', () => {
  it('links the first mention of the keyword in prose, keeping its casing', () => {
    const body = [
      'Most teams start with a welcome message.',
      '',
      '## Why it matters',
      '',
      'Good Email  Onboarding keeps users. More email onboarding later.',
    ].join('\n')
    const p = proposeLink(body, target)
    expect(p.kind).toBe('inline')
    expect(p.markdown).toContain('Good [Email Onboarding](https://acme.test/blog/email-onboarding) keeps users.')
    // Only the first mention becomes a link.
    expect(p.markdown).toContain('More email onboarding later.')
    expect(p.kind === 'inline' && p.anchor).toBe('Email  Onboarding')
    expect(p.excerpt).toContain('Email  Onboarding keeps users')
  })

  it('never links inside headings, links, code, tables, a word or the sources', () => {
    const body = [
      '## Email onboarding basics',
      '',
      'See [our email onboarding guide](https://other.test/guide) and `email onboarding` in code.',
      '',
      '```',
      'email onboarding in a block',
      '```',
      '',
      '| email onboarding | table |',
      '',
      'Words like preemail onboardings do not count.',
      '',
      '## Sources',
      '',
      '1. [Email onboarding study](https://research.test/study) on email onboarding',
    ].join('\n')
    const p = proposeLink(body, target)
    expect(p.kind).toBe('read-next')
    expect(p.markdown.match(/acme\.test/g)).toHaveLength(1)
    expect(p.markdown).toContain('[our email onboarding guide](https://other.test/guide)')
    expect(p.markdown).toContain('`email onboarding` in code')
  })

  it('adds a Read next line to the most related section when the keyword is not mentioned', () => {
    const body = [
      'Intro about churn.',
      '',
      '## Pricing pages',
      '',
      'How to price.',
      '',
      '## Welcome emails',
      '',
      'A first email that works for onboarding new users.',
      '',
      '## Closing',
      '',
      'Bye.',
    ].join('\n')
    const p = proposeLink(body, { ...target, keyword: 'activation sequence' })
    expect(p.kind).toBe('read-next')
    expect(p.kind === 'read-next' && p.section).toBe('Welcome emails')
    expect(p.markdown).toContain(
      'A first email that works for onboarding new users.\n\n**Read next:** [Email onboarding that works](https://acme.test/blog/email-onboarding)\n\n## Closing',
    )
  })

  it('appends the Read next line to a body without sections, before its sources', () => {
    const p = proposeLink('Just one paragraph.\n\n## Sources\n\n1. [A](https://a.test)', {
      ...target,
      keyword: 'nothing here',
    })
    expect(p.markdown).toBe(
      'Just one paragraph.\n\n**Read next:** [Email onboarding that works](https://acme.test/blog/email-onboarding)\n\n## Sources\n\n1. [A](https://a.test)',
    )
    expect(proposeLink('Alone.', { ...target, keyword: 'x y' }).markdown).toBe(
      'Alone.\n\n**Read next:** [Email onboarding that works](https://acme.test/blog/email-onboarding)\n',
    )
  })

  it('keeps brackets of a title out of the link text', () => {
    const p = proposeLink('Text.', { ...target, title: 'A [great] post', keyword: 'zzz' })
    expect(p.markdown).toContain('**Read next:** [A great post](https://acme.test/blog/email-onboarding)')
  })

  it('without a mention, links the phrase that names the newer post in the paragraph about it, shown as text', () => {
    const body = [
      'Most freelancers wait weeks for their money. Clear **payment terms** fix that, says [a survey](https://x.test/s).',
      '',
      '## Contracts',
      '',
      'Sign before the work starts.',
    ].join('\n')
    const freelance = {
      url: 'https://acme.test/blog/p/123',
      title: 'How to set payment terms as a freelancer',
      keyword: 'freelance invoicing',
      text: 'Net 30, deposits and late fees.',
    }
    const p = proposeLink(body, freelance)
    expect(p.kind).toBe('inline')
    expect(p.markdown).toContain('Clear **[payment terms](https://acme.test/blog/p/123)** fix that')
    // The change as the reader sees it: no Markdown syntax, the sentence before and after, the link apart.
    expect(p.change).toEqual({
      before: 'Clear payment terms fix that, says a survey.',
      after: { lead: 'Clear ', anchor: 'payment terms', trail: ' fix that, says a survey.', url: freelance.url },
    })
    expect(p.excerpt).toBe('Clear payment terms fix that, says a survey.')
    expect(p.excerpt).not.toMatch(/[[\]*()]/)
  })

  it('shows a Read next line as text too', () => {
    const p = proposeLink('Alone.', { ...target, keyword: 'x y' })
    expect(p.change).toEqual({
      before: null,
      after: { lead: 'Read next: ', anchor: 'Email onboarding that works', trail: '', url: target.url },
    })
    expect(p.excerpt).toBe('Read next: Email onboarding that works')
  })
})
