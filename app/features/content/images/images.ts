/**
 * Issue 33, the pure side of post images: which sections get a figure, the prompt (generated) or query (stock) for
 * each image, its alt text, and the figure lines in the Markdown. Isomorphic (the editor uses `figureLine` too).
 *
 * Figures are decided from the brief's outline, without asking the model again: a section gets one when its heading
 * or key points are about something a picture shows (a process, a layout, a comparison, a place, a tool…), at most
 * two per post, never the FAQ or the conclusion, and only in posts of three sections or more. A wrong guess costs
 * one image; a schema change would cost every brief's prompt version (and every checkpoint under way).
 */
export const MAX_FIGURES = 2
export const ALT_MAX = 125

/** `/images/<uuid>.jpg` and `.webp`: the only relative URL a post body may embed. */
export const IMAGE_PATH = /^\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(webp|jpg)$/

export type OutlineSection = { heading: string; keyPoints?: string[] }

const VISUAL =
  /\b(how to|steps?|process|workflow|set ?up|setup|install\w*|layout|design\w*|examples?|compar\w*|vs\.?|versus|before and after|diagram|map|tools?|dashboard|checklist|template|anatomy|structure|types? of|kinds? of|ingredients|equipment|gear|room|garden|space|build\w*|routine)\b/i

/** The sections (indexes in the outline) that get a figure: at most MAX_FIGURES, where a picture helps. */
export function figureSections(sections: OutlineSection[]): number[] {
  if (sections.length < 3) return []
  const scored = sections
    .map((s, i) => ({
      i,
      score: (VISUAL.test(s.heading) ? 2 : 0) + (s.keyPoints ?? []).filter((p) => VISUAL.test(p)).length,
    }))
    // The first section sits right under the featured image: a figure there would repeat it.
    .filter((s) => s.i > 0 && s.score >= 2)
    .sort((a, b) => b.score - a.score || a.i - b.i)
  const picked: number[] = []
  for (const s of scored) {
    // Two figures in adjacent sections crowd each other out.
    if (picked.some((p) => Math.abs(p - s.i) < 2)) continue
    picked.push(s.i)
    if (picked.length === MAX_FIGURES) break
  }
  return picked.sort((a, b) => a - b)
}

/** Plain text, one line: Markdown marks, tags, URLs and control characters gone. */
export function plainLine(text: string): string {
  return (
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\bhttps?:\/\/\S+/gi, '')
      .replace(/[*_`#>|~[\]\\]/g, '')
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  )
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max + 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut.slice(0, max)).replace(/[\s,;:.–—-]+$/, '')}`
}

/**
 * Alt text: plain text, at most 125 characters, never opening with 'image of', 'picture of' or 'photo of' (screen
 * readers already say it is an image). `subject` is what the image shows (a stock photo's own description, or the
 * section it illustrates); `context` is the post's topic, added when it fits.
 */
export function altText(subject: string, context = ''): string {
  const strip = (t: string) =>
    plainLine(t)
      .replace(/^(?:an?\s+|the\s+)?(?:image|picture|photo(?:graph)?|illustration)\s+(?:of|showing|with)\s+/i, '')
      .replace(/^./, (c) => c.toUpperCase())
  const main = strip(subject)
  const extra = strip(context)
  if (!main) return clip(extra, ALT_MAX)
  const withContext =
    extra && !main.toLowerCase().includes(extra.toLowerCase()) ? `${main.replace(/[.!?]+$/, '')}: ${extra}` : main
  return clip(withContext.length <= ALT_MAX ? withContext : main, ALT_MAX)
}

/**
 * The Images API prompt: an editorial illustration of the post's subject (the section's heading for a figure), with
 * no text, letters, logos or watermarks in the image. The post's words are quoted as the subject, nothing more.
 */
export function imagePrompt(input: { title: string; keyword: string; section?: string | null }): string {
  const about = input.section ?? input.title
  // The keyword too, unless the subject already says it (a title usually does).
  const subject = plainLine(
    about.toLowerCase().includes(input.keyword.toLowerCase()) ? about : `${about} (${input.keyword})`,
  ).slice(0, 300)
  return [
    `An editorial illustration for a blog article, about: "${subject}".`,
    input.section ? `The article is titled "${plainLine(input.title).slice(0, 200)}".` : '',
    'Clean, modern, realistic style with natural light and a calm colour palette; one clear subject, uncluttered background.',
    'No text, no letters, no numbers, no captions, no logos, no watermarks, no user interface screenshots anywhere in the image.',
  ]
    .filter(Boolean)
    .join(' ')
}

/** The stock search: the section's heading for a figure, else the keyword (short queries find better photos). */
export function stockQuery(input: { keyword: string; section?: string | null }): string {
  const words = plainLine(input.section || input.keyword)
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2 && !STOP.has(w.toLowerCase()))
  return (words.length ? words : plainLine(input.keyword).split(/\s+/)).slice(0, 5).join(' ')
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'your',
  'you',
  'how',
  'what',
  'why',
  'when',
  'who',
  'are',
  'that',
  'this',
  'from',
  'into',
  'about',
  'best',
  'use',
  'using',
  'most',
  'more',
  'than',
  'its',
  'our',
  'can',
  'should',
  'does',
])

/** A figure's Markdown line: `![alt](/images/<id>.jpg)` (the alt escaped so it cannot close the brackets). */
export function figureLine(imageId: string, alt: string): string {
  const safe = plainLine(alt).replace(/[[\]()\\]/g, '')
  return `![${safe}](/images/${imageId}.jpg)`
}

const FIGURE_LINE = /^!\[[^\]\n]*\]\(\/images\/[0-9a-f-]{36}\.jpg\)[ \t]*$/

/** The Markdown without any figure line (before figures are placed again). */
export function withoutFigures(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !FIGURE_LINE.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n+$/, markdown.endsWith('\n') ? '\n' : '')
}

/** The figure image ids of a Markdown body, in order. */
export function figureIds(markdown: string): string[] {
  return markdown.split('\n').flatMap((line) => {
    if (!FIGURE_LINE.test(line)) return []
    const m = /\/images\/([0-9a-f-]{36})\.jpg/.exec(line)
    return m ? [m[1]!] : []
  })
}

/**
 * The Markdown with each figure on a line of its own after the first paragraph of the H2 section numbered
 * `position` (from 0). Figures already in the text are removed first, so placing is idempotent. A figure whose
 * section is missing (an edit removed it) goes after the last section's first paragraph.
 */
export function placeFigures(
  markdown: string,
  figures: Array<{ position: number; imageId: string; alt: string }>,
): string {
  const lines = withoutFigures(markdown).split('\n')
  const h2 = lines.flatMap((line, i) => (/^##\s/.test(line) ? [i] : []))
  if (!h2.length || !figures.length) return lines.join('\n')
  const inserts = new Map<number, string[]>()
  for (const f of [...figures].sort((a, b) => a.position - b.position)) {
    const start = h2[Math.min(f.position, h2.length - 1)]!
    const end = h2.find((i) => i > start) ?? lines.length
    // The first paragraph: the first non-empty line after the heading that is not a heading, then up to a blank line.
    let i = start + 1
    while (i < end && !lines[i]!.trim()) i++
    if (i < end && /^#{3,}\s/.test(lines[i]!)) {
      i++
      while (i < end && !lines[i]!.trim()) i++
    }
    while (i < end && lines[i]!.trim()) i++
    const at = Math.min(i, end)
    inserts.set(at, [...(inserts.get(at) ?? []), figureLine(f.imageId, f.alt)])
  }
  const out: string[] = []
  lines.forEach((line, i) => {
    const here = inserts.get(i)
    if (here) for (const l of here) out.push('', l, '')
    out.push(line)
  })
  const tail = inserts.get(lines.length)
  if (tail) for (const l of tail) out.push('', l, '')
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n+$/, markdown.endsWith('\n') ? '\n' : '')
}

export type ImageCredit = {
  provider: 'unsplash' | 'pexels'
  photographer: string
  photographerUrl: string
  photoUrl: string
}

/** The credit line a stock provider's terms ask for. */
export function creditLine(credit: ImageCredit): string {
  return `Photo by ${credit.photographer} on ${credit.provider === 'unsplash' ? 'Unsplash' : 'Pexels'}`
}

/** Unsplash asks for links back with utm parameters naming the app. */
export function withUtm(url: string): string {
  try {
    const u = new URL(url)
    u.searchParams.set('utm_source', 'rankwell')
    u.searchParams.set('utm_medium', 'referral')
    return u.toString()
  } catch {
    return url
  }
}

/** What a screen needs of a stored image. */
export type ImageView = {
  id: string
  role: 'featured' | 'figure'
  position: number
  alt: string
  width: number
  height: number
  source: 'generated' | 'stock' | 'upload'
  credit: ImageCredit | null
}

/**
 * The stored (sanitized) body HTML with each of the post's own figures as a <picture>: a WebP source, the JPEG
 * fallback with its width and height (no layout shift) and lazy loading. Only `<img>` of exactly the sanitizer's
 * shape for a known image is rewritten; everything else stays as stored.
 */
export function withPictures(html: string, images: ImageView[]): string {
  const byId = new Map(images.map((i) => [i.id, i]))
  return html.replace(/<img src="\/images\/([0-9a-f-]{36})\.jpg" alt="([^"]*)">/g, (whole, id: string, alt: string) => {
    const image = byId.get(id)
    if (!image) return whole
    return `<picture><source srcset="/images/${id}.webp" type="image/webp"><img src="/images/${id}.jpg" alt="${alt}" width="${image.width}" height="${image.height}" loading="lazy" decoding="async"></picture>`
  })
}
