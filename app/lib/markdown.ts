import createDOMPurify, { type DOMPurify } from 'dompurify'
import { JSDOM } from 'jsdom'
import { marked } from 'marked'
import { hasHtmlTags } from './posts'

/**
 * Post bodies to safe HTML: HTML content is used as is, anything else is Markdown rendered with marked; either way
 * the result is sanitized with DOMPurify. Links (and other URL attributes) may only use http, https, irc, ircs,
 * mailto or xmpp, or be relative; scripts, event handlers, styles, forms and embeds are removed.
 *
 * Server only (jsdom). Posts are sanitized once, when they are written or edited (`storedPostBody`), and the stored
 * `content_html` is served as it is (docs/decisions/0201-sanitize-once.md).
 */

/**
 * The version of the sanitizing rules below. Raise it whenever ALLOWED_URI, FORBID_TAGS, FORBID_ATTR, the DOMPurify
 * options or the Markdown rendering change: every stored post with an older `sanitizer_version` is then sanitized
 * again by the worker (resanitizeStalePosts), and nothing else ever sanitizes a stored post a second time.
 */
export const SANITIZER_VERSION = 1

export const ALLOWED_URI = /^(?:(?:https?|ircs?|mailto|xmpp):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i

const FORBID_TAGS = [
  'style',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'object',
  'embed',
  'base',
  'meta',
  'link',
]
const FORBID_ATTR = ['style', 'srcset', 'formaction', 'action']

/**
 * jsdom keeps a little state in a window for every sanitization (about 7 KB a call, for good), so no window lives
 * long: each serves at most WINDOW_USES calls, then it is closed and a new one is made. (jsdom also holds each call's
 * garbage until the event loop turns, so a long synchronous loop of calls should yield between calls: every write
 * path awaits the database anyway.)
 */
const WINDOW_USES = 100
let purifier: { window: JSDOM['window']; purify: DOMPurify; uses: number } | undefined

function currentPurifier() {
  if (!purifier || purifier.uses >= WINDOW_USES) {
    purifier?.window.close()
    const { window } = new JSDOM('<!DOCTYPE html>')
    purifier = { window, purify: createDOMPurify(window), uses: 0 }
  }
  purifier.uses++
  return purifier.purify
}

export function sanitizeHtml(html: string): string {
  return currentPurifier().sanitize(html, {
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    FORBID_TAGS,
    FORBID_ATTR,
  })
}

/** Markdown to HTML (GitHub-flavoured), not yet sanitized. */
export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true, breaks: false })
}

/** The body of a post as sanitized HTML: HTML when the content contains tags, otherwise Markdown. */
export function renderPostBody(content: string): string {
  return sanitizeHtml(hasHtmlTags(content) ? content : markdownToHtml(content))
}

/**
 * The columns to store whenever a post's body is written or edited: the sanitized HTML and the version of the
 * rules that made it. Views, downloads, the API, webhooks and destinations serve `content_html` as stored.
 */
export function storedPostBody(content: string): { contentHtml: string; sanitizerVersion: number } {
  return { contentHtml: renderPostBody(content), sanitizerVersion: SANITIZER_VERSION }
}

/** A complete, standalone HTML document for the HTML download. */
export function htmlDocument(opts: {
  title: string
  description: string
  language?: string
  bodyHtml: string
}): string {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  return [
    '<!doctype html>',
    `<html lang="${esc(opts.language ?? 'en')}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(opts.title)}</title>`,
    `<meta name="description" content="${esc(opts.description)}">`,
    '</head>',
    '<body>',
    opts.bodyHtml,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}
