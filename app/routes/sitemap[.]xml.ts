import { sitemapXml } from '#app/lib/seo'
import { blogPath } from '#app/lib/blog'
import { allArticles } from '#app/server/blog.server'
import { getEnv } from '#app/server/env.server'

/** GET /sitemap.xml: the public pages and every blog article, with absolute URLs from APP_URL. */
export function loader() {
  return new Response(
    sitemapXml(
      getEnv().APP_URL,
      allArticles().map((a) => ({
        path: blogPath(a.slug),
        changefreq: 'monthly' as const,
        priority: 0.6,
        lastmod: a.date,
      })),
    ),
    {
      headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
    },
  )
}
