import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { rssXml, sortArticles } from './blog'
import { parseArticle } from './blog-source'

describe('blog articles', () => {
  it('parses front matter and body, and refuses a file without a valid one', () => {
    const a = parseArticle('x', '---\ntitle: "A: B"\ndescription: D\ndate: 2026-01-02\n---\n\n# Body\n')
    expect(a).toMatchObject({
      slug: 'x',
      title: 'A: B',
      description: 'D',
      date: '2026-01-02',
      author: 'The Rankwell team',
    })
    expect(a.markdown).toBe('# Body')
    expect(() => parseArticle('y', '# no front matter')).toThrow(/front matter/)
    expect(() => parseArticle('z', '---\ntitle: T\ndescription: D\ndate: Jan 2\n---\nx')).toThrow()
  })

  it('every file in content/blog is a valid article', () => {
    const dir = path.resolve('content/blog')
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.md'))
    expect(files.length).toBeGreaterThanOrEqual(3)
    for (const f of files) {
      const article = parseArticle(f.replace(/\.md$/, ''), fs.readFileSync(path.join(dir, f), 'utf8'))
      expect(article.title.length).toBeLessThanOrEqual(80)
      expect(article.description.length).toBeGreaterThanOrEqual(100)
      expect(article.markdown.split(/\s+/).length).toBeGreaterThan(600)
    }
  })

  it('sorts newest first and escapes the RSS feed', () => {
    const items = [
      { slug: 'old', title: 'Old', description: 'd', date: '2026-01-01' },
      { slug: 'new', title: 'Tom & Jerry <3', description: 'd', date: '2026-02-01' },
    ]
    expect(sortArticles(items).map((a) => a.slug)).toEqual(['new', 'old'])
    const xml = rssXml('https://r.example', items)
    expect(xml.indexOf('/blog/new')).toBeLessThan(xml.indexOf('/blog/old'))
    expect(xml).toContain('<title>Tom &amp; Jerry &lt;3</title>')
    expect(xml).toContain('<atom:link href="https://r.example/blog/rss.xml"')
  })
})
