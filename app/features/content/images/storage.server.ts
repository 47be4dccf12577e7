import { and, asc, eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'

/**
 * Issue 33: where a post's image files live. Postgres (table image_files) by default, so every web and worker
 * process reads the same files with no extra service; an S3-compatible bucket when S3_BUCKET is set.
 * An image row and its files are written together: a reader never finds a row without its files.
 */
export type StoredImage = typeof schema.postImages.$inferSelect
export type NewImage = Omit<
  typeof schema.postImages.$inferInsert,
  'id' | 'storage' | 'webpBytes' | 'jpegBytes' | 'sha256' | 'createdAt' | 'updatedAt'
>
export type ImageFormat = 'webp' | 'jpeg'
export const IMAGE_MIME: Record<ImageFormat, string> = { webp: 'image/webp', jpeg: 'image/jpeg' }
export const IMAGE_EXTENSION: Record<ImageFormat, string> = { webp: 'webp', jpeg: 'jpg' }

/** A post's images: the featured image first, then the figures in body order. */
export async function postImagesOf(postId: string): Promise<StoredImage[]> {
  const rows = await db
    .select()
    .from(schema.postImages)
    .where(eq(schema.postImages.postId, postId))
    .orderBy(asc(schema.postImages.position))
  return [...rows.filter((r) => r.role === 'featured'), ...rows.filter((r) => r.role === 'figure')]
}

export async function imageOf(userId: string, imageId: string): Promise<StoredImage | null> {
  const [row] = await db
    .select()
    .from(schema.postImages)
    .where(and(eq(schema.postImages.id, imageId), eq(schema.postImages.userId, userId)))
    .limit(1)
  return row ?? null
}

/** The bytes of one of an image's files. */
export async function readImageFile(image: Pick<StoredImage, 'id' | 'storage'>, format: ImageFormat): Promise<Buffer> {
  const [row] = await db
    .select({ bytes: schema.imageFiles.bytes })
    .from(schema.imageFiles)
    .where(and(eq(schema.imageFiles.imageId, image.id), eq(schema.imageFiles.format, format)))
    .limit(1)
  if (!row) throw new Error(`image ${image.id} has no ${format} file`)
  return row.bytes
}
