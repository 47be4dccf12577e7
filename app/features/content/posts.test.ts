import { describe, expect, it } from 'vitest'
import {
  assembleArticle,
  clampText,
  cleanSectionBody,
  countWords,
  downloadName,
  excerpt,
  formatLongDate,
  plainText,
  slugify,
  statusLabel,
  titleWithKeyword,
  withoutLeadingTitle,
} from './posts'
import { hasHtmlTags } from '#app/platform/markdown/html-tags'

describe('formatLongDate', () => {
  it('formats dates in long US format', () => {
    expect(formatLongDate(new Date('2026-11-22T10:00:00Z'))).toBe('November 22, 2026')
    expect(formatLongDate('2025-01-05T00:00:00.000Z')).toBe('January 5, 2025')
  })
  it('uses UTC so server and browser agree', () => {
    expect(formatLongDate('2026-03-01T23:59:59Z')).toBe('March 1, 2026')
    expect(formatLongDate('2026-03-01T00:00:01Z')).toBe('March 1, 2026')
  })
  it('returns an empty string for an invalid date', () => {
    expect(formatLongDate('not a date')).toBe('')
  })
})

describe('hasHtmlTags', () => {
  it('detects HTML element tags', () => {
    expect(hasHtmlTags('<p>Hello</p>')).toBe(true)
    expect(hasHtmlTags('Text with <br/> a break')).toBe(true)
    expect(hasHtmlTags('<h2 class="x">Title</h2>')).toBe(true)
  })
  it('treats Markdown and stray angle brackets as Markdown', () => {
    expect(hasHtmlTags('# Title\n\nSome **bold** text')).toBe(false)
    expect(hasHtmlTags('3 < 5 and 7 > 2')).toBe(false)
    expect(hasHtmlTags('a <= b')).toBe(false)
  })
})

describe('plainText and excerpt', () => {
  it('removes Markdown markup', () => {
    const md =
      '# Title\n\n## Section\n\nSome **bold**, _italic_ and `code` with a [link](https://x.com).\n\n- one\n- two\n\n> quote'
    expect(plainText(md)).toBe('Title Section Some bold, italic and code with a link. one two quote')
  })
  it('removes HTML tags and decodes entities', () => {
    expect(plainText('<h1>Hi</h1><p>Tom &amp; Jerry&#39;s <script>alert(1)</script><b>show</b></p>')).toBe(
      "Hi Tom & Jerry's show",
    )
  })
  it('takes the first 400 characters followed by ...', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    const result = excerpt(`## Heading\n\n${words}`)
    expect(result.endsWith('...')).toBe(true)
    expect(result.length).toBe(403)
    expect(result.startsWith('Heading word0 word1')).toBe(true)
    expect(result).not.toContain('#')
  })
  it('appends ... to short content too and drops the H1 that repeats the title', () => {
    expect(excerpt('# My Post\n\nShort body.', { title: 'My Post' })).toBe('Short body....')
    expect(excerpt('# Other\n\nShort body.', { title: 'My Post' })).toBe('Other Short body....')
    expect(excerpt('<h1>My Post</h1><p>Body</p>', { title: 'My Post' })).toBe('Body...')
  })
})

describe('slugify', () => {
  it('makes lower-case hyphenated slugs', () => {
    expect(slugify('The Best CRM for Startups (2026)!')).toBe('the-best-crm-for-startups-2026')
    expect(slugify("Don't stop")).toBe('dont-stop')
    expect(slugify('Café Münster')).toBe('cafe-munster')
  })
  it('keeps letters of other scripts and caps the length', () => {
    expect(slugify('Привет мир')).toBe('привет-мир')
    const long = slugify('word '.repeat(40))
    expect(long.length).toBeLessThanOrEqual(80)
    expect(long.endsWith('-')).toBe(false)
  })
})

describe('titles, meta descriptions and sections', () => {
  it('keeps a title containing the keyword and prefixes one that does not', () => {
    expect(titleWithKeyword('The Ultimate Guide to CRM for Startups', 'crm for startups')).toBe(
      'The Ultimate Guide to CRM for Startups',
    )
    expect(titleWithKeyword('A Practical Guide', 'crm for startups')).toBe('Crm for startups: A Practical Guide')
    expect(titleWithKeyword('', 'seo')).toBe('Seo')
  })
  it('clamps meta descriptions at a word boundary', () => {
    const text = 'word '.repeat(60)
    const clamped = clampText(text, 160)
    expect(clamped.length).toBeLessThanOrEqual(160)
    expect(clamped.endsWith('…')).toBe(true)
    expect(clampText('short', 160)).toBe('short')
  })
  it('drops a repeated leading heading and demotes H1/H2 inside a section', () => {
    expect(cleanSectionBody('## Why It Matters\n\nText\n\n## Inner\n\n### Kept\n\n# Top')).toBe(
      'Text\n\n### Inner\n\n### Kept\n\n### Top',
    )
  })
  it('assembles one article with H1, sections, FAQ and conclusion', () => {
    const md = assembleArticle({
      title: 'CRM for Startups: A Guide',
      introduction: 'Intro text.',
      sections: [
        { heading: 'What Is a CRM', body: '## What Is a CRM\n\nBody one.' },
        { heading: 'Choosing One', body: 'Body two.' },
      ],
      faqHeading: 'Frequently Asked Questions',
      faq: [{ question: 'Is it free?', answer: 'Sometimes.' }],
      conclusionHeading: 'Conclusion',
      conclusion: 'The end.',
    })
    expect(md).toBe(
      '# CRM for Startups: A Guide\n\nIntro text.\n\n## What Is a CRM\n\nBody one.\n\n## Choosing One\n\nBody two.\n\n' +
        '## Frequently Asked Questions\n\n### Is it free?\n\nSometimes.\n\n## Conclusion\n\nThe end.\n',
    )
    expect(md.match(/^# /gm)).toHaveLength(1)
    expect(countWords(md)).toBeGreaterThan(15)
  })
})

describe('withoutLeadingTitle', () => {
  it('drops a leading H1 that repeats the title, and nothing else', () => {
    expect(withoutLeadingTitle('<h1>My &amp; Post</h1>\n<p>x</p>', 'My & Post')).toBe('<p>x</p>')
    expect(withoutLeadingTitle('<h1>Other</h1><p>x</p>', 'My Post')).toBe('<h1>Other</h1><p>x</p>')
    expect(withoutLeadingTitle('<p>x</p><h1>My Post</h1>', 'My Post')).toBe('<p>x</p><h1>My Post</h1>')
  })
})

describe('status labels and file names', () => {
  it('labels unfinished posts', () => {
    expect(statusLabel('queued')).toBe('Generating…')
    expect(statusLabel('generating')).toBe('Generating…')
    expect(statusLabel('completed')).toBeNull()
  })
  it('names downloads after the slug', () => {
    expect(downloadName('my-post', 'md')).toBe('my-post.md')
    expect(downloadName('', 'html')).toBe('blog-post.html')
  })
})
