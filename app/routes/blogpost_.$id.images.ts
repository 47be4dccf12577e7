import type { ActionFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { requireUser } from '#app/features/accounts/session.server'
import {
  regenerateImage,
  replaceImage,
  updateImageAlt,
  type ImageActionResult,
} from '#app/features/content/images/editor.server'
import { readForm } from '#app/platform/http/body.server'
import { isUuid } from '#app/platform/security/ids'
import { hit } from '#app/platform/security/rate-limit.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

/**
 * POST /blogpost/:id/images: the editor's image forms (plain forms, so they work without JavaScript; the upload is
 * multipart, up to 10 MB: its own body limit in body.server.ts). intent=alt {imageId, alt} | replace {imageId,
 * file} | regenerate {role, position}. Each answers with a redirect to the editor's images and a toast.
 */
/** A post id from the URL, or 404 (a malformed id must never reach a redirect's Location header or a query). */
function postIdOf(params: ActionFunctionArgs['params']) {
  if (!isUuid(params.id)) throw new Response('Not found', { status: 404 })
  return params.id
}

export async function loader({ params }: ActionFunctionArgs) {
  return redirect(`/blogpost/${postIdOf(params)}/edit`)
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const postId = postIdOf(params)
  const back = `/blogpost/${postId}/edit#images`
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const imageId = String(form.get('imageId') ?? '')
  let result: ImageActionResult
  if (intent === 'alt') result = await updateImageAlt(user.id, postId, imageId, String(form.get('alt') ?? ''))
  else if (intent === 'replace' || intent === 'regenerate') {
    // Each of these pays for an image (or decodes one): at most 10 a minute.
    const limit = await hit(`post-images:${user.id}`, { limit: 10, windowSeconds: 60, failOpen: true })
    if (!limit.allowed)
      result = {
        ok: false,
        status: 409,
        message: `Too many image changes. Try again in ${limit.retryAfterSeconds} seconds.`,
      }
    else if (intent === 'replace') {
      const file = form.get('file')
      result = await replaceImage(user.id, postId, imageId, file instanceof File ? file : null)
    } else
      result = await regenerateImage(user.id, postId, {
        role: form.get('role') === 'figure' ? 'figure' : 'featured',
        position: Math.max(0, Math.min(50, Number(form.get('position')) || 0)),
      })
  } else result = { ok: false, status: 400, message: 'Unknown action.' }
  return result.ok
    ? toast().redirectWithSuccess(back, { message: result.message, duration: TOAST_MS })
    : toast().redirectWithError(back, { message: result.message, duration: TOAST_MS })
}
