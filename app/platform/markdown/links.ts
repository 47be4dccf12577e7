import { Lexer, marked, Tokenizer, type Token, type Tokens, type TokensList } from 'marked'
import { MARKED_OPTIONS } from './options'

/**
 * Links in Markdown as marked renders them. Pure and isomorphic (no DOM): marked's own lexer, under the renderer's
 * options (MARKED_OPTIONS), decides what is a link, so the filter sees exactly what `markdownToHtml` would link or
 * embed: inline links with any title quoting or `<…>` destination, reference links (`[text][ref]`, `[ref][]`,
 * `[ref]`) and their definitions at any indentation or nesting, `<…>` autolinks, GFM bare `https://…`, `www.…` and
 * e-mail autolinks, images, and raw HTML. Code spans and code blocks are not links and are never touched.
 *
 * The filter edits the Markdown in place: each token that must change has its source span replaced, everything else
 * stays byte for byte (nothing is re-serialised). An edit can make new Markdown (a link's text that is itself a bare
 * URL, text left by stripped HTML), so the result is lexed again and filtered again until nothing is left to do.
 */

type Allow = (url: string) => boolean

/** A lexer as marked.parse makes one (the global defaults, then our options) and its tokenizer. */
function lexer(): { lexer: Lexer; tokenizer: Tokenizer } {
  const tokenizer = new Tokenizer()
  return { lexer: new Lexer({ ...marked.defaults, ...MARKED_OPTIONS, tokenizer }), tokenizer }
}

function lex(markdown: string): TokensList {
  return lexer().lexer.lex(markdown)
}

/**
 * Whether a URL may stay a link or an embed under `allow`: a `#fragment` always may, an http(s) URL when `allow`
 * accepts it, any other URL (relative, javascript:, data:, mailto:…) never. The rule of `allowMarkdownLinks` and of
 * the HTML filter (`storedPostBody(content, { allowUrl })`).
 */
export function permitted(url: string, allow: Allow): boolean {
  return url.startsWith('#') || (/^https?:\/\//i.test(url) && allow(url))
}

/**
 * A post's own stored image (issue 33): `/images/<uuid>.jpg` (and `.webp`, its other file), exactly that shape.
 * The one relative URL an image (never a link) may use, whatever `allow` says.
 */
export const OWN_IMAGE_PATH = /^\/images\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:jpg|webp)$/

/** `permitted` for what an image embeds: also a post's own stored image. */
export function permittedImage(url: string, allow: Allow): boolean {
  return OWN_IMAGE_PATH.test(url) || permitted(url, allow)
}

/**
 * The Markdown with every link, image and reference definition that `allow` rejects taken out, and all raw HTML
 * taken out, as marked reads it:
 * - a link `[text](url …)`, `[text][ref]`, `[ref][]`, `[ref]` → its text, with the text's own Markdown kept;
 * - a bare `https://…` or `www.…` URL, or an autolink `<https://…>` → removed, with the double space it leaves
 *   collapsed; a bare or `<…>` e-mail address → kept as text, no longer linked (`name\@host`);
 * - an image `![alt](url)` / `![alt][ref]` → removed;
 * - a reference definition `[ref]: url` (at any indentation, in quotes and lists too) → removed;
 * - raw HTML (inline or block), allowed or not → the tags removed and their text kept (`<a href>t</a>` → `t`;
 *   `<img>` and other void tags vanish; `<br>` → a space; comments, `<script>` and `<style>` with their content).
 * `#fragment` links and http(s) links, images and definitions that `allow` accepts stay byte for byte (an allowed
 * link whose text was only a removed image is removed too). Line endings become `\n` when anything is changed.
 */
export function allowMarkdownLinks(markdown: string, allow: (url: string) => boolean): string {
  if (clean(lex(markdown), allow)) return markdown
  let md = markdown.replace(/\r\n?/g, '\n')
  for (let pass = 0; pass < 5; pass++) {
    const { lexer: lx, tokenizer } = lexer()
    const tokens = lx.lex(md)
    if (clean(tokens, allow)) return md
    md = new Rewriter(allow, tokenizer, pass >= 3).region(md, tokens, true)
  }
  if (clean(lex(md), allow)) return md
  // Not expected: marked read something that could not be found in the source. The plain text, escaped.
  return escapeMarkdown(
    plainOf(lex(md), (t) => isAutolink(t) && !permitted((t as Tokens.Link).href, allow)).replace(/\s+/g, ' '),
  )
}

/** Every URL marked would link or embed, in order: links, images, and href/src of raw HTML. Not code. */
export function markdownLinkUrls(markdown: string): string[] {
  const out: string[] = []
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'link') {
        out.push(t.href)
        walk(t.tokens ?? [])
      } else if (t.type === 'image') out.push(t.href)
      else if (t.type === 'html') {
        for (const m of t.raw.matchAll(/<[a-z][^>]*>/gi))
          for (const a of m[0].matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi))
            out.push(decodeEntities(a[1] ?? a[2] ?? a[3] ?? ''))
      } else walk(children(t))
    }
  }
  walk(lex(markdown))
  return out
}

/**
 * The text a reader sees: no Markdown syntax, no HTML tags, no URL that is not itself visible text (a link gives
 * its text, an image nothing), entities decoded, whitespace collapsed to single spaces. For JSON-LD strings and
 * other plain-text fields.
 */
export function plainText(markdown: string): string {
  return plainOf(lex(markdown)).replace(/\s+/g, ' ').trim()
}

// ---------------------------------------------------------------------------------------------------------------

/** The child tokens of a token, in source order (list items, table cells, inline content). Not an image's alt. */
function children(t: Token): Token[] {
  switch (t.type) {
    case 'list':
      return (t as Tokens.List).items
    case 'table': {
      const table = t as Tokens.Table
      return [...table.header, ...table.rows.flat()].flatMap((cell) => cell.tokens)
    }
    case 'image':
    case 'code':
    case 'codespan':
      return []
    default:
      return 'tokens' in t && Array.isArray(t.tokens) ? t.tokens : []
  }
}

/** GFM bare URLs, `www.` and e-mail autolinks and `<…>` autolinks (the link is all of the text). */
function isAutolink(t: Token): boolean {
  return t.type === 'link' && !t.raw.startsWith('[')
}

/** Nothing left to remove: every link, image and definition permitted, no raw HTML. */
function clean(tokens: TokensList, allow: Allow): boolean {
  for (const def of Object.values(tokens.links)) if (!permitted(def.href, allow)) return false
  const ok = (list: Token[]): boolean =>
    list.every((t) => {
      if (t.type === 'html') return false
      if (t.type === 'image') return permittedImage(t.href, allow)
      if (t.type === 'link' && !permitted(t.href, allow)) return false
      return ok(children(t))
    })
  return ok(tokens)
}

interface Edit {
  start: number
  end: number
  text: string
  /** A removal: collapse the double space it leaves. */
  collapse?: boolean
}

class Rewriter {
  constructor(
    private readonly allow: Allow,
    private readonly tokenizer: Tokenizer,
    /** Last passes: a top-level block that cannot be fixed in place becomes its escaped plain text. */
    private readonly lastResort: boolean,
  ) {}

  /**
   * `src` with the edits `tokens` call for; the tokens' raws lie in `src` in order (allowing for the line prefixes
   * of quotes and lists that marked strips). `block`: reference definitions, which marked skips rather than
   * tokenises, may sit between the tokens.
   */
  region(src: string, tokens: Token[], block: boolean, top = block): string {
    const edits: Edit[] = []
    let cursor = 0
    let gapClean = true
    for (const t of tokens) {
      const at = locate(src, t.raw, cursor)
      if (!at) {
        gapClean = false // its source lies in the next gap: no definitions are looked for there
        continue
      }
      const [start, end] = at
      if (block && gapClean) this.definitions(src, cursor, start, edits)
      gapClean = true
      cursor = end
      const raw = src.slice(start, end)
      let edit = this.token(t, raw)
      if (top && this.lastResort && !clean(Object.assign([t], { links: {} }), this.allow)) {
        const text = escapeMarkdown(
          plainOf([t], (x) => isAutolink(x) && !permitted((x as Tokens.Link).href, this.allow))
            .replace(/\s+/g, ' ')
            .trim(),
        )
        edit = { text: text + (/\n+$/.exec(raw)?.[0] ?? '') }
      }
      if (edit && edit.text !== raw) edits.push({ start, end, ...edit })
    }
    if (block && gapClean) this.definitions(src, cursor, src.length, edits)
    return applyEdits(src, edits)
  }

  private token(t: Token, raw: string): Omit<Edit, 'start' | 'end'> | undefined {
    switch (t.type) {
      case 'link':
        return this.link(t as Tokens.Link, raw)
      case 'image':
        return permittedImage(t.href, this.allow) ? undefined : { text: '', collapse: true }
      case 'html':
        return t.block ? { text: stripHtml(raw) } : { text: /^<br\b/i.test(raw) ? ' ' : '', collapse: true }
      case 'code':
      case 'codespan':
        return undefined
      case 'blockquote':
      case 'list_item':
        return { text: this.region(raw, children(t), true, false) }
      case 'list':
      case 'table':
        return { text: this.region(raw, children(t), false) }
      default: {
        const inner = children(t)
        if (!inner.length) return undefined
        // Narrow to the token's text (a heading without its #, emphasis without its stars) when it is there.
        const text: unknown = 'text' in t ? t.text : undefined
        const i = typeof text === 'string' && text ? raw.indexOf(text) : -1
        const j = i < 0 ? raw.length : i + (text as string).length
        const content = this.region(raw.slice(Math.max(i, 0), j), inner, false)
        // Emphasis left with nothing in it goes too.
        if (['em', 'strong', 'del'].includes(t.type) && !content.trim()) return { text: '', collapse: true }
        return { text: raw.slice(0, Math.max(i, 0)) + content + raw.slice(j) }
      }
    }
  }

  private link(t: Tokens.Link, raw: string): Omit<Edit, 'start' | 'end'> | undefined {
    const ok = permitted(t.href, this.allow)
    if (isAutolink(t)) {
      if (ok) return undefined
      if (/^mailto:/i.test(t.href)) return { text: t.href.slice('mailto:'.length).replace('@', '\\@') }
      return { text: '', collapse: true }
    }
    const label = linkLabel(raw)
    if (label === undefined) return ok ? undefined : { text: escapeMarkdown(plainOf(t.tokens)) }
    const newLabel = this.region(label, t.tokens, false)
    if (!ok) return { text: newLabel }
    if (newLabel === label) return undefined
    if (!newLabel.trim()) return { text: '', collapse: true }
    return { text: '[' + newLabel + raw.slice(1 + label.length) }
  }

  /** Removes the definitions of rejected URLs in src[from, to), a stretch marked skipped between block tokens. */
  private definitions(src: string, from: number, to: number, edits: Edit[]) {
    let i = from
    while (i < to) {
      const rest = src.slice(i, to)
      // Quote markers and list markers before a definition inside a quote or a list item.
      const prefix = /^(?:[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t])))*[ \t]*/.exec(rest)![0]
      const def = this.tokenizer.def(rest.slice(prefix.length))
      if (def) {
        const start = i + prefix.length
        const end = start + def.raw.length
        // The whole line goes, with its quote or list markers.
        if (!permitted(def.href, this.allow))
          edits.push({ start: i, end: Math.min(end, start + def.raw.replace(/\n+$/, '').length + 1), text: '' })
        i = Math.max(end, i + 1)
      } else {
        const nl = src.indexOf('\n', i)
        i = nl < 0 || nl >= to ? to : nl + 1
      }
    }
  }
}

/** The source of a bracketed link's or image's text: `[text](…)`, `[text][ref]`, `[text][]`, `[text]`. */
function linkLabel(raw: string): string | undefined {
  if (raw.startsWith('!')) return undefined
  const rules = Lexer.rules.inline.gfm
  for (const rule of [rules.link, rules.reflink, rules.nolink]) {
    const m = rule.exec(raw)
    if (m?.[1] !== undefined && raw[1 + m[1].length] === ']') return m[1]
  }
  return undefined
}

/**
 * Where `raw` lies in `src`, at or after `from`: as it is, or with line prefixes (quote markers, list indentation)
 * and blank lines that marked took out or added between its lines.
 */
function locate(src: string, raw: string, from: number): [number, number] | undefined {
  const i = raw ? src.indexOf(raw, from) : -1
  if (i >= 0) return [i, i + raw.length]
  // Line by line, each line's indentation and prefix free, any run of spaces and tabs for any other (marked expands
  // tabs in lists and quotes), `\|` for `|` (table cells).
  const lines = raw.replace(/\n+$/, '').split(/\n+/)
  if (!lines.some((line) => line.trim())) return undefined
  const pattern =
    lines
      .map((line) =>
        line
          .replace(/^[ \t]+/, '')
          .split(/[ \t]+/)
          .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('\\|', '\\\\?\\|'))
          .join('[ \\t]+'),
      )
      .join('(?:\\n[ \\t>]*)+') + (raw.endsWith('\n') ? '\\n*' : '')
  const re = new RegExp(pattern, 'g')
  re.lastIndex = from
  const m = re.exec(src)
  return m ? [m.index, m.index + m[0].length] : undefined
}

function applyEdits(src: string, edits: Edit[]): string {
  let out = ''
  let pos = 0
  for (const [k, e] of edits.entries()) {
    if (e.start < pos) continue
    out += src.slice(pos, e.start)
    pos = e.end
    if (e.collapse && e.text === '') {
      let prev = out.at(-1)
      let next = src[pos]
      if (prev === '(' && next === ')') {
        out = out.slice(0, -1)
        pos++
        prev = out.at(-1)
        next = src[pos]
      }
      if ((next === ' ' || next === '\t') && (prev === undefined || /[\s*_~[(]/.test(prev))) {
        if (edits[k + 1]?.start !== pos) pos++
      } else if ((prev === ' ' || prev === '\t') && (next === undefined || /[\s.,;:!?)\]*_~]/.test(next)))
        out = out.slice(0, -1)
    }
    out += e.text
  }
  return out + src.slice(pos)
}

const TAG = /<\/?[a-zA-Z][a-zA-Z0-9:-]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g

/** A block of raw HTML as its text: tags removed, comments and script/style elements removed with content. */
function stripHtml(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(script|style|textarea|title|template)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
    .replace(/<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g, '')
    .replace(/<[?!][\s\S]*?(?:>|$)/g, '')
    .replace(TAG, (tag) => (/^<br\b/i.test(tag) ? ' ' : ''))
}

/** Text made safe as Markdown: every ASCII punctuation character backslash-escaped. */
function escapeMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&')
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }
  return text.replace(
    /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi,
    (whole, dec?: string, hex?: string, name?: string) => {
      const code = dec ? Number(dec) : hex ? parseInt(hex, 16) : undefined
      if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      return named[name!.toLowerCase()] ?? whole
    },
  )
}

/** The visible text of tokens; `omit`: tokens to leave out entirely. Blocks are separated by whitespace. */
function plainOf(tokens: Token[], omit?: (t: Token) => boolean): string {
  let out = ''
  for (const t of tokens) {
    if (omit?.(t)) continue
    switch (t.type) {
      case 'image':
      case 'def':
      case 'checkbox':
        break
      case 'space':
      case 'hr':
      case 'br':
        out += ' '
        break
      case 'html':
        out += t.block ? ` ${decodeEntities(stripHtml(t.raw))} ` : /^<br\b/i.test(t.raw) ? ' ' : ''
        break
      case 'code':
        out += ` ${t.text} `
        break
      case 'codespan':
      case 'escape':
        out += t.text
        break
      case 'text':
        out += 'tokens' in t && t.tokens ? plainOf(t.tokens, omit) : decodeEntities(t.text)
        break
      case 'strong':
      case 'em':
      case 'del':
      case 'link':
        out += plainOf(children(t), omit)
        break
      case 'list':
        out += ` ${(t as Tokens.List).items.map((item) => plainOf(item.tokens, omit)).join(' ')} `
        break
      case 'table': {
        const table = t as Tokens.Table
        out += ` ${[...table.header, ...table.rows.flat()].map((cell) => plainOf(cell.tokens, omit)).join(' ')} `
        break
      }
      default:
        out += ` ${plainOf(children(t), omit)} `
    }
  }
  return out
}
