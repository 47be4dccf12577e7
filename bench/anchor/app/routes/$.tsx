import fs from 'node:fs'
import path from 'node:path'
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLocation } from '@remix-run/react'

/**
 * Every URL renders Rankwell's saved HTML of that page (bench/anchor/saved/<name>.html, written by bench/40-web.ts
 * before the build), and only once (issue 39): the loader returns the page's title, and the component reads the
 * saved <body> markup from this module's map, so that the anchor sends the same bytes as Rankwell's page (its
 * markup and its hydration data, as saved) plus Remix's own small shell, with nothing serialised twice. No
 * database, no session. The map is filled on the server only (the anchor's client code never runs in the bench).
 */
const savedDir = process.env.ANCHOR_SAVED_DIR ?? path.resolve('bench/anchor/saved')
const pages = new Map<string, { title: string; body: string }>()
if (typeof document === 'undefined') {
  for (const file of fs.existsSync(savedDir) ? fs.readdirSync(savedDir) : []) {
    const html = fs.readFileSync(path.join(savedDir, file), 'utf8')
    const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? ''
    const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html
    pages.set(decodeURIComponent(file.replace(/\.html$/, '')), { title, body })
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export function loader({ request }: LoaderFunctionArgs) {
  const page = pages.get(new URL(request.url).pathname)
  if (!page) throw new Response('Not Found', { status: 404 })
  return json({ title: page.title })
}

export default function SavedPage() {
  const { pathname } = useLocation()
  return <div dangerouslySetInnerHTML={{ __html: pages.get(pathname)?.body ?? '' }} />
}
