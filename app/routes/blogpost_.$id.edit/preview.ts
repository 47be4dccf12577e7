import { stripRawHtml } from '#app/features/content/content'
import { markdownToHtml } from '#app/platform/markdown/markdown'

/**
 * The body as a save would render it: raw HTML dropped (as the finish does), Markdown to HTML, not yet sanitized.
 * The preview action sanitizes it on the server (jsdom), the live preview in the browser, under the same rules.
 */
export function previewSource(markdown: string) {
  return markdownToHtml(stripRawHtml(markdown))
}
