import { beforeAll, describe, expect, it } from 'vitest'
import { SANITIZER_VERSION } from '#app/platform/markdown/markdown'
import { loadSanitizer, renderPostBody, sanitizeHtml, storedPostBody } from './sanitize.server'

// jsdom loads at the first sanitization (issue 39): here, before the tests and their timeouts.
beforeAll(() => loadSanitizer(), 60_000)

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

describe('allowUrl: only the allowed URLs stay links and embeds', () => {
  const allowUrl = (url: string) => new URL(url).hostname === 'allowed.example'
  const urlsIn = (html: string) =>
    [...html.matchAll(/\s(?:href|src|srcset|poster|xlink:href)="([^"]*)"/g)].map((m) => m[1]!)

  it('unwraps links to other URLs (their content kept and sanitized), keeps allowed and #fragment links', () => {
    const content =
      '<p>a <a href="https://evil.example"><b>t</b><img src="x" onerror="alert(1)"><script>alert(2)</script></a> ' +
      '<a href=" https://allowed.example/p">ok</a> <a href="#f">f</a> <a href="/rel">rel</a> <a href="mailto:a@b.example">m</a></p>'
    expect(renderPostBody(content)).toContain('href="https://evil.example"')
    const html = renderPostBody(content, { allowUrl })
    expect(html).toBe('<p>a <b>t</b> <a href="https://allowed.example/p">ok</a> <a href="#f">f</a> rel m</p>')
  })

  it('removes images, sources, video, audio and iframes with other URLs, keeps allowed images', () => {
    const content =
      '<img src="https://evil.example/i.png"><img src="https://allowed.example/i.png" alt="ok">' +
      '<video src="https://allowed.example/v.mp4" poster="https://evil.example/p.png"></video>' +
      '<picture><source srcset="https://allowed.example/a.png 1x, https://evil.example/b.png 2x"><img src="https://allowed.example/c.png"></picture>' +
      '<audio src="https://evil.example/a.mp3"></audio><iframe src="https://evil.example/f"></iframe>' +
      '<svg><a xlink:href="https://evil.example/s">s</a><image href="https://evil.example/x.png"></image></svg>'
    const html = renderPostBody(content, { allowUrl })
    expect(urlsIn(html)).toEqual(['https://allowed.example/i.png', 'https://allowed.example/c.png'])
    expect(html).toContain('<svg>s</svg>')
  })

  it('filters rendered Markdown the same way: bare URLs, autolinks, references, images', () => {
    const content =
      'see https://evil.example/x growth, www.evil.example <https://evil.example/y> [r] ' +
      '![i](https://evil.example/i.png) [ok](https://allowed.example "t")\n\n   [r]: https://evil.example/r\n'
    expect(urlsIn(renderPostBody(content)).filter((u) => u.includes('evil.example'))).toHaveLength(5)
    const body = storedPostBody(content, { allowUrl })
    expect(body.sanitizerVersion).toBe(SANITIZER_VERSION)
    expect(urlsIn(body.contentHtml)).toEqual(['https://allowed.example'])
    expect(body.contentHtml).toContain('see https://evil.example/x growth, www.evil.example https://evil.example/y r')
  })

  it('does not outlive its call: the next call without allowUrl keeps every safe URL', () => {
    renderPostBody('<a href="https://evil.example">x</a>', { allowUrl })
    expect(renderPostBody('<a href="https://evil.example">x</a>')).toBe('<a href="https://evil.example">x</a>')
  })
})

describe("storedPostBody with allowUrl: a post's own images (issue 33)", () => {
  const id = '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b'
  it('keeps <img src="/images/<id>.jpg"> and nothing else relative', () => {
    const html = storedPostBody(`Intro.\n\n![A chart](/images/${id}.jpg)\n`, { allowUrl: () => false }).contentHtml
    expect(html).toContain(`<img src="/images/${id}.jpg" alt="A chart">`)
    const other = storedPostBody(
      `<p><img src="/images/${id}.png"><img src="/etc/passwd"><a href="/images/${id}.jpg">x</a></p>`,
      { allowUrl: () => false },
    ).contentHtml
    expect(other).toBe('<p>x</p>')
  })
})
