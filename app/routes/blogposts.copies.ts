import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '#app/features/accounts/session.server'
import { liveCopiesOf } from '#app/features/publishing/deletion.server'

/**
 * The live copies of one post (`?id=`), for the delete dialog's choices (JavaScript only; without it the
 * confirmation page `/blogposts?delete=<id>` brings them).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const id = new URL(request.url).searchParams.get('id') ?? ''
  return json({ copies: await liveCopiesOf(user.id, id) }, { headers: { 'Cache-Control': 'no-store' } })
}
