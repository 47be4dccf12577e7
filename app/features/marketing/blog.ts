import { absoluteUrl, SITE_NAME } from './seo'

/**
 * Rankwell's own blog (issue 17): Markdown files under content/blog/, each with a front matter block
 * (`title`, `description`, `date` as YYYY-MM-DD, optional `author`). The file name is the slug. The files are read
 * and checked on the server (blog-source.ts); this module is what pages need, without zod in the browser's bundle.
 */
export type BlogArticle = {
  slug: string
  title: string
  description: string
  date: string
  author: string
  markdown: string
}

/** Newest first; the slug breaks ties so the order is stable. */
export function sortArticles<T extends { date: string; slug: string }>(articles: T[]): T[] {
  return [...articles].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
}

export const blogPath = (slug: string) => `/blog/${slug}`

export function formatArticleDate(date: string) {
  return ARTICLE_DATE.format(new Date(`${date}T00:00:00Z`))
}
const ARTICLE_DATE = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
})

export function articleJsonLd(
  appUrl: string,
  article: Pick<BlogArticle, 'slug' | 'title' | 'description' | 'date' | 'author'>,
) {
  const url = absoluteUrl(appUrl, blogPath(article.slug))
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: article.title,
    description: article.description,
    datePublished: article.date,
    dateModified: article.date,
    mainEntityOfPage: url,
    url,
    author: { '@type': 'Organization', name: article.author, url: absoluteUrl(appUrl, '/') },
    publisher: { '@id': absoluteUrl(appUrl, '/#organization'), '@type': 'Organization', name: SITE_NAME },
  }
}

export function breadcrumbJsonLd(appUrl: string, trail: Array<{ name: string; path: string }>) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((step, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: step.name,
      item: absoluteUrl(appUrl, step.path),
    })),
  }
}

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

/** RSS 2.0 of the articles (newest first), with absolute links from APP_URL. */
export function rssXml(
  appUrl: string,
  articles: Array<Pick<BlogArticle, 'slug' | 'title' | 'description' | 'date'>>,
): string {
  const items = sortArticles(articles).map((a) => {
    const link = absoluteUrl(appUrl, blogPath(a.slug))
    return [
      '    <item>',
      `      <title>${xml(a.title)}</title>`,
      `      <link>${xml(link)}</link>`,
      `      <guid isPermaLink="true">${xml(link)}</guid>`,
      `      <pubDate>${new Date(`${a.date}T00:00:00Z`).toUTCString()}</pubDate>`,
      `      <description>${xml(a.description)}</description>`,
      '    </item>',
    ].join('\n')
  })
  const feed = absoluteUrl(appUrl, '/blog/rss.xml')
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${SITE_NAME} Blog</title>`,
    `    <link>${xml(absoluteUrl(appUrl, '/blog'))}</link>`,
    `    <atom:link href="${xml(feed)}" rel="self" type="application/rss+xml" />`,
    '    <description>SEO for founders: choosing keywords, writing posts that rank and growing organic traffic.</description>',
    '    <language>en-us</language>',
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}
