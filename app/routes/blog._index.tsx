import { json, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { blogPath, breadcrumbJsonLd, formatArticleDate } from '#app/features/marketing/blog'
import { readingPage } from '#app/platform/http/cache'
import { appUrlFrom, seoMeta } from '#app/features/marketing/seo'
import { allArticles } from '#app/features/marketing/blog.server'

/** Cacheable by a CDN for anonymous visitors, and sent without the app's JavaScript (issue 17: `readingPage`). */
export const handle = readingPage

export const meta: MetaFunction = ({ matches }) => {
  const appUrl = appUrlFrom(matches)
  return [
    ...seoMeta({
      title: 'The Rankwell Blog: SEO for Founders',
      description:
        'Practical SEO for founders and small teams: choosing keywords you can win, matching search intent and writing posts that rank.',
      path: '/blog',
      appUrl,
      jsonLd: [
        breadcrumbJsonLd(appUrl, [
          { name: 'Home', path: '/' },
          { name: 'Blog', path: '/blog' },
        ]),
      ],
    }),
    { tagName: 'link', rel: 'alternate', type: 'application/rss+xml', title: 'Rankwell Blog', href: '/blog/rss.xml' },
  ]
}

export function loader() {
  return json({
    articles: allArticles().map(({ slug, title, description, date }) => ({ slug, title, description, date })),
  })
}

export default function BlogIndex() {
  const { articles } = useLoaderData<typeof loader>()
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-14 sm:py-20">
        <div className="mx-auto max-w-3xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">The Rankwell Blog</p>
          <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">SEO for founders</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">
            How to pick keywords you can win, write the page searchers want and grow organic traffic without an SEO
            team.
          </p>
        </div>
      </section>
      <section className="mx-auto max-w-3xl px-4 py-12">
        <ol className="space-y-6">
          {articles.map((a) => (
            <li key={a.slug} className="card">
              <article>
                <p className="text-sm text-slate-600">
                  <time dateTime={a.date}>{formatArticleDate(a.date)}</time>
                </p>
                <h2 className="mt-1 text-xl font-bold text-slate-900">
                  <Link to={blogPath(a.slug)} className="hover:text-brand-700">
                    {a.title}
                  </Link>
                </h2>
                <p className="mt-2 text-slate-700">{a.description}</p>
                <Link to={blogPath(a.slug)} className="mt-3 inline-block font-semibold text-brand-700 underline">
                  Read the article<span className="sr-only">: {a.title}</span>
                </Link>
              </article>
            </li>
          ))}
        </ol>
        <p className="mt-10 text-center text-sm text-slate-600">
          Subscribe with RSS:{' '}
          <a href="/blog/rss.xml" className="font-medium text-brand-700 underline">
            /blog/rss.xml
          </a>
        </p>
      </section>
    </>
  )
}
