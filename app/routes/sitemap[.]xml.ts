import { sitemapXml } from '#app/features/marketing/seo'
import { blogPath } from '#app/features/marketing/blog'
import { allArticles } from '#app/features/marketing/blog.server'
import { getEnv } from '#app/platform/env.server'

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
