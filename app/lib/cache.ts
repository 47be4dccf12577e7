/**
 * A route opts into CDN caching with `export const handle = publicPage` (issue 17): for an anonymous visitor with
 * nothing personal on the page, app/server/http-cache.server.ts makes the document publicly cacheable.
 */
export const publicPage = { cache: 'public' } as const
