import { createContext, useContext } from 'react'
import stylesheetHref from '#app/tailwind.css?url'

/**
 * The site's one stylesheet (issue 17). A public page (one a CDN may keep) carries it inline in a <style> element,
 * so its first paint waits for no second request (Lighthouse's mobile first contentful paint was held back by the
 * render-blocking file); every other document links the file, which the browser caches across pages.
 *
 * The server decides through `InlineCssProvider` (entry.server.tsx hands the CSS for public documents only). The
 * browser never has the CSS text: when the server inlined it, the client renders the same <style> element with
 * empty content, and hydration keeps the server's content (React does not patch `dangerouslySetInnerHTML` when it
 * hydrates, and a later render with unchanged props does not touch it). It stays for the life of the page, so a
 * client-side navigation from a public page to any other keeps the same styles without a new request.
 */
const InlineCssContext = createContext<string | null>(null)
export const InlineCssProvider = InlineCssContext.Provider

const INLINE_ID = 'rw-css'

/** Read once in the browser, before hydration: whether the server inlined the stylesheet into this document. */
const inlinedByServer = typeof document !== 'undefined' && document.getElementById(INLINE_ID) !== null

export function Stylesheet() {
  const css = useContext(InlineCssContext)
  if (css !== null) return <style id={INLINE_ID} dangerouslySetInnerHTML={{ __html: css }} />
  if (inlinedByServer) return <style id={INLINE_ID} dangerouslySetInnerHTML={{ __html: '' }} suppressHydrationWarning />
  return <link rel="stylesheet" href={stylesheetHref} />
}
