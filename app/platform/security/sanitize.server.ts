import { createRequire } from 'node:module'
import createDOMPurify, { type DOMPurify } from 'dompurify'
import type { JSDOM } from 'jsdom'
import { permitted, permittedImage } from '#app/platform/markdown/links'
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
/**
 * jsdom is loaded at the first sanitization, not when the process starts (issue 39: loading it was half of the web
 * process's start); `require` keeps the sanitizer synchronous.
 */
const require = createRequire(import.meta.url)
let purifier: { window: JSDOM['window']; purify: DOMPurify; uses: number } | undefined

/** Loads jsdom now (it is otherwise loaded at the first sanitization); tests call it before they time a call. */
export function loadSanitizer() {
  currentPurifier()
}

function currentPurifier() {
  if (!purifier || purifier.uses >= WINDOW_USES) {
    purifier?.window.close()
    const jsdom = require('jsdom') as { JSDOM: typeof JSDOM }
    const { window } = new jsdom.JSDOM('<!DOCTYPE html>')
    const purify = createDOMPurify(window)
    purify.addHook('uponSanitizeElement', filterUrls)
    purifier = { window, purify, uses: 0 }
  }
  purifier.uses++
  return purifier.purify
}

/** Which URLs may stay links and embeds: given by the one sanitize call under way (sanitizing is synchronous). */
let allowUrl: ((url: string) => boolean) | undefined

export interface UrlFilter {
  /**
   * Only these http(s) URLs may stay links, images and other embeds (and `#fragment` links): an `<a>` with any
   * other `href` is unwrapped (its content kept), an `<img>`, `<source>`, `<video>`, `<audio>`, `<iframe>` (any
   * element) with any other `src`, `srcset`, `poster` or `href` is removed. Without it, URLs are checked by
   * ALLOWED_URI only.
   */
  allowUrl?: (url: string) => boolean
}

const URL_ATTRIBUTES = ['href', 'xlink:href', 'src', 'poster', 'data']

/**
 * DOMPurify hook, before each element is checked (so content moved out of an unwrapped link is still sanitized: it
 * is put after the link, where the walk goes next, as DOMPurify does with the content of the tags it drops).
 */
function filterUrls(node: Node) {
  const allow = allowUrl
  if (!allow || node.nodeType !== 1) return
  const element = node as Element
  // An <img src> (and a <picture>'s <source srcset>) may also be a post's own stored image, exactly /images/<id>.jpg.
  const image = element.localName === 'img' || element.localName === 'source'
  const ok = (url: string) => (image ? permittedImage(url.trim(), allow) : permitted(url.trim(), allow))
  const urls = URL_ATTRIBUTES.flatMap((name) => element.getAttribute(name) ?? [])
  const srcset = element.getAttribute('srcset')
  if (srcset) urls.push(...srcset.split(',').flatMap((c) => c.trim().split(/\s+/)[0] || []))
  if (urls.every(ok)) return
  const parent = element.parentNode
  if (!parent) return
  if (element.localName === 'a') {
    const next = element.nextSibling
    while (element.firstChild) parent.insertBefore(element.firstChild, next)
  }
  parent.removeChild(element)
}

export function sanitizeHtml(html: string, opts: UrlFilter = {}): string {
  allowUrl = opts.allowUrl
  try {
    return currentPurifier().sanitize(html, SANITIZE_OPTIONS)
  } finally {
    allowUrl = undefined
  }
}

/**
 * The body of a post as sanitized HTML: HTML when the content contains tags, otherwise Markdown. With `allowUrl`,
 * only those URLs stay links and embeds (UrlFilter).
 */
export function renderPostBody(content: string, opts: UrlFilter = {}): string {
  return sanitizeHtml(postBodySource(content), opts)
}

/**
 * The columns to store whenever a post's body is written or edited: the sanitized HTML and the version of the
 * rules that made it. Views, downloads, the API, webhooks and destinations serve `content_html` as stored. With
 * `allowUrl`, only those URLs stay links and embeds (UrlFilter); the base rules, and so the version, are the same.
 */
export function storedPostBody(
  content: string,
  opts: UrlFilter = {},
): { contentHtml: string; sanitizerVersion: number } {
  return { contentHtml: renderPostBody(content, opts), sanitizerVersion: SANITIZER_VERSION }
}
