import { describe, expect, it } from 'vitest'
import { containsKeyword, fleschReadingEase, scorePost, type ScoreInput } from './seo-checklist'

const para = 'Good tools save time. You plan the work and the team sees it. It is easy to start and to keep going.'

function article(opts: { h2?: string[]; intro?: string; extra?: string; faq?: boolean } = {}) {
  const h2 = opts.h2 ?? ['Why project management tools help', 'How to choose one', 'Getting started']
  const blocks = [
    '# Project management tools: a simple guide',
    opts.intro ?? `Project management tools help small teams ship. ${para}`,
    ...h2.flatMap((h) => [`## ${h}`, `${para} ${para}`]),
  ]
  if (opts.faq !== false)
    blocks.push('## Frequently Asked Questions', '### Are they free?', 'Some are.', '### Do I need one?', 'Yes.')
  blocks.push(
    'See [our planner](https://acme.test/planner) and [the pricing page](https://acme.test/pricing).',
    'Teams save 20% of their week [1](https://research.example/a) and [2](https://stats.example/b).',
  )
  if (opts.extra) blocks.push(opts.extra)
  return blocks.join('\n\n')
}

function input(over: Partial<ScoreInput> = {}): ScoreInput {
  const markdown = over.markdown ?? article()
  return {
    keyword: 'project management tools',
    title: 'Project management tools: a simple guide',
    slug: 'project-management-tools-guide',
    metaDescription:
      'Project management tools compared for small teams: what they do, how to choose one and how to start this week without wasting money or time.',
    markdown,
    targetWords: null,
    language: 'English',
    ownPages: ['https://acme.test/planner', 'https://acme.test/pricing', 'https://acme.test/blog/other'],
    siteHost: 'acme.test',
    claims: [{ text: 'Teams save 20% of their week', sourceUrl: 'https://research.example/a' }],
    images: [{ id: '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b', role: 'featured', alt: 'A newsletter editor at work' }],
    ...over,
  }
}

const item = (r: ReturnType<typeof scorePost>, id: string) => r.items.find((i) => i.id === id)!

describe('scorePost', () => {
  it('passes every item of a well-made post and scores 100', () => {
    const words = scorePost(input()).items
    const r = scorePost(input({ targetWords: Number(input().markdown.split(/\s+/).length) }))
    expect(words.filter((i) => !i.passed && i.id !== 'length')).toEqual([])
    expect(r.items.filter((i) => !i.passed)).toEqual([])
    expect(r.score).toBe(100)
    for (const i of r.items) expect(i.fix.length).toBeGreaterThan(0)
  })

  it('keyword in the title, and a title of at most 60 characters', () => {
    expect(item(scorePost(input({ title: 'A simple guide for teams' })), 'keyword-title').passed).toBe(false)
    const long = 'Project management tools: the long and complete guide for every single team'
    const r = scorePost(input({ title: long }))
    expect(item(r, 'keyword-title').passed).toBe(true)
    expect(item(r, 'title-length').passed).toBe(false)
    expect(item(r, 'title-length').fix).toContain(`now ${long.length}`)
  })

  it('keyword in the H1', () => {
    const md = article().replace('# Project management tools: a simple guide', '# A simple guide')
    expect(item(scorePost(input({ markdown: md })), 'keyword-h1').passed).toBe(false)
  })

  it('keyword in the first 100 words', () => {
    const filler = Array.from({ length: 120 }, () => 'word').join(' ')
    const md = article({ intro: `${filler} project management tools.` })
    expect(item(scorePost(input({ markdown: md })), 'keyword-intro').passed).toBe(false)
  })

  it('keyword in at least one H2', () => {
    const md = article({ h2: ['Why they help', 'How to choose', 'Getting started'] })
    expect(item(scorePost(input({ markdown: md })), 'keyword-h2').passed).toBe(false)
  })

  it('meta description of 120–160 characters with the keyword', () => {
    expect(item(scorePost(input({ metaDescription: 'Project management tools.' })), 'meta-description').passed).toBe(
      false,
    )
    const noKw =
      'Compared for small teams: what they do, how to choose one and how to start this week without wasting any money or time at all.'
    expect(item(scorePost(input({ metaDescription: noKw })), 'meta-description').passed).toBe(false)
  })

  it('keyword in the slug', () => {
    expect(item(scorePost(input({ slug: 'simple-guide' })), 'keyword-slug').passed).toBe(false)
  })

  it('length within ±20% of the target', () => {
    const words = scorePost(input({ targetWords: 1000 }))
    expect(item(words, 'length').passed).toBe(false)
    expect(item(words, 'length').fix).toMatch(/^Add about \d+ words/)
    expect(item(scorePost(input({ targetWords: 20 })), 'length').fix).toMatch(/^Cut about/)
  })

  it('three or more H2s', () => {
    const md = article({ h2: ['Project management tools today'], faq: false })
    expect(item(scorePost(input({ markdown: md })), 'h2-count').passed).toBe(false)
  })

  it('an FAQ', () => {
    expect(item(scorePost(input({ markdown: article({ faq: false }) })), 'faq').passed).toBe(false)
  })

  it('internal links where the user has other pages', () => {
    const md = article()
      .replace(/\[our planner\]\([^)]*\)/, 'our planner')
      .replace(/\[the pricing page\]\([^)]*\)/, '')
    expect(item(scorePost(input({ markdown: md })), 'internal-links').passed).toBe(false)
    // Nobody to link to: nothing to ask for.
    expect(item(scorePost(input({ markdown: md, ownPages: [], siteHost: null })), 'internal-links').passed).toBe(true)
  })

  it('two or more external sources', () => {
    const md = article().replace('and [2](https://stats.example/b)', '')
    expect(item(scorePost(input({ markdown: md })), 'external-sources').passed).toBe(false)
  })

  it('no unsourced figures', () => {
    const r = scorePost(input({ claims: [{ text: '73% of teams fail', sourceUrl: null }] }))
    expect(item(r, 'unsourced-figures').passed).toBe(false)
    expect(item(r, 'unsourced-figures').fix).toContain('73% of teams fail')
  })

  it('readability: Flesch for English, sentence length for other languages', () => {
    const hard =
      'Notwithstanding organizational considerations, comprehensive implementation methodologies necessitate extraordinarily sophisticated institutional coordination capabilities.'
    const md = article({ extra: Array.from({ length: 30 }, () => hard).join(' ') })
    expect(fleschReadingEase(md)).toBeLessThan(50)
    expect(item(scorePost(input({ markdown: md })), 'readability').passed).toBe(false)
    const longSentences = article({ extra: Array.from({ length: 40 }, () => `${'wort '.repeat(40)}ende.`).join(' ') })
    const de = scorePost(input({ markdown: longSentences, language: 'German' }))
    expect(item(de, 'readability').label).toContain('sentences')
    expect(item(de, 'readability').passed).toBe(false)
  })

  it('alt text on any image', () => {
    const md = article({ extra: '![](https://acme.test/a.png) and <img src="https://acme.test/b.png">' })
    const r = scorePost(input({ markdown: md }))
    expect(item(r, 'image-alt').passed).toBe(false)
    expect(
      item(scorePost(input({ markdown: article({ extra: '![A chart](https://acme.test/a.png)' }) })), 'image-alt')
        .passed,
    ).toBe(true)
  })

  it('the score is the weighted share of passed items', () => {
    const full = scorePost(input()).score
    const worse = scorePost(input({ slug: 'x', title: 'Short' })).score
    expect(worse).toBeLessThan(full)
    expect(worse).toBeGreaterThanOrEqual(0)
  })

  it('matches the keyword ignoring case, accents and punctuation, but as a phrase', () => {
    expect(containsKeyword('Café-Tools for you', 'cafe tools')).toBe(true)
    expect(containsKeyword('cafetools', 'cafe tools')).toBe(false)
  })
})

describe('images (issue 33)', () => {
  const figureId = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'
  it('asks for a featured image when the post has none', () => {
    const item = scorePost(input({ images: [] })).items.find((i) => i.id === 'featured-image')
    expect(item).toMatchObject({ label: 'Has a featured image', passed: false })
  })
  it('judges alt text from the stored images, the figures in the body included', () => {
    const md = `${input().markdown}\n\n![](/images/${figureId}.jpg)\n`
    const stored = [
      { id: '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b', role: 'featured' as const, alt: '' },
      { id: figureId, role: 'figure' as const, alt: 'A chart of open rates' },
    ]
    const alt = (images: typeof stored, markdown = md) =>
      scorePost(input({ markdown, images })).items.find((i) => i.id === 'image-alt')!
    // The featured image has no alt text: failed, though it is not in the Markdown.
    expect(alt(stored)).toMatchObject({ passed: false, fix: 'Describe the image without alt text.' })
    // The figure's stored alt text counts even where the Markdown line has none.
    expect(alt([{ ...stored[0]!, alt: 'An editor at work' }, stored[1]!]).passed).toBe(true)
    // An image in the Markdown that is not stored is judged by its own alt text.
    expect(alt([], `${input().markdown}\n\n![](https://cdn.example/x.png)\n`).passed).toBe(false)
  })
})
