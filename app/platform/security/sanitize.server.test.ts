import { describe, expect, it } from 'vitest'
import { SANITIZER_VERSION } from '#app/platform/markdown/markdown'
import { renderPostBody, sanitizeHtml, storedPostBody } from './sanitize.server'

describe('renderPostBody: HTML or Markdown', () => {
  it('renders Markdown with marked when the content has no tags', () => {
    const html = renderPostBody('# Title\n\nSome **bold** text.\n\n- one\n- two')
    expect(html).toContain('<h1>Title</h1>')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<li>one</li>')
  })
  it('uses HTML content as HTML (Markdown syntax inside is not rendered)', () => {
    const html = renderPostBody('<h2>Heading</h2><p>**not bold**</p>')
    expect(html).toBe('<h2>Heading</h2><p>**not bold**</p>')
  })
})

describe('sanitizing', () => {
  it('removes scripts and event handlers', () => {
    const html = renderPostBody(
      '<p onclick="alert(1)">Hi<script>alert(2)</script></p><img src="x.png" onerror="alert(3)">',
    )
    expect(html).not.toMatch(/script|onclick|onerror|alert/)
    expect(html).toContain('<p>Hi</p>')
    expect(html).toContain('<img src="x.png">')
  })
  it('removes javascript: and data: links, in HTML and in Markdown', () => {
    const fromHtml = renderPostBody(
      '<p><a href="javascript:alert(1)">a</a> <a href="data:text/html;base64,PHNjcmlwdD4=">b</a> <a href=" JaVaScRiPt:alert(1)">c</a></p>',
    )
    expect(fromHtml).not.toMatch(/javascript|data:/i)
    expect(fromHtml).toContain('>a</a>')
    const fromMarkdown = renderPostBody('[click](javascript:alert(1)) and [data](data:text/html,hi)')
    expect(fromMarkdown).toBe('<p><a>click</a> and <a>data</a></p>\n')
    expect(renderPostBody('<a href="vbscript:x">v</a>')).toBe('<a>v</a>')
  })
  it('keeps links with the allowed schemes and relative links', () => {
    const html = renderPostBody(
      '[a](https://example.com) [b](http://example.com) [c](mailto:me@example.com) [d](irc://irc.example.com/chan) ' +
        '[e](ircs://irc.example.com/chan) [f](xmpp:me@example.com) [g](/blogposts) [h](#faq)',
    )
    for (const href of [
      'https://example.com',
      'http://example.com',
      'mailto:me@example.com',
      'irc://irc.example.com/chan',
      'ircs://irc.example.com/chan',
      'xmpp:me@example.com',
      '/blogposts',
      '#faq',
    ])
      expect(html).toContain(`href="${href}"`)
  })
  it('removes links with other schemes', () => {
    const html = renderPostBody('[t](tel:123) [f](ftp://example.com/file) [s](sms:123)')
    expect(html).not.toMatch(/href=/)
  })
  it('removes styles, forms and iframes', () => {
    const html = sanitizeHtml(
      '<p style="position:fixed">x</p><form action="https://evil"><input name="p"></form><iframe src="https://evil"></iframe><style>p{}</style>',
    )
    expect(html).toBe('<p>x</p>')
  })
})

describe('storedPostBody: sanitized once, when written', () => {
  it('returns the sanitized HTML and the version of the rules that made it', () => {
    const body = storedPostBody('<p onclick="x()">Hi</p><script>alert(1)</script>')
    expect(body).toEqual({ contentHtml: '<p>Hi</p>', sanitizerVersion: SANITIZER_VERSION })
  })
  it('sanitizes the same way across the short-lived windows (each serves a bounded number of calls)', async () => {
    const outputs = new Set<string>()
    for (let i = 0; i < 250; i++) {
      outputs.add(sanitizeHtml('<p>x<img src="y.png" onerror="z()"></p><a href="javascript:1">l</a>'))
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    expect([...outputs]).toEqual(['<p>x<img src="y.png"></p><a>l</a>'])
  })
})
