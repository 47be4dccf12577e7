import createDOMPurify, { type DOMPurify } from 'dompurify'
import { JSDOM } from 'jsdom'
import { postBodySource, SANITIZE_OPTIONS, SANITIZER_VERSION } from '#app/platform/markdown/markdown'

/**
 * The server's sanitizer: DOMPurify under the rules of `#app/lib/markdown` on a jsdom window. A `.server` module, so
 * jsdom (Node only: it needs SharedArrayBuffer and Node's streams) never reaches a browser bundle; the browser
 * sanitizes with `sanitizeInBrowser`.
 *
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
  return currentPurifier().sanitize(html, SANITIZE_OPTIONS)
}

/** The body of a post as sanitized HTML: HTML when the content contains tags, otherwise Markdown. */
export function renderPostBody(content: string): string {
  return sanitizeHtml(postBodySource(content))
}

/**
 * The columns to store whenever a post's body is written or edited: the sanitized HTML and the version of the
 * rules that made it. Views, downloads, the API, webhooks and destinations serve `content_html` as stored.
 */
export function storedPostBody(content: string): { contentHtml: string; sanitizerVersion: number } {
  return { contentHtml: renderPostBody(content), sanitizerVersion: SANITIZER_VERSION }
}
