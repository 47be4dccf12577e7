/**
 * A route opts into CDN caching with `export const handle = publicPage` (issue 17): for an anonymous visitor with
 * nothing personal on the page, app/server/http-cache.server.ts makes the document publicly cacheable.
 */
export const publicPage = { cache: 'public' } as const

/**
 * A public page for reading (the blog): cacheable like `publicPage`, and sent without the app's JavaScript (Remix's
 * 'disabling JavaScript' guide). Its links are plain links and it has no form, so nothing on it needs React in the
 * browser; a phone on a slow network paints it without fetching and running ~300 kB of scripts first (issue 17). The
 * page view is still counted, by an image (app/components/static-page-view.tsx).
 */
export const readingPage = { ...publicPage, hydrate: false } as const

/** Whether the matched routes ask for a page without the app's JavaScript (`readingPage`). */
export function withoutScripts(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  return matches.some((m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false)
}
