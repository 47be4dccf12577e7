import { describe, expect, it } from 'vitest'
import { faqFromMarkdown } from './content'
import { contentSettingsSchema, isOwnPage } from './content-settings'
import { parseSubmission } from '#app/platform/forms/submission'
import { editorFormSchema, replaceSection, sectionsOf, splitTitle } from './post-editor'

describe('post editor helpers', () => {
  const md =
    '# My title\n\nIntro.\n\n## One\n\nFirst body.\n\n```\n## not a heading\n```\n\n## Two\n\n### Sub\n\nSecond body.\n'

  it('splits the H1 title off the body', () => {
    expect(splitTitle(md)).toEqual({ title: 'My title', body: md.slice('# My title\n\n'.length).trim() })
    expect(splitTitle('No title\n\n## A')).toEqual({ title: null, body: 'No title\n\n## A' })
  })

  it('finds H2 sections outside code fences and replaces one, keeping the others', () => {
    const body = splitTitle(md).body
    const sections = sectionsOf(body)
    expect(sections.map((s) => s.heading)).toEqual(['One', 'Two'])
    expect(sections[0]!.body).toBe('First body.\n\n```\n## not a heading\n```')
    expect(sections[1]!.body).toBe('### Sub\n\nSecond body.')
    const replaced = replaceSection(body, 0, 'New first.')
    expect(replaced).toBe('Intro.\n\n## One\n\nNew first.\n\n## Two\n\n### Sub\n\nSecond body.')
    expect(replaceSection(body, 1, 'New second.')).toBe(
      'Intro.\n\n## One\n\nFirst body.\n\n```\n## not a heading\n```\n\n## Two\n\nNew second.\n',
    )
    expect(replaceSection(body, 5, 'x')).toBe(body)
  })

  it('reads an FAQ from a section of H3 questions even when its H2 does not say FAQ', () => {
    const faq = '# T\n\n## Good to know\n\n### Is it free?\n\nYes.\n\n### Does it scale?\n\nIt does.\n\n## End\n\nBye.'
    expect(faqFromMarkdown(faq)).toEqual([
      { question: 'Is it free?', answer: 'Yes.' },
      { question: 'Does it scale?', answer: 'It does.' },
    ])
    expect(faqFromMarkdown('# T\n\n## Steps\n\n### Is it free?\n\nYes.\n\n### Set up\n\nDo it.')).toEqual([])
  })
})

describe('content settings schema', () => {
  const base = {
    productService: 'CRM',
    marketSegment: 'Agencies',
    website: 'https://acme.test',
    tone: 'direct',
  }
  it('accepts a complete form and trims it', () => {
    const parsed = contentSettingsSchema.parse({ ...base, ctaText: ' Try it ', ctaUrl: 'https://acme.test/try' })
    expect(parsed).toMatchObject({
      ctaText: 'Try it',
      ctaUrl: 'https://acme.test/try',
      avoid: '',
      writingSampleUrl: '',
    })
  })
  it('names the field of each problem', () => {
    const r = contentSettingsSchema.safeParse({ ...base, tone: 'loud', ctaText: 'Try', website: 'javascript:alert(1)' })
    expect(r.success).toBe(false)
    const paths = r.success ? [] : r.error.issues.map((i) => i.path[0])
    expect(paths).toEqual(expect.arrayContaining(['tone', 'website']))
  })
  it('knows the own site with or without www', () => {
    expect(isOwnPage('https://www.acme.test/blog/a', 'https://acme.test')).toBe(true)
    expect(isOwnPage('https://evil.test/a', 'https://acme.test')).toBe(false)
  })
})

describe("the editor's form", () => {
  const form = (fields: Record<string, string>) =>
    parseSubmission(
      new URLSearchParams({ title: ' My  title ', slug: 'My Title!', metaDescription: '', body: 'Intro.', ...fields }),
      editorFormSchema,
    )

  it('saves the edit alone: the rewrite fields are not checked', () => {
    const saved = form({ intent: 'save', section: '', instruction: '' })
    expect(saved.status).toBe('success')
    if (saved.status === 'success')
      expect(saved.value).toEqual({
        edit: { title: 'My title', slug: 'my-title', metaDescription: '', body: 'Intro.' },
        rewrite: null,
      })
  })

  it('checks the section and the instruction of a rewrite, with the edit in the same answer', () => {
    const rewrite = form({ intent: 'rewrite', section: '1', instruction: ' Shorter ' })
    if (rewrite.status === 'success') expect(rewrite.value.rewrite).toEqual({ section: 1, instruction: 'Shorter' })
    else expect.fail('a complete rewrite is accepted')

    const bad = form({ intent: 'rewrite', title: '  ', section: 'x', instruction: 'no' })
    expect(bad.status === 'error' && bad.error).toEqual({
      title: ['Title is required.'],
      section: ['Choose a section.'],
      instruction: ['Tell us how to rewrite the section.'],
    })
  })
})
