import { rssXml } from '#app/features/marketing/blog'
import { getEnv } from '#app/platform/env.server'
import { allArticles } from '#app/features/marketing/blog.server'
import { PUBLIC_CACHE_CONTROL, strongEtag, ifNoneMatchHits } from '#app/platform/http/http-cache.server'

/** GET /blog/rss.xml: RSS 2.0 of the blog, cacheable like the public pages. */
export function loader({ request }: { request: Request }) {
  const body = rssXml(getEnv().APP_URL, allArticles())
  const etag = strongEtag(body)
  const headers = {
    'Content-Type': 'application/rss+xml; charset=utf-8',
    'Cache-Control': PUBLIC_CACHE_CONTROL,
    ETag: etag,
  }
  if (ifNoneMatchHits(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers })
  return new Response(body, { headers })
}
