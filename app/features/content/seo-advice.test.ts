import { describe, expect, it } from 'vitest'
import {
  META_ADVICE,
  META_MAX,
  META_MIN,
  metaDescriptionLength,
  searchResultCut,
  TITLE_ADVICE,
  TITLE_MAX,
  titleLength,
} from './seo-advice'
import { scorePost } from './seo-checklist'

describe('one voice for SEO advice', () => {
  it('the checklist states and checks the advice’s numbers', () => {
    const base = {
      keyword: 'kw',
      slug: 'kw',
      markdown: '# kw\n\ntext',
      targetWords: null,
      language: 'English',
      ownPages: [],
      siteHost: null,
      claims: [],
    }
    const item = (title: string, metaDescription: string, id: string) =>
      scorePost({ ...base, title, metaDescription }).items.find((i) => i.id === id)!
    expect(item('a'.repeat(TITLE_MAX), '', 'title-length')).toMatchObject({ passed: true, label: TITLE_ADVICE.label })
    expect(item('a'.repeat(TITLE_MAX + 1), '', 'title-length')).toMatchObject({
      passed: false,
      fix: TITLE_ADVICE.fix(TITLE_MAX + 1),
    })
    const meta = (n: number) => `kw ${'a'.repeat(n - 3)}`
    expect(item('kw', meta(META_MIN), 'meta-description')).toMatchObject({ passed: true, label: META_ADVICE.label })
    expect(item('kw', meta(META_MAX), 'meta-description').passed).toBe(true)
    expect(item('kw', meta(META_MIN - 1), 'meta-description').passed).toBe(false)
    expect(item('kw', meta(META_MAX + 1), 'meta-description').fix).toBe(META_ADVICE.fix(META_MAX + 1, 'kw'))
    expect(TITLE_ADVICE.label).toBe('Title of at most 60 characters')
    expect(META_ADVICE.label).toBe('Meta description of 120–160 characters with the keyword')
  })

  it('counts as the save does (whitespace runs are one space, characters not code units) and says what it means', () => {
    expect(titleLength('  Café  ☕   guide ')).toMatchObject({
      count: 12,
      state: 'good',
      counter: '12 of 60 characters',
    })
    expect(titleLength('').state).toBe('empty')
    expect(titleLength('a'.repeat(62))).toMatchObject({
      state: 'long',
      message: 'The title is 2 characters over 60: search results will cut it off.',
    })
    expect(titleLength('a'.repeat(61)).message).toBe(
      'The title is 1 character over 60: search results will cut it off.',
    )
    expect(metaDescriptionLength('a'.repeat(100))).toMatchObject({
      state: 'short',
      counter: '100 characters (aim for 120–160)',
      message: 'The meta description is 20 characters short of 120.',
    })
    expect(metaDescriptionLength('a'.repeat(140)).state).toBe('good')
    expect(metaDescriptionLength('a'.repeat(170)).state).toBe('long')
    expect(metaDescriptionLength('').state).toBe('empty')
  })

  it('shows where a search result cuts a long text', () => {
    expect(searchResultCut('short', 60)).toBe('short')
    const long = 'How to plan a content calendar that your whole team will actually keep using'
    const cut = searchResultCut(long, TITLE_MAX)
    expect([...cut].length).toBeLessThanOrEqual(TITLE_MAX)
    expect(cut).toBe('How to plan a content calendar that your whole team will…')
  })
})
