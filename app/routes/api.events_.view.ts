import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { recordEvents } from '#app/features/marketing/analytics.server'

/** A transparent 1×1 GIF (43 bytes). */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

/**
 * GET /api/events/view?path=/blog/… → the page view of a page sent without JavaScript (`readingPage`, the blog),
 * counted by the image the page carries (no script on the page, and counted with JavaScript off too). Stored as
 * POST /api/events stores a 'pageview' (the path's sensitive parameters redacted, the same per-client rate limit).
 * Answers the pixel, never cached; like the rest of the API, JSON {message} with 400 for a missing or bad path, 429
 * when one client sends too many, 503 when the event cannot be stored (the image only fails to load).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const noStore = { 'Cache-Control': 'no-store' }
  let outcome
  try {
    // A missing path is refused by the event schema as an empty one is (400, before the rate limit is counted).
    const path = new URL(request.url).searchParams.get('path') ?? ''
    outcome = await recordEvents({ type: 'pageview', path }, request)
  } catch (error) {
    console.error('[analytics] could not store a page view', error)
    return json({ message: 'Events could not be stored right now.' }, { status: 503, headers: noStore })
  }
  if (outcome.status !== 204) {
    const headers = new Headers(noStore)
    if (outcome.status === 429) headers.set('Retry-After', String(outcome.retryAfterSeconds ?? 60))
    return json({ message: outcome.message }, { status: outcome.status, headers })
  }
  return new Response(PIXEL, {
    headers: { ...noStore, 'Content-Type': 'image/gif', 'Content-Length': String(PIXEL.length) },
  })
}
