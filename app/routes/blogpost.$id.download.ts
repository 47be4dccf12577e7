import type { LoaderFunctionArgs } from '@remix-run/node'
import { jsonLdScript } from '#app/features/content/content'
import { htmlDocument } from '#app/platform/markdown/markdown'
import { LANGUAGE_OPTIONS } from '#app/platform/markets/markets'
import { downloadName } from '#app/features/content/posts'
import { getPost, POST_MESSAGES } from '#app/features/content/posts.server'
import { requireUser } from '#app/features/accounts/session.server'

/**
 * /blogpost/:id/download?format=md|html — the post as a file (Content-Disposition: attachment), so it works
 * without JavaScript. The HTML carries the post's JSON-LD (Article and FAQPage). `view=source` shows the file as plain text in the browser instead.
 */
/** The post's JSON-LD (Article, FAQPage) as <script> elements for the document's head. */
function jsonLdTags(data: unknown): string {
  const items = Array.isArray(data) ? data : []
  return items.map((d) => `<script type="application/ld+json">${jsonLdScript(d)}</script>\n`).join('')
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const url = new URL(request.url)
  const format = url.searchParams.get('format') === 'html' ? 'html' : 'md'
  const post = await getPost(user.id, params.id ?? '')
  const text = (status: number, body: string) =>
    new Response(body, {
      status,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    })
  if (!post) return text(404, POST_MESSAGES.notFound)
  if (post.status !== 'completed') return text(409, 'This blog post is not ready yet.')

  const body =
    format === 'md'
      ? post.contentMarkdown
      : htmlDocument({
          title: post.title,
          description: post.metaDescription,
          language: LANGUAGE_OPTIONS.find((l) => l.label === post.language)?.iso ?? 'en',
          bodyHtml: post.contentHtml,
        }).replace('</head>', `${jsonLdTags(post.jsonLd)}</head>`)
  const filename = downloadName(post.slug || post.title, format)
  const asciiName = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')
  const view = url.searchParams.get('view') === 'source'
  return new Response(body, {
    headers: {
      'Content-Type': view
        ? 'text/plain; charset=utf-8'
        : format === 'md'
          ? 'text/markdown; charset=utf-8'
          : 'text/html; charset=utf-8',
      'Content-Disposition': `${view ? 'inline' : 'attachment'}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'Cache-Control': 'private, no-store',
    },
  })
}
