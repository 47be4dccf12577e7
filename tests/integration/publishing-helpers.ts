/**
 * Helpers for the publishing tests: finished posts written straight into the database (the content engine is
 * tested elsewhere), destinations created through the API, and the Ghost/Webflow fakes' control endpoints.
 */
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { db, schema } from '#app/platform/db/client.server'
import { api, waitFor, type TestUser } from '#tests/setup/app'

export async function makePost(
  user: TestUser,
  overrides: Partial<typeof schema.blogPosts.$inferInsert> = {},
): Promise<typeof schema.blogPosts.$inferSelect> {
  const tag = crypto.randomBytes(4).toString('hex')
  const [post] = await db
    .insert(schema.blogPosts)
    .values({
      userId: user.id,
      requestKey: `publish-test-${tag}`,
      keyword: `publishing test ${tag}`,
      status: 'completed',
      title: `How to publish everywhere ${tag}`,
      slug: `how-to-publish-everywhere-${tag}`,
      metaDescription:
        'A guide to publishing a post on every platform where a founder blog lives, with care and review.',
      contentMarkdown: `# How to publish everywhere ${tag}\n\n## Why it matters ${tag}\n\nPublishing is the last step.`,
      contentHtml: `<h1>How to publish everywhere ${tag}</h1>\n<h2>Why it matters ${tag}</h2><p>Publishing is the last step.</p>`,
      seoScore: 90,
      claims: [],
      completedAt: new Date(),
      ...overrides,
    })
    .returning()
  return post!
}

export async function ghostKey() {
  const res = await fetch(`${process.env.FAKE_GHOST_URL}/__control/key`)
  return ((await res.json()) as { adminApiKey: string }).adminApiKey
}

export async function ghostPosts() {
  const res = await fetch(`${process.env.FAKE_GHOST_URL}/__control/posts`)
  return ((await res.json()) as { posts: Array<Record<string, unknown> & { id: string; slug: string }> }).posts
}

export async function webflowConfig() {
  const res = await fetch(`${process.env.FAKE_WEBFLOW_URL}/__control/config`)
  return (await res.json()) as { token: string; siteId: string; collectionId: string }
}

export async function webflowItems() {
  const res = await fetch(`${process.env.FAKE_WEBFLOW_URL}/__control/items`)
  return ((await res.json()) as { items: Array<{ id: string; live: boolean; fieldData: Record<string, unknown> }> })
    .items
}

export async function addGhost(user: TestUser, extra: Record<string, unknown> = {}) {
  const res = await api('/api/destinations', {
    method: 'POST',
    as: user,
    json: { kind: 'ghost', adminUrl: process.env.FAKE_GHOST_URL, adminApiKey: await ghostKey(), ...extra },
  })
  if (res.status !== 201) throw new Error(`could not add Ghost: ${res.status} ${res.text}`)
  return (res.body.destination as { id: string }).id
}

export async function addWebflow(user: TestUser, extra: Record<string, unknown> = {}) {
  const cfg = await webflowConfig()
  const res = await api('/api/destinations', {
    method: 'POST',
    as: user,
    json: {
      kind: 'webflow',
      apiToken: cfg.token,
      siteId: cfg.siteId,
      collectionId: cfg.collectionId,
      titleField: 'name',
      slugField: 'slug',
      bodyField: 'post-body',
      summaryField: 'post-summary',
      ...extra,
    },
  })
  if (res.status !== 201) throw new Error(`could not add Webflow: ${res.status} ${res.text}`)
  return (res.body.destination as { id: string }).id
}

export async function publicationOf(postId: string, destinationId: string) {
  const rows = await db.select().from(schema.publications).where(eq(schema.publications.postId, postId))
  return rows.find((r) => r.destinationId === destinationId) ?? null
}

/** Waits until the publication settles in one of `statuses`. */
export async function waitForPublication(postId: string, destinationId: string, statuses: string[], timeout = 30_000) {
  return waitFor(
    async () => {
      const row = await publicationOf(postId, destinationId)
      return row && statuses.includes(row.status) ? row : null
    },
    { timeout, interval: 150 },
  )
}

/**
 * An image of a post written straight into post_images + image_files (the images feature makes them for real; these
 * tests need only the stored result): real WebP and JPEG bytes made with sharp, a gradient so that each is distinct.
 */
export async function addImage(
  post: { id: string; userId: string },
  opts: { role?: 'featured' | 'figure'; position?: number; alt?: string; credit?: Record<string, string> | null } = {},
) {
  const role = opts.role ?? 'featured'
  const [width, height] = role === 'featured' ? [1200, 630] : [800, 450]
  const seed = crypto.randomBytes(3)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#${seed.toString('hex')}"/><stop offset="1" stop-color="#203040"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`
  const base = sharp(Buffer.from(svg))
  const [webp, jpeg] = await Promise.all([
    base.clone().webp({ quality: 70 }).toBuffer(),
    base.clone().jpeg({ quality: 80 }).toBuffer(),
  ])
  const [image] = await db
    .insert(schema.postImages)
    .values({
      userId: post.userId,
      postId: post.id,
      role,
      position: opts.position ?? 0,
      source: opts.credit ? 'stock' : 'generated',
      alt: opts.alt ?? 'A founder reviewing a draft post on a laptop',
      prompt: 'test image',
      credit: opts.credit ?? null,
      width,
      height,
      storage: 'postgres',
      webpBytes: webp.length,
      jpegBytes: jpeg.length,
      sha256: crypto.createHash('sha256').update(jpeg).digest('hex'),
    })
    .returning()
  await db.insert(schema.imageFiles).values([
    { imageId: image!.id, format: 'webp', bytes: webp },
    { imageId: image!.id, format: 'jpeg', bytes: jpeg },
  ])
  return { ...image!, jpeg }
}

/** A figure as it appears in a post's sanitized HTML (the Markdown `![alt](/images/<id>.jpg)`). */
export const figureHtml = (image: { id: string; alt: string }) =>
  `<p><img src="/images/${image.id}.jpg" alt="${image.alt}"></p>`

export async function ghostImages() {
  const res = await fetch(`${process.env.FAKE_GHOST_URL}/__control/images`)
  return ((await res.json()) as { images: Array<{ url: string; ref: string | null; bytes: number }> }).images
}

export async function webflowAssets() {
  const res = await fetch(`${process.env.FAKE_WEBFLOW_URL}/__control/assets`)
  return (
    (await res.json()) as {
      assets: Array<{ id: string; hostedUrl: string; originalFileName: string; size: number; uploaded: boolean }>
    }
  ).assets
}
