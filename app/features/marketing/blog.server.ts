import { sortArticles, type BlogArticle } from './blog'
import { parseArticle } from './blog-source'
import { markdownToHtml } from '#app/platform/markdown/markdown'
import { sanitizeHtml } from '#app/platform/security/sanitize.server'

/**
 * The blog's Markdown files, bundled into the server build by Vite (no disk access at request time), parsed on
 * first use and rendered to sanitized HTML once per process.
 */
const sources = import.meta.glob<string>('/content/blog/*.md', { query: '?raw', import: 'default', eager: true })

export type RenderedArticle = BlogArticle & { html: string }

let cache: RenderedArticle[] | undefined

export function allArticles(): RenderedArticle[] {
  cache ??= sortArticles(
    Object.entries(sources).map(([file, source]) => {
      const slug = file.replace(/^.*\//, '').replace(/\.md$/, '')
      const article = parseArticle(slug, source)
      return { ...article, html: sanitizeHtml(markdownToHtml(article.markdown)) }
    }),
  )
  return cache
}

export function findArticle(slug: string): RenderedArticle | undefined {
  return allArticles().find((a) => a.slug === slug)
}
