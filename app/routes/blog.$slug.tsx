import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { articleJsonLd, blogPath, breadcrumbJsonLd, formatArticleDate } from '#app/features/marketing/blog'
import { readingPage } from '#app/platform/http/cache'
import { appUrlFrom, seoMeta } from '#app/features/marketing/seo'
import { findArticle } from '#app/features/marketing/blog.server'

/** Cacheable by a CDN for anonymous visitors, and sent without the app's JavaScript (issue 17: `readingPage`). */
export const handle = readingPage

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: 'Article not found | Rankwell' }]
  const appUrl = appUrlFrom(matches)
  const { article } = data
  return [
    ...seoMeta({
      title: article.title,
      description: article.description,
      path: blogPath(article.slug),
      appUrl,
      type: 'article',
      jsonLd: [
        articleJsonLd(appUrl, article),
        breadcrumbJsonLd(appUrl, [
          { name: 'Home', path: '/' },
          { name: 'Blog', path: '/blog' },
          { name: article.title, path: blogPath(article.slug) },
        ]),
      ],
    }),
    { property: 'article:published_time', content: article.date },
    { property: 'article:author', content: article.author },
  ]
}

export function loader({ params }: LoaderFunctionArgs) {
  const article = findArticle(params.slug ?? '')
  if (!article) throw new Response('Not Found', { status: 404 })
  const { slug, title, description, date, author, html } = article
  return json({ article: { slug, title, description, date, author, html } })
}

/**
 * The article's blocks below the first screen are laid out when they come near it (`content-visibility: auto`, with
 * their last size kept once rendered): a phone's first layout of a long article took ~90 ms cold, ~50 ms this way.
 */
const body =
  'mt-8 [overflow-wrap:anywhere] [&>*]:[content-visibility:auto] [&>*]:[contain-intrinsic-size:auto_6rem] text-lg text-slate-800 [&_a]:text-brand-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_h3]:mt-6 [&_h3]:text-xl [&_h3]:font-semibold [&_li]:mt-2 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-4 [&_p]:leading-8 [&_table]:mt-6 [&_table]:w-full [&_table]:text-base [&_td]:border [&_td]:border-slate-200 [&_td]:px-3 [&_td]:py-2 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-100 [&_th]:px-3 [&_th]:py-2 [&_th]:text-left [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6'

export default function BlogArticle() {
  const { article } = useLoaderData<typeof loader>()
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <ol className="flex flex-wrap gap-1">
          <li>
            <Link to="/" className="underline">
              Home
            </Link>{' '}
            /
          </li>
          <li>
            <Link to="/blog" className="underline">
              Blog
            </Link>
          </li>
        </ol>
      </nav>
      <header className="mt-6">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{article.title}</h1>
        <p className="mt-4 text-slate-600">
          {article.author} · <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
        </p>
      </header>
      {/* Our own Markdown from content/blog/, rendered and sanitized on the server (blog.server.ts). */}
      <div className={body} dangerouslySetInnerHTML={{ __html: article.html }} />
      <aside className="card mt-12 text-center">
        <h2 className="text-xl font-bold text-slate-900">Find keywords you can rank for</h2>
        <p className="mt-2 text-slate-700">Rankwell researches keywords and drafts SEO blog posts for you.</p>
        <Link to="/signup" className="btn-primary mt-4">
          Start your free trial
        </Link>
      </aside>
    </article>
  )
}
