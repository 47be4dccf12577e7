import crypto from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { signedImageUrl } from '#app/features/content/images/post-images.server'
import { postImagesOf, readImageFile, type StoredImage } from '#app/features/content/images/storage.server'
import { db, schema } from '#app/platform/db/client.server'
import { httpUrlOrNull, plainField } from './publishing'
import type { MediaLedger, RemoteImage, RemoteMediaRef } from './types'

/**
 * Issue 33: a post's images on their way to a destination's media library. Every CMS receives the JPEG file: all of
 * them accept it on every host (WordPress only takes WebP where the server's image library can resize it, and the
 * CMSs make their own smaller sizes anyway), so one format keeps one remote file per image and destination.
 */

/** The credit line a stock photo's terms ask for ("Photo by Ada Lovelace on Unsplash"), or ''. */
export function creditLine(credit: unknown): string {
  if (!credit || typeof credit !== 'object') return ''
  const c = credit as { photographer?: unknown; provider?: unknown }
  const who = typeof c.photographer === 'string' ? plainField(c.photographer) : ''
  const where = typeof c.provider === 'string' ? plainField(c.provider) : ''
  const provider = where ? where.charAt(0).toUpperCase() + where.slice(1) : ''
  if (who && provider) return `Photo by ${who} on ${provider}`
  if (who) return `Photo by ${who}`
  return provider ? `Photo from ${provider}` : ''
}

export function remoteImage(image: StoredImage): RemoteImage {
  return {
    id: image.id,
    role: image.role,
    alt: plainField(image.alt),
    caption: creditLine(image.credit),
    filename: `rankwell-${image.id}.jpg`,
    mime: 'image/jpeg',
    width: image.width,
    height: image.height,
    // Read when a client uploads, not before: an update that finds every image uploaded reads no bytes.
    read: () => readImageFile(image, 'jpeg'),
  }
}

/** A post's images as destinations receive them: featured first, then the figures in body order. */
export async function remoteImagesOf(postId: string): Promise<RemoteImage[]> {
  return (await postImagesOf(postId)).map(remoteImage)
}

/** The remote_media rows of one destination. */
export function mediaLedger(destination: { id: string; userId: string }): MediaLedger {
  return {
    async find(imageId) {
      const [row] = await db
        .select({ remoteId: schema.remoteMedia.remoteId, remoteUrl: schema.remoteMedia.remoteUrl })
        .from(schema.remoteMedia)
        .where(and(eq(schema.remoteMedia.imageId, imageId), eq(schema.remoteMedia.destinationId, destination.id)))
        .limit(1)
      return row ?? null
    },
    async record(imageId, media) {
      await db
        .insert(schema.remoteMedia)
        .values({
          userId: destination.userId,
          imageId,
          destinationId: destination.id,
          remoteId: media.remoteId,
          remoteUrl: media.remoteUrl,
        })
        .onConflictDoUpdate({
          target: [schema.remoteMedia.imageId, schema.remoteMedia.destinationId],
          set: { remoteId: media.remoteId, remoteUrl: media.remoteUrl },
        })
    },
  }
}

/** A ledger that forgets (a client made without one, e.g. for 'Test connection'). */
export function memoryLedger(): MediaLedger {
  const known = new Map<string, RemoteMediaRef>()
  return {
    find: async (imageId) => known.get(imageId) ?? null,
    record: async (imageId, media) => void known.set(imageId, media),
  }
}

/**
 * The remote copy of one image, uploading it at most once: the recorded upload when there is one, else one the
 * media library already holds from an attempt that died before recording it (`adopt`), else a new upload. Either
 * way it is recorded before anything else happens. A media URL a site answers with is used only when it is http(s).
 */
export async function uploadOnce(
  ledger: MediaLedger,
  image: RemoteImage,
  steps: { adopt(): Promise<RemoteMediaRef | null>; upload(bytes: Buffer): Promise<RemoteMediaRef> },
): Promise<RemoteMediaRef> {
  const recorded = await ledger.find(image.id)
  if (recorded) return recorded
  const remote = (await steps.adopt()) ?? (await steps.upload(await image.read()))
  const url = httpUrlOrNull(remote.remoteUrl)
  if (!url) throw new Error(`the media library answered with an unusable URL for ${image.filename}`)
  const ref = { remoteId: remote.remoteId, remoteUrl: url }
  await ledger.record(image.id, ref)
  return ref
}

const FIGURE_SRC = /(<img\b[^>]*?\bsrc=")\/images\/([0-9a-f-]{36})\.(?:jpg|webp)(")/gi

/** The body with each figure's `/images/<id>.jpg` replaced by its uploaded URL (`urls` by image id). */
export function withRemoteFigures(html: string, urls: Map<string, string>): string {
  return html.replace(FIGURE_SRC, (whole, before: string, id: string, after: string) => {
    const url = urls.get(id.toLowerCase())
    return url ? `${before}${escapeAttribute(url)}${after}` : whole
  })
}

function escapeAttribute(value: string) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export type MultipartPart =
  { name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer }

/** A multipart/form-data body (RFC 7578); parts in the order given (S3's POST wants the file last). */
export function multipart(parts: MultipartPart[]): { body: Buffer; contentType: string } {
  const boundary = `----rankwell${crypto.randomBytes(12).toString('hex')}`
  const quote = (s: string) => s.replace(/["\r\n\\]/g, '_')
  const chunks: Buffer[] = []
  for (const part of parts) {
    const head =
      'data' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"; filename="${quote(part.filename)}"\r\nContent-Type: ${part.contentType}\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"\r\n\r\n`
    chunks.push(Buffer.from(head, 'utf8'), 'data' in part ? part.data : Buffer.from(part.value, 'utf8'))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

/**
 * A week-long signed link to the image's JPEG on this app: the webhook's receiver fetches it without a session.
 */
function webhookImageUrl(image: StoredImage) {
  return signedImageUrl(image, 'jpeg')
}

/** The webhook payload's image fields: `featured_image` (or null) and `images` (featured first, then figures). */
export async function webhookImages(postId: string) {
  const images = (await postImagesOf(postId)).map((image) => ({
    id: image.id,
    role: image.role,
    url: webhookImageUrl(image),
    alt: plainField(image.alt),
    width: image.width,
    height: image.height,
    credit: creditLine(image.credit) || null,
  }))
  const featured = images.find((i) => i.role === 'featured')
  return {
    featured_image: featured
      ? {
          url: featured.url,
          alt: featured.alt,
          width: featured.width,
          height: featured.height,
          credit: featured.credit,
        }
      : null,
    images,
  }
}
