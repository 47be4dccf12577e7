/**
 * Fields that leave Rankwell for another site (a CMS's title, excerpt, slug, tag and category names, image alt
 * texts; the webhook's title and meta description) as plain text. A CMS stores an editor's or administrator's title
 * unfiltered and most themes print it raw, so whatever a model or a fetched page put in it must not be able to
 * become markup there.
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** HTML character references decoded once (`&amp;lt;` becomes `&lt;`, not `<`). */
function decodeOnce(text: string): string {
  return text.replace(
    /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi,
    (whole, dec?: string, hex?: string, name?: string) => {
      const code = dec ? Number(dec) : hex ? parseInt(hex, 16) : undefined
      if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      return NAMED[name!.toLowerCase()] ?? whole
    },
  )
}

function stripTags(text: string): string {
  return text
    .replace(/<(script|style|template|textarea|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<\/?[a-z][^<>]*>/gi, '')
}

/**
 * A title, an excerpt, a tag or an alt text as plain text: tags (and what script and style elements hold) and
 * comments removed, character references decoded once, tags that decoding revealed removed too, control characters
 * dropped, whitespace collapsed. A `<` that could still open a tag where a site prints the text raw (`<img` without
 * its `>`) is followed by a space; `3 < 5` and `5 > 3` stay as they are.
 */
export function plainField(text: string): string {
  return (
    stripTags(decodeOnce(stripTags(text)))
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/<(?=[a-z/!?])/gi, '< ')
      .replace(/\s+/g, ' ')
      .trim()
  )
}

export const SLUG_MAX_LENGTH = 96

/**
 * A URL slug of `[a-z0-9-]` only: accents folded (é → e), everything else a hyphen, no leading, trailing or double
 * hyphens, at most SLUG_MAX_LENGTH characters (cut at a hyphen when there is one). `fallback` when nothing is left
 * (a title in a script without Latin letters): it must be unique to the post, since sites look posts up by slug.
 */
export function safeSlug(text: string, fallback: string): string {
  const slug = (value: string) => {
    const s = plainField(value)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/ß/g, 'ss')
      .replace(/[æ]/g, 'ae')
      .replace(/[ø]/g, 'o')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
    if (s.length <= SLUG_MAX_LENGTH) return s
    const cut = s.slice(0, SLUG_MAX_LENGTH + 1)
    const at = cut.lastIndexOf('-')
    return (at > SLUG_MAX_LENGTH / 2 ? cut.slice(0, at) : s.slice(0, SLUG_MAX_LENGTH)).replace(/-+$/, '')
  }
  return slug(text) || slug(fallback) || 'post'
}
