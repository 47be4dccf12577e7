import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { findPing, startPing } from '#app/platform/queue/system.server'
import { isUuid } from '#app/platform/security/ids'
import { requireApiUserId } from '#app/features/accounts/api-auth.server'

/**
 * A trivial job that proves the whole path: the web process writes a row and enqueues a job,
 * the worker process marks the row as processed. GET ?id= reads the row back.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ message: 'Method not allowed' }, { status: 405 })
  await requireApiUserId(request)
  const ping = await startPing()
  return json({ id: ping.id }, { status: 202 })
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUserId(request)
  const id = new URL(request.url).searchParams.get('id') ?? ''
  if (!isUuid(id)) return json({ message: 'id is required' }, { status: 400 })
  const ping = await findPing(id)
  if (!ping) return json({ message: 'Not found' }, { status: 404 })
  return json({ id: ping.id, processedAt: ping.processedAt, processedBy: ping.processedBy })
}
