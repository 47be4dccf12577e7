import { comparableUrl } from '#app/features/keywords/serp'
import { allowMarkdownLinks, markdownLinkUrls, permittedImage } from '#app/platform/markdown/links'
import { stripFinish, stripRawHtml } from './content'
import { slugify } from './posts'
import { splitTitle } from './post-editor'
import { META_MAX, searchResultCut, TITLE_MAX } from './seo-advice'
import { scorePost, type ScoreInput, type ScoreResult } from './seo-checklist'

/**
 * What a save will do to the editor's fields, said before saving (issue 35: never silently changed), and the SEO
 * checklist of the fields as they are typed. Pure and isomorphic: the editor runs them live with JavaScript, the
 * Preview button on the server without; both follow the save path (post-editor.server.ts `writeEdit`, finishPost).
 */
export type EditorFields = { title: string; slug: string; metaDescription: string; body: string }
export type NoteField = keyof EditorFields
export type SaveNote = { field: NoteField; id: string; message: string }

/** What the checklist needs besides the fields: the post's stored facts, as the last save scored them. */
export type ChecklistContext = Omit<ScoreInput, 'title' | 'slug' | 'metaDescription' | 'markdown'> & {
  /** The research pages the post may cite (a link to one becomes a numbered citation). */
  readPages: string[]
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()
const quote = (text: string, max = 60) => {
  const chars = [...text]
  return `“${chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text}”`
}
const list = (items: string[], max = 3) =>
  `${items
    .slice(0, max)
    .map((i) => quote(i))
    .join(', ')}${items.length > max ? ` and ${items.length - max} more` : ''}`

/** The body the save starts from: line endings, its own `# Title` line and the parts the save rebuilds taken off. */
function bodyOf(body: string) {
  return splitTitle(body.replace(/\r\n?/g, '\n').trim()).body
}

/** The text of the parts of a body that every save rebuilds ('Related reading', the call to action, 'Sources'). */
function finishParts(body: string): string {
  const text = `\n${bodyOf(body)}`
  const kept = stripFinish(text)
  return text.slice(0, kept.length) === kept ? text.slice(kept.length).trim() : text.trim()
}

/** The Markdown a save would score (before its citations and additions): the pure steps of the save path. */
export function savedMarkdown(fields: EditorFields): string {
  const body = allowMarkdownLinks(stripRawHtml(bodyOf(fields.body)), () => true)
  return `# ${collapse(fields.title)}\n\n${body}\n`
}

/** The SEO checklist of the fields as they are now: the checklist's own function, on what the save would score. */
export function liveChecklist(fields: EditorFields, context: ChecklistContext): ScoreResult {
  const { readPages: _readPages, ...rest } = context
  return scorePost({
    ...rest,
    title: collapse(fields.title),
    slug: slugify(fields.slug),
    metaDescription: collapse(fields.metaDescription),
    markdown: savedMarkdown(fields),
  })
}

/**
 * Every change the save will make to what was typed, and what search results will cut, field by field. `saved` is
 * the post as stored (a change to the parts the save rebuilds is only worth a note when it differs from them).
 */
export function saveNotes(fields: EditorFields, context: { saved: EditorFields; readPages: string[] }): SaveNote[] {
  const notes: SaveNote[] = []
  const add = (field: NoteField, id: string, message: string) => notes.push({ field, id, message })

  const title = collapse(fields.title)
  if (title !== fields.title.trim()) add('title', 'title-spaces', `Extra spaces are removed on save: ${quote(title)}.`)
  if (title.startsWith('#'))
    add('title', 'title-hash', 'The title is the post’s heading already: a leading “#” is kept as text.')
  if ([...title].length > TITLE_MAX)
    add(
      'title',
      'title-cut',
      `Saved as you wrote it, but search results show about ${TITLE_MAX} characters: ${quote(searchResultCut(title, TITLE_MAX), TITLE_MAX + 2)}.`,
    )

  const slug = slugify(fields.slug)
  if (slug && slug !== fields.slug.trim())
    add(
      'slug',
      'slug-changed',
      `Saved as ${quote(slug, 90)}: lower case, letters and digits joined by hyphens${[...fields.slug.trim()].length > 80 ? ', at most 80 characters' : ''}.`,
    )

  const meta = collapse(fields.metaDescription)
  if (meta !== fields.metaDescription.trim())
    add('metaDescription', 'meta-spaces', 'Extra spaces and line breaks are removed on save.')
  if ([...meta].length > META_MAX)
    add(
      'metaDescription',
      'meta-cut',
      `Saved as you wrote it, but search results show about ${META_MAX} characters: ${quote(searchResultCut(meta, META_MAX), META_MAX + 2)}.`,
    )

  const raw = fields.body.replace(/\r\n?/g, '\n').trim()
  const heading = splitTitle(raw).title
  if (heading !== null)
    add(
      'body',
      'body-title',
      `The first line ${quote(`# ${heading}`)} is removed on save: the Title field is the post’s heading.`,
    )
  const body = bodyOf(raw)
  const withoutHtml = stripRawHtml(body)
  if (withoutHtml !== body) {
    const tags = [...new Set([...body.matchAll(/<\/?([a-z][a-z0-9-]*)/gi)].map((m) => `<${m[1]!.toLowerCase()}>`))]
    const dropped = tags.filter((t) => /^<(script|style|iframe|object|embed|noscript|template)>$/.test(t))
    add(
      'body',
      'body-html',
      `HTML is removed on save (the post is Markdown): ${tags.slice(0, 4).join(', ')}${tags.length > 4 ? '…' : ''}. ${
        dropped.length
          ? `${dropped.join(', ')} goes with its content; other tags keep their text.`
          : 'Their text stays.'
      }`,
    )
  }
  const refused = [...new Set(markdownLinkUrls(withoutHtml).filter((url) => !permittedImage(url, () => true)))]
  if (refused.length)
    add(
      'body',
      'body-links',
      `Only web addresses (http:// or https://) stay links: ${list(refused)} ${refused.length === 1 ? 'becomes' : 'become'} plain text on save${
        refused.some((u) => /^\s*(javascript|data|vbscript):/i.test(u)) ? ', and a script address is never kept' : ''
      }.`,
    )
  else if (allowMarkdownLinks(withoutHtml, () => true) !== withoutHtml.replace(/\r\n?/g, '\n'))
    add('body', 'body-links', 'Some links are not web addresses and become plain text on save.')

  const links = [...stripFinish(`\n${withoutHtml}`).matchAll(/(?<![!\]])\[([^[\]\n]+)\]\(\s*<?([^)\s>]+)>?[^)]*\)/g)]
    .filter((m) => !/^\d+$/.test(m[1]!) && /^https?:\/\//i.test(m[2]!))
    .map((m) => ({ text: m[1]!, url: m[2]! }))
  const read = new Set(context.readPages.map(comparableUrl))
  const cited = links.filter((l) => read.has(comparableUrl(l.url)))
  if (cited.length)
    add(
      'body',
      'body-citations',
      `A link to a page from the research becomes its text and a numbered citation on save: ${list(cited.map((l) => l.text))}.`,
    )
  const seen = new Set<string>()
  const repeated = links.filter((l) => {
    const key = comparableUrl(l.url)
    if (seen.has(key)) return !read.has(key)
    seen.add(key)
    return false
  })
  if (repeated.length)
    add(
      'body',
      'body-repeated-links',
      `A second link to the same page becomes plain text on save: ${list(repeated.map((l) => l.text))} (the first is kept).`,
    )

  if (finishParts(raw) !== finishParts(context.saved.body))
    add(
      'body',
      'body-finish',
      'The ‘Related reading’ line, the closing call to action and everything from ‘## Sources’ on are rebuilt on save: changes there are not kept.',
    )
  return notes
}
