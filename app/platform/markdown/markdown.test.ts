// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { htmlDocument, markdownToHtml, postBodySource, sanitizeInBrowser } from './markdown'

describe('postBodySource: HTML or Markdown, not yet sanitized', () => {
  it('renders Markdown when the content has no tags and keeps HTML content as it is', () => {
    expect(postBodySource('# Title\n\nSome **bold** text.')).toBe(
      '<h1>Title</h1>\n<p>Some <strong>bold</strong> text.</p>\n',
    )
    expect(postBodySource('<h2>Heading</h2><p>**not bold**</p>')).toBe('<h2>Heading</h2><p>**not bold**</p>')
  })
})

// The editor's live preview runs in the browser on the page's own document (here jsdom's test window): the rules
// are the server's (sanitize.server.test.ts), so the preview shows what a save stores.
describe('sanitizeInBrowser: the same rules on the page document', () => {
  it('removes scripts, handlers, styles, forms and unsafe links', () => {
    const html = sanitizeInBrowser(
      '<p onclick="alert(1)" style="color:red">Hi<script>alert(2)</script></p><form action="https://evil"><input></form>' +
        '<a href="javascript:alert(3)">a</a> <a href="https://example.com">b</a> <img src="x.png" onerror="alert(4)">',
    )
    expect(html).toBe('<p>Hi</p><a>a</a> <a href="https://example.com">b</a> <img src="x.png">')
  })
  it('sanitizes rendered Markdown links as the server does', () => {
    expect(sanitizeInBrowser(markdownToHtml('[click](javascript:alert(1)) and [ok](/blogposts)'))).toBe(
      '<p><a>click</a> and <a href="/blogposts">ok</a></p>\n',
    )
  })
})

describe('htmlDocument', () => {
  it('wraps the body in a standalone document with escaped title and description', () => {
    const doc = htmlDocument({ title: 'A <b> & "c"', description: 'Desc', language: 'de', bodyHtml: '<p>x</p>' })
    expect(doc).toContain('<html lang="de">')
    expect(doc).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>')
    expect(doc).toContain('<p>x</p>')
  })
})
