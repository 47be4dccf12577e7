import DOMPurify from 'isomorphic-dompurify'
import { marked } from 'marked'
import { hasHtmlTags } from './posts'

/**
 * Post bodies to safe HTML: HTML content is used as is, anything else is Markdown rendered with marked; either way
 * the result is sanitized with DOMPurify. Links (and other URL attributes) may only use http, https, irc, ircs,
 * mailto or xmpp, or be relative; scripts, event handlers, styles, forms and embeds are removed.
 */
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

export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
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
