import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { listPostCards } from '#app/server/posts.server'
import { requireUser } from '#app/server/session.server'

/** The library's cards, for the page's polling while posts are being written (JavaScript only). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  return json({ cards: await listPostCards(user.id) }, { headers: { 'Cache-Control': 'no-store' } })
}
