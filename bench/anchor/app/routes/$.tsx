import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { savedPages } from '../saved'
import { savedPage } from '../saved.server'

/**
 * Every URL renders Rankwell's saved HTML of that page (bench/anchor/saved/<name>.html, written by bench/40-web.ts
 * before the build), and only once (issue 39): the loader returns the page's title, and the component reads the
 * saved page from a module's map (filled on the server, see saved.ts), so that the anchor sends the same bytes as
 * Rankwell's page (its markup and its hydration data, as saved) plus Remix's own small shell, with nothing
 * serialised twice. No database, no session.
 *
 * Two anchors in one app: by default the <body> is one string (`dangerouslySetInnerHTML`: the framework's floor for
 * the same bytes); with `?react=1` it is the same markup as React elements made once, which React renders on every
 * request (what React alone costs for the same elements: the floor of any page rendered with React).
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const page = savedPage(url.pathname)
  if (!page) throw new Response('Not Found', { status: 404 })
  return json({ title: page.title, react: url.searchParams.get('react') === '1' })
}

export default function SavedPage() {
  const { react } = useLoaderData<typeof loader>()
  const { pathname } = useLocation()
  const page = savedPages.get(pathname)
  return react ? <div>{page?.tree}</div> : <div dangerouslySetInnerHTML={{ __html: page?.body ?? '' }} />
}
