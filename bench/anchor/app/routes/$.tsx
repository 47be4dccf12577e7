import fs from 'node:fs'
import path from 'node:path'
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'

/**
 * Every URL renders Rankwell's saved HTML of that page (bench/anchor/saved/<name>.html, written by bench/40-web.ts
 * before the build): the <head> title and the <body> markup, as one string. No database, no session.
 */
const savedDir = process.env.ANCHOR_SAVED_DIR ?? path.resolve('bench/anchor/saved')
const pages = new Map<string, { title: string; body: string }>()
for (const file of fs.existsSync(savedDir) ? fs.readdirSync(savedDir) : []) {
  const html = fs.readFileSync(path.join(savedDir, file), 'utf8')
  const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? ''
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html
  pages.set(decodeURIComponent(file.replace(/\.html$/, '')), { title, body })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export function loader({ request }: LoaderFunctionArgs) {
  const page = pages.get(new URL(request.url).pathname)
  if (!page) throw new Response('Not Found', { status: 404 })
  return json({ title: page.title, body: page.body })
}

export default function SavedPage() {
  const { body } = useLoaderData<typeof loader>()
  return <div dangerouslySetInnerHTML={{ __html: body }} />
}
