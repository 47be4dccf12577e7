import { IMAGE_PATH } from './images'
import { verifyImageSignature } from './post-images.server'
import { imageById, imageOf, readImageFile, IMAGE_MIME, type ImageFormat } from './storage.server'

/**
 * GET /images/<id>.(webp|jpg): an image's file for its owner (session) or for anyone holding a valid, unexpired
 * signed URL (`signedImageUrl`: the webhook's receivers). Ids never change content (a replaced image is a new id),
 * so a file is cached for a year, privately. Anything else is a 404 that says nothing about whether the id exists.
 */
const ONE_YEAR = 31_536_000

export async function imageResponse(request: Request, file: string, userId: string | null): Promise<Response> {
  const notFound = () =>
    new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } })
  const m = IMAGE_PATH.exec(`/images/${file}`)
  if (!m) return notFound()
  const [, id, ext] = m as unknown as [string, string, 'webp' | 'jpg']
  const format: ImageFormat = ext === 'webp' ? 'webp' : 'jpeg'
  const url = new URL(request.url)
  const signed = verifyImageSignature(id, ext, url.searchParams.get('exp'), url.searchParams.get('sig'))
  const image = userId ? await imageOf(userId, id) : null
  const readable = image ?? (signed ? await imageById(id) : null)
  if (!readable) return notFound()
  let bytes: Buffer
  try {
    bytes = await readImageFile(readable, format)
  } catch {
    return notFound()
  }
  return new Response(bytes as unknown as BodyInit, {
    status: 200,
    headers: {
      'Content-Type': IMAGE_MIME[format],
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': `private, max-age=${ONE_YEAR}, immutable`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': 'inline',
      ETag: `"${readable.id}-${format}"`,
    },
  })
}
