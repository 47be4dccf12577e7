import type { MetaFunction } from '@remix-run/node'

export const meta: MetaFunction = () => [{ title: 'Page not found | Rankwell' }, { name: 'robots', content: 'noindex' }]

/** Every unknown URL lands here and answers 404 through the root error boundary. */
export function loader() {
  throw new Response('Not Found', { status: 404 })
}

export default function NotFound() {
  return null
}
