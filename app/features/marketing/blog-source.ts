import { z } from 'zod'
import { adviceTokens } from '#app/features/content/seo-advice'
import type { BlogArticle } from './blog'

/** The front matter of a file under content/blog/ (read on the server only: see blog.ts). */
export const blogFrontMatter = z.object({
  title: z.string().min(1),
  description: z.string().min(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  author: z.string().min(1).default('The Rankwell team'),
})

const unquote = (value: string) => value.replace(/^(["'])([\s\S]*)\1$/, '$2')

/**
 * Splits a Markdown file into its front matter (simple `key: value` lines) and body; throws on a bad file. The
 * SEO advice's `{{seo:name}}` tokens (seo-advice.ts) become its sentences, so the blog says the checklist's numbers.
 */
export function parseArticle(slug: string, source: string): BlogArticle {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source)
  if (!match) throw new Error(`content/blog/${slug}.md: missing front matter`)
  const fields: Record<string, string> = {}
  for (const line of match[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z]+):\s*(.*)$/.exec(line)
    if (kv) fields[kv[1]!] = unquote(kv[2]!.trim())
  }
  const parsed = blogFrontMatter.safeParse(fields)
  if (!parsed.success)
    throw new Error(`content/blog/${slug}.md: ${parsed.error.issues[0]?.message ?? 'bad front matter'}`)
  return { ...parsed.data, slug, markdown: adviceTokens(match[2]!.trim(), `content/blog/${slug}.md`) }
}
