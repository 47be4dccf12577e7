import { sitemapXml } from '#app/lib/seo'
import { getEnv } from '#app/server/env.server'

/** GET /sitemap.xml: the public pages, with absolute URLs from APP_URL. */
export function loader() {
  return new Response(sitemapXml(getEnv().APP_URL), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
