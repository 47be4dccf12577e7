import createDOMPurify, { type Config, type DOMPurify } from 'dompurify'
import { marked } from 'marked'
import { hasHtmlTags } from './html-tags'
import { MARKED_OPTIONS } from './options'

/**
 * Post bodies to safe HTML: HTML content is used as is, anything else is Markdown rendered with marked; either way
 * the result is sanitized with DOMPurify under the rules below. Links (and other URL attributes) may only use http,
 * https, irc, ircs, mailto or xmpp, or be relative; scripts, event handlers, styles, forms and embeds are removed.
 *
 * This module is shared by the server and the browser, so it holds no DOM: the server sanitizes on jsdom windows
 * (`#app/server/sanitize.server`, which the client bundle can never include), the browser on its own document
 * (`sanitizeInBrowser`, the editor's live preview). Posts are sanitized once, when they are written or edited, and
 * the stored `content_html` is served as it is (docs/decisions/0201-sanitize-once.md).
 */

/**
 * The version of the sanitizing rules below. Raise it whenever ALLOWED_URI, the sanitize options or the Markdown
 * rendering change: every stored post with an older `sanitizer_version` is then sanitized again by the worker
 * (resanitizeStalePosts), and nothing else ever sanitizes a stored post a second time.
 */
export const SANITIZER_VERSION = 1

export const ALLOWED_URI = /^(?:(?:https?|ircs?|mailto|xmpp):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i

/** DOMPurify's options: the same on the server and in the browser. */
export const SANITIZE_OPTIONS = {
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  FORBID_TAGS: [
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
  ],
  FORBID_ATTR: ['style', 'srcset', 'formaction', 'action'],
} satisfies Config

/** Markdown to HTML (GitHub-flavoured), not yet sanitized. */
export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { ...MARKED_OPTIONS, async: false })
}

/** The body of a post as HTML, not yet sanitized: the content itself when it contains tags, otherwise Markdown. */
export function postBodySource(content: string): string {
  return hasHtmlTags(content) ? content : markdownToHtml(content)
}

let browserPurifier: DOMPurify | undefined

/** Browser only (the editor's live preview): sanitizes on the page's own document, under the same rules. */
export function sanitizeInBrowser(html: string): string {
  browserPurifier ??= createDOMPurify(window)
  return browserPurifier.sanitize(html, SANITIZE_OPTIONS)
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
