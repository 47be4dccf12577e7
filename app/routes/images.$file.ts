import type { LoaderFunctionArgs } from '@remix-run/node'
import { getUserId } from '#app/features/accounts/session.server'
import { imageResponse } from '#app/features/content/images/serve.server'

/** /images/<id>.webp and /images/<id>.jpg: a post image's file (owner, or a signed URL). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return imageResponse(request, params.file ?? '', await getUserId(request))
}
