import { describe, expect, it } from 'vitest'
import { allowMarkdownLinks, markdownLinkUrls, plainText } from './links'
import { markdownToHtml } from './markdown'

const allow = (url: string) => new URL(url).hostname === 'allowed.example'

/** Every href and src of rendered HTML. */
const urlsIn = (html: string) => [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!)

/**
 * Filters `markdown` and renders the result: the input must render a link or embed of evil.example (so the case is
 * real) and the output none.
 */
function filter(markdown: string) {
  expect(urlsIn(markdownToHtml(markdown)).some((url) => url.includes('evil.example'))).toBe(true)
  const out = allowMarkdownLinks(markdown, allow)
  const html = markdownToHtml(out)
  expect(urlsIn(html).filter((url) => url.includes('evil.example'))).toEqual([])
  return { out, html }
}

describe('allowMarkdownLinks: what marked renders as a link, filtered', () => {
  it('keeps a post without rejected links byte for byte', () => {
    const md =
      '# Title\n\nSee [the study](https://allowed.example/a "Study") and [faq](#faq).\r\n\n' +
      '![chart](https://allowed.example/c.png)\n\n   [r]: https://allowed.example/r\n\n[ref][r] <https://allowed.example/x>\n'
    expect(allowMarkdownLinks(md, allow)).toBe(md)
    expect(allowMarkdownLinks('', allow)).toBe('')
  })

  it('the keyword sentence: a bare URL is removed with its double space', () => {
    expect(filter('see https://evil.example/x growth').out).toBe('see growth')
    expect(filter('growth at https://evil.example/x.').out).toBe('growth at.')
    expect(filter('https://evil.example/x growth').out).toBe('growth')
    expect(filter('growth (https://evil.example/x) here').out).toBe('growth here')
  })

  it('removes www. autolinks and <…> autolinks, keeps allowed ones', () => {
    expect(filter('a www.evil.example/x b https://allowed.example/p').out).toBe('a b https://allowed.example/p')
    const { out, html } = filter('x <https://evil.example/y> y <https://allowed.example/z>')
    expect(out).toBe('x y <https://allowed.example/z>')
    expect(html).toBe('<p>x y <a href="https://allowed.example/z">https://allowed.example/z</a></p>\n')
  })

  it('turns links with any title quoting or an <…> destination into their text, keeping the text’s Markdown', () => {
    expect(filter("[a](https://evil.example 'title') and [b](https://allowed.example 'ok')").out).toBe(
      "a and [b](https://allowed.example 'ok')",
    )
    expect(filter('[a](https://evil.example (title)) x').out).toBe('a x')
    expect(filter('[a](https://evil.example "t") x').out).toBe('a x')
    expect(filter('[a **bold**](<https://evil.example/x y>) x').out).toBe('a **bold** x')
    expect(filter('[a \\[b\\]](https://evil.example) ok').out).toBe('a \\[b\\] ok')
  })

  it('removes definitions of rejected URLs at any indentation and turns their references into text', () => {
    const { out, html } = filter('   [r]: https://evil.example/r\n\n[text][r] and [r] and [r][]\n')
    expect(out).toBe('\ntext and r and r\n')
    expect(html).toBe('<p>text and r and r</p>\n')
    const mixed = filter('[ok]: https://allowed.example/o\n [r]: https://evil.example/r "t"\n\n[ok] [r]')
    expect(mixed.out).toBe('[ok]: https://allowed.example/o\n\n[ok] r')
    expect(mixed.html).toBe('<p><a href="https://allowed.example/o">ok</a> r</p>\n')
    expect(filter('> [r]: https://evil.example/r\n> quoted\n\n[r]').out).toBe('> quoted\n\nr')
    expect(filter('- [r]: https://evil.example/r\n- b\n\n[r]').out).toBe('- b\n\nr')
  })

  it('removes rejected images, keeps allowed ones', () => {
    expect(filter('a ![i](https://evil.example/i.png) b ![j](https://allowed.example/j.png)').out).toBe(
      'a b ![j](https://allowed.example/j.png)',
    )
    expect(filter('[r]: https://evil.example/i.png\n\n![i][r] x').out).toBe('\nx')
  })

  it('an image inside a link: each judged on its own', () => {
    expect(filter('[![i](https://evil.example/i.png) text](https://allowed.example)').out).toBe(
      '[text](https://allowed.example)',
    )
    // An allowed link left with nothing to show goes too.
    expect(filter('x [![i](https://evil.example/i.png)](https://allowed.example) y').out).toBe('x y')
    expect(filter('[![i](https://allowed.example/i.png)](https://evil.example)').out).toBe(
      '![i](https://allowed.example/i.png)',
    )
  })

  it('strips raw HTML: <a> keeps its text, <img> goes, other tags keep their text', () => {
    expect(filter('a <a href="https://evil.example">t</a> b').out).toBe('a t b')
    expect(filter('x <img src="https://evil.example/i.png"> y<br>z <b>bold</b>').out).toBe('x y z bold')
    expect(filter('<img src="https://evil.example/i.png">\n\npara').out).toBe('\n\npara')
    // A block of HTML: its text is Markdown afterwards, and is filtered in turn.
    const block = filter('<div>\n<a href="https://evil.example">x</a> [y](https://evil.example)\n</div>\n\npara')
    expect(block.html).toBe('<p>x y</p>\n<p>para</p>\n')
  })

  it('filters links inside headings, lists, tables, blockquotes and emphasis', () => {
    const md = [
      '# H [a](https://evil.example) [b](#faq) [c](https://allowed.example/c)',
      '',
      '- one https://evil.example/1',
      '- [two](https://evil.example/2)',
      '  - nested [n](https://evil.example/n) www.evil.example',
      '',
      '| a | b |',
      '|---|---|',
      '| [x](https://evil.example) \\| pipe | ![i](https://evil.example/i.png) [ok](https://allowed.example) |',
      '',
      '> quote [q](https://evil.example/q)',
      '> more https://evil.example/m end',
      '',
      '**[b](https://evil.example)** ~~c https://evil.example~~ _www.evil.example_ end',
      '',
    ].join('\n')
    expect(filter(md).out).toBe(
      [
        '# H a [b](#faq) [c](https://allowed.example/c)',
        '',
        '- one',
        '- two',
        '  - nested n',
        '',
        '| a | b |',
        '|---|---|',
        '| x \\| pipe | [ok](https://allowed.example) |',
        '',
        '> quote q',
        '> more end',
        '',
        '**b** ~~c~~ end',
        '',
      ].join('\n'),
    )
  })

  it('finds links in nested quotes and lists with tabs (marked expands them)', () => {
    const { out } = filter('1. a\n\n   > q [x](https://evil.example)\n   >  - deep\t[y](https://evil.example/y)\n')
    expect(out).toBe('1. a\n\n   > q x\n   >  - deep\ty\n')
    expect(filter('-\t[a](https://evil.example)\n\n\t[b](https://evil.example) c').out).toBe('-\ta\n\n\tb c')
  })

  it('a link whose text is a rejected URL: the text goes too', () => {
    expect(filter('[https://evil.example/x](https://evil.example/x) end').out).toBe('end')
  })

  it('only http(s) URLs can be allowed: other schemes and relative links become text', () => {
    const all = () => true
    const out = allowMarkdownLinks(
      '[js](javascript:alert(1)) [m](mailto:a@b.example) [rel](/x) [d](data:text/html,hi) [h](#h) [w](https://w.example)',
      all,
    )
    expect(out).toBe('js m rel d [h](#h) [w](https://w.example)')
  })

  it('e-mail autolinks stay as text, no longer linked', () => {
    const out = allowMarkdownLinks('mail foo@bar.example or <me@x.example>', allow)
    expect(out).toBe('mail foo\\@bar.example or me\\@x.example')
    expect(markdownToHtml(out)).toBe('<p>mail foo@bar.example or me@x.example</p>\n')
  })

  it('leaves code spans and code blocks alone: marked renders them as code, not links', () => {
    const md =
      '`https://evil.example/c` and [x](https://evil.example)\n\n```\nhttps://evil.example/f [y](https://evil.example)\n```\n\n    [r]: https://evil.example/i\n'
    const { out, html } = filter(md)
    expect(out).toBe(md.replace('[x](https://evil.example)', 'x'))
    expect(html).toContain('<code>https://evil.example/c</code>')
    expect(html).toContain('<pre><code>https://evil.example/f [y](https://evil.example)\n</code></pre>')
  })

  it('keeps the rest of the Markdown byte for byte', () => {
    const md = 'Intro *with* `code`  and  spaces.\n\n[a](https://evil.example)\n\n1) item\n\n---\n\nEnd <!-- -->  \n'
    expect(filter(md.replace('<!-- -->', '')).out).toBe(
      md.replace('<!-- -->', '').replace('[a](https://evil.example)', 'a'),
    )
  })
})

describe('markdownLinkUrls: every URL marked would link or embed, in order', () => {
  it('lists links, images, references, autolinks and raw HTML URLs, not code', () => {
    expect(
      markdownLinkUrls(
        '[a](https://a.example "t") ![i](https://i.example/i.png) www.w.example <https://b.example> c@d.example\n\n' +
          '[r] `https://code.example` <a href="https://h.example">h</a>\n\n[r]: https://r.example\n',
      ),
    ).toEqual([
      'https://a.example',
      'https://i.example/i.png',
      'http://www.w.example',
      'https://b.example',
      'mailto:c@d.example',
      'https://r.example',
      'https://h.example',
    ])
    expect(markdownLinkUrls('[![i](https://i.example/i.png)](https://l.example)')).toEqual([
      'https://l.example',
      'https://i.example/i.png',
    ])
  })
})

describe('plainText: the text a reader sees', () => {
  it('drops Markdown syntax, URLs that are not visible text, images and tags; collapses whitespace', () => {
    expect(
      plainText(
        '# Title\n\nSee [the **study**](https://a.example "t") &amp; ![chart](https://i.example/c.png) `code` here.\n\n' +
          '- one\n- two <b>bold</b>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n[r]: https://r.example\n',
      ),
    ).toBe('Title See the study & code here. one two bold a b 1 2 quoted')
    expect(plainText('bare https://x.example/p stays: it is visible')).toBe(
      'bare https://x.example/p stays: it is visible',
    )
  })
})

describe("a post's own images (issue 33)", () => {
  const id = '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b'
  it('keeps exactly ![alt](/images/<id>.jpg) and no other relative URL', () => {
    const figure = `Intro.\n\n![A chart](/images/${id}.jpg)\n\nMore.`
    expect(allowMarkdownLinks(figure, allow)).toBe(figure)
    expect(allowMarkdownLinks(figure, () => false)).toBe(figure)
    for (const other of [
      `/images/${id}.png`,
      `/images/${id}.jpg?x=1`,
      `/images/../${id}.jpg`,
      `/images/${id.toUpperCase()}.jpg`,
      `//evil.example/images/${id}.jpg`,
      `/files/${id}.jpg`,
    ])
      expect(allowMarkdownLinks(`a ![i](${other}) b`, allow)).toBe('a b')
    // A link (not an image) to the same path is not kept, nor a reference definition.
    expect(allowMarkdownLinks(`a [file](/images/${id}.jpg) b`, allow)).toBe('a file b')
    expect(markdownLinkUrls(allowMarkdownLinks(`[r]: /images/${id}.jpg\n\n![i][r] x`, allow))).toEqual([])
  })
})
