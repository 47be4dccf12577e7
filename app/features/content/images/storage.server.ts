import crypto from 'node:crypto'
import type { S3Client } from '@aws-sdk/client-s3'
import { and, asc, eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'

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

/** An S3-compatible bucket: from S3_* by default (`s3Config()`), or given (tests point it at the loopback fake). */
export type S3Config = {
  bucket: string
  endpoint?: string
  region: string
  accessKeyId?: string
  secretAccessKey?: string
  forcePathStyle: boolean
}
export type StorageOptions = { s3?: S3Config | null }

export function s3Config(): S3Config | null {
  const env = getEnv()
  if (!env.S3_BUCKET) return null
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  }
}

/** The S3 SDK, loaded at the first bucket operation (issue 39: loading it took a second of every process start). */
const s3Sdk = () => import('@aws-sdk/client-s3')

const clients = new Map<string, S3Client>()
async function s3Client(config: S3Config): Promise<S3Client> {
  const key = JSON.stringify(config)
  let client = clients.get(key)
  if (!client) {
    const { S3Client } = await s3Sdk()
    client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      maxAttempts: 3,
    })
    clients.set(key, client)
  }
  return client
}

/** The object key of an image's file: images/<id>.webp or images/<id>.jpg. */
export function objectKey(imageId: string, format: ImageFormat) {
  return `images/${imageId}.${IMAGE_EXTENSION[format]}`
}

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

/** An image by id whoever owns it (a signed URL's reader). */
export async function imageById(imageId: string): Promise<StoredImage | null> {
  const [row] = await db.select().from(schema.postImages).where(eq(schema.postImages.id, imageId)).limit(1)
  return row ?? null
}

/** The bytes of one of an image's files. */
export async function readImageFile(
  image: Pick<StoredImage, 'id' | 'storage'>,
  format: ImageFormat,
  opts: StorageOptions = {},
): Promise<Buffer> {
  if (image.storage === 's3') {
    const config = opts.s3 === undefined ? s3Config() : opts.s3
    if (!config) throw new Error(`image ${image.id} is in a bucket but S3_BUCKET is not set`)
    const { GetObjectCommand } = await s3Sdk()
    const out = await (
      await s3Client(config)
    ).send(new GetObjectCommand({ Bucket: config.bucket, Key: objectKey(image.id, format) }))
    if (!out.Body) throw new Error(`image ${image.id} has no ${format} file`)
    return Buffer.from(await out.Body.transformToByteArray())
  }
  const [row] = await db
    .select({ bytes: schema.imageFiles.bytes })
    .from(schema.imageFiles)
    .where(and(eq(schema.imageFiles.imageId, image.id), eq(schema.imageFiles.format, format)))
    .limit(1)
  if (!row) throw new Error(`image ${image.id} has no ${format} file`)
  return row.bytes
}

async function deleteObjects(config: S3Config, imageId: string) {
  const client = await s3Client(config)
  const { DeleteObjectCommand } = await s3Sdk()
  await Promise.all(
    (['webp', 'jpeg'] as const).map((format) =>
      client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: objectKey(imageId, format) })),
    ),
  )
}

/**
 * Stores an image: its row (a new id) and its two files, replacing whatever image held the same slot (post, role,
 * position). In Postgres, the row and the files are written in one transaction. In a bucket, the files are put
 * first under the new id (a reader never finds a row without its files), then the row is written in a transaction;
 * the replaced image's objects are deleted after the commit (an object left behind by a crash is unreferenced).
 */
export async function storeImage(
  values: NewImage,
  files: { webp: Buffer; jpeg: Buffer },
  opts: StorageOptions = {},
): Promise<StoredImage> {
  const s3 = opts.s3 === undefined ? s3Config() : opts.s3
  const id = crypto.randomUUID()
  const sha256 = crypto.createHash('sha256').update(files.jpeg).digest('hex')
  if (s3) {
    const client = await s3Client(s3)
    const { PutObjectCommand } = await s3Sdk()
    await Promise.all(
      (['webp', 'jpeg'] as const).map((format) =>
        client.send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: objectKey(id, format),
            Body: files[format],
            ContentType: IMAGE_MIME[format],
            CacheControl: 'private, max-age=31536000, immutable',
          }),
        ),
      ),
    )
  }
  const { stored, replaced } = await db.transaction(async (tx) => {
    const old = await tx
      .delete(schema.postImages)
      .where(
        and(
          eq(schema.postImages.postId, values.postId),
          eq(schema.postImages.role, values.role),
          eq(schema.postImages.position, values.position ?? 0),
        ),
      )
      .returning({ id: schema.postImages.id, storage: schema.postImages.storage })
    const [row] = await tx
      .insert(schema.postImages)
      .values({
        ...values,
        id,
        storage: s3 ? 's3' : 'postgres',
        webpBytes: files.webp.byteLength,
        jpegBytes: files.jpeg.byteLength,
        sha256,
      })
      .returning()
    if (!s3)
      await tx.insert(schema.imageFiles).values([
        { imageId: id, format: 'webp', bytes: files.webp },
        { imageId: id, format: 'jpeg', bytes: files.jpeg },
      ])
    return { stored: row!, replaced: old }
  })
  for (const old of replaced) if (old.storage === 's3' && s3) await deleteObjects(s3, old.id).catch(() => undefined)
  return stored
}

/** Removes one image (row and files). */
export async function deleteImage(image: Pick<StoredImage, 'id' | 'storage'>, opts: StorageOptions = {}) {
  await db.delete(schema.postImages).where(eq(schema.postImages.id, image.id))
  const s3 = opts.s3 === undefined ? s3Config() : opts.s3
  if (image.storage === 's3' && s3) await deleteObjects(s3, image.id).catch(() => undefined)
}

/** Updates an image's alt text (plain text, already checked by the caller). */
export async function setImageAlt(userId: string, imageId: string, alt: string) {
  const [row] = await db
    .update(schema.postImages)
    .set({ alt, updatedAt: new Date() })
    .where(and(eq(schema.postImages.id, imageId), eq(schema.postImages.userId, userId)))
    .returning()
  return row ?? null
}
