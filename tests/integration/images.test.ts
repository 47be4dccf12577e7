import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { signedImageUrl } from '#app/features/content/images/post-images.server'
import { TRAINED_ALGORITHMIC_MEDIA } from '#app/features/content/images/processing.server'
import { postImagesOf, readImageFile, storeImage, type S3Config } from '#app/features/content/images/storage.server'
import type { ChecklistItem } from '#app/features/content/seo-checklist'
import { fakeControl } from '#tests/fakes/client'
import { FAKE_S3 } from '#tests/fakes/s3'
import { appUrl, createTestUser } from '#tests/setup/app'
import { setUp, tag, writePost } from './content-helpers'

/** Issue 33: post images made by the pipeline (generated, stock, none), stored, served, changed in the editor. */
const FIGURE = /^!\[[^\]]+\]\(\/images\/([0-9a-f-]{36})\.jpg\)$/gm

async function useSource(userId: string, source: 'generated' | 'stock' | 'none') {
  await db.update(schema.contentSettings).set({ imageSource: source }).where(eq(schema.contentSettings.userId, userId))
}

async function get(path: string, cookie?: string) {
  const res = await fetch(`${appUrl()}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' })
  return { res, bytes: Buffer.from(await res.arrayBuffer()) }
}

const check = (items: unknown, id: string) => (items as ChecklistItem[]).find((i) => i.id === id)

describe('images in the pipeline', () => {
  it('generated: a featured image and figures with alt text, AI-made XMP, served to the owner and by signed URL only', async () => {
    const keyword = `how to set up email marketing workflow ${tag()}`
    const { user, keywordId } = await setUp(keyword)
    const post = await writePost(user, keywordId)
    const images = await postImagesOf(post.id)
    const featured = images.find((i) => i.role === 'featured')!
    expect(featured).toMatchObject({ source: 'generated', model: 'gpt-image-1', width: 1200, height: 630 })
    for (const image of images) {
      expect(image.alt.length).toBeGreaterThan(0)
      expect(image.alt.length).toBeLessThanOrEqual(125)
      expect(image.alt).not.toMatch(/^(image|picture|photo) of/i)
    }
    // Figures: in the body exactly as the rows say, each after a section's first paragraph.
    const inBody = [...post.contentMarkdown.matchAll(FIGURE)].map((m) => m[1])
    expect(inBody).toEqual(images.filter((i) => i.role === 'figure').map((i) => i.id))
    expect(inBody.length).toBeLessThanOrEqual(2)
    for (const id of inBody) expect(post.contentHtml).toContain(`<img src="/images/${id}.jpg"`)
    expect(check(post.seoChecklist, 'featured-image')?.passed).toBe(true)
    expect(check(post.seoChecklist, 'image-alt')?.passed).toBe(true)

    // Served: the owner gets both files with their type and a long private cache; the XMP says AI-made.
    for (const [ext, type] of [
      ['webp', 'image/webp'],
      ['jpg', 'image/jpeg'],
    ] as const) {
      const { res, bytes } = await get(`/images/${featured.id}.${ext}`, user.cookie)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(type)
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable')
      const meta = await sharp(bytes).metadata()
      expect(meta.xmp!.toString()).toContain(TRAINED_ALGORITHMIC_MEDIA)
      expect(meta.exif).toBeUndefined()
    }
    // Nobody else: another user, no session, a bad or expired signature, another shape of path.
    const other = await createTestUser()
    expect((await get(`/images/${featured.id}.jpg`, other.cookie)).res.status).toBe(404)
    expect((await get(`/images/${featured.id}.jpg`)).res.status).toBe(404)
    expect((await get(`/images/${featured.id}.png`, user.cookie)).res.status).toBe(404)
    const signed = new URL(signedImageUrl(featured, 'jpeg', 60))
    expect((await get(`${signed.pathname}${signed.search}`)).res.status).toBe(200)
    expect((await get(`${signed.pathname}${signed.search.replace(/sig=./, 'sig=A')}`)).res.status).toBe(404)
    const expired = new URL(signedImageUrl(featured, 'jpeg', -10))
    expect((await get(`${expired.pathname}${expired.search}`)).res.status).toBe(404)
    // The signature is for one file: the WebP of the same id needs its own.
    expect((await get(`/images/${featured.id}.webp${signed.search}`)).res.status).toBe(404)

    // The post page shows the featured image and the figures as <picture> with their size.
    const page = await fetch(`${appUrl()}/blogpost/${post.id}`, { headers: { Cookie: user.cookie } }).then((r) =>
      r.text(),
    )
    expect(page).toMatch(new RegExp(`<source srcSet="/images/${featured.id}\\.webp" type="image/webp"/>`, 'i'))
    expect(page).toContain(`alt="${featured.alt.replace(/"/g, '&quot;')}" width="1200" height="630"`)
    for (const id of inBody) expect(page).toContain(`<source srcset="/images/${id}.webp" type="image/webp">`)
  })

  it("stock: an Unsplash photo, credited, its download reported; 'none': no image and the checklist says so", async () => {
    const keyword = `newsletter design examples ${tag()}`
    const { user, keywordId } = await setUp(keyword)
    await useSource(user.id, 'stock')
    await fetch(`${process.env.FAKE_STOCK_URL}/__control/reset`, { method: 'POST', body: '{}' })
    const post = await writePost(user, keywordId)
    const featured = (await postImagesOf(post.id)).find((i) => i.role === 'featured')!
    expect(featured.source).toBe('stock')
    expect(featured.credit).toMatchObject({
      provider: 'unsplash',
      photoUrl: expect.stringContaining('utm_source=rankwell'),
    })
    const downloads = (await fetch(`${process.env.FAKE_STOCK_URL}/__control/downloads`).then((r) => r.json())) as {
      downloads: string[]
    }
    expect(downloads.downloads.length).toBeGreaterThanOrEqual(1)
    // The photographer's EXIF is gone; no AI marker on a photo.
    const jpeg = await readImageFile(featured, 'jpeg')
    const meta = await sharp(jpeg).metadata()
    expect(meta.exif).toBeUndefined()
    expect(meta.xmp!.toString()).not.toContain(TRAINED_ALGORITHMIC_MEDIA)

    const none = await setUp(`email list basics ${tag()}`)
    await useSource(none.user.id, 'none')
    const plain = await writePost(none.user, none.keywordId)
    expect(await postImagesOf(plain.id)).toEqual([])
    expect(check(plain.seoChecklist, 'featured-image')?.passed).toBe(false)
  })

  it('a misbehaving Images API (500, an HTML page, not an image) leaves the post complete without images, with a note', async () => {
    const openai = fakeControl('openai')
    for (const answer of [
      { status: 500 },
      { status: 200, body: '<html><body>Bad gateway</body></html>', headers: { 'content-type': 'text/html' } },
      {
        status: 200,
        body: { created: 1, data: [{ b64_json: Buffer.from('not an image at all').toString('base64') }] },
      },
    ]) {
      // Digits: the prompt quotes the title, whose case may differ from the keyword's.
      const t = String(crypto.randomInt(100_000_000, 999_999_999))
      const { user, keywordId } = await setUp(`email onboarding ${t}`)
      await openai.enqueue({ ...answer, path: 'images/generations', bodyIncludes: t, times: 10 })
      const post = await writePost(user, keywordId)
      expect(post.status).toBe('completed')
      expect(await postImagesOf(post.id)).toEqual([])
      const notes = (post.brief as { researchNotes: string[] }).researchNotes.join(' ')
      expect(notes).toMatch(/could not be made .*the post is complete without/)
      expect(post.contentMarkdown).not.toMatch(/\/images\//)
    }
  })
})

describe('image storage in an S3 bucket (the loopback fake, through the AWS SDK)', () => {
  it('puts, reads, replaces (deleting the old objects) with SigV4-signed requests', async () => {
    const s3: S3Config = {
      bucket: FAKE_S3.bucket,
      endpoint: process.env.FAKE_S3_URL!,
      region: FAKE_S3.region,
      accessKeyId: FAKE_S3.accessKeyId,
      secretAccessKey: FAKE_S3.secretAccessKey,
      forcePathStyle: true,
    }
    const user = await createTestUser()
    const [post] = await db
      .insert(schema.blogPosts)
      .values({ userId: user.id, requestKey: crypto.randomUUID(), keyword: 'bucket test', status: 'completed' })
      .returning()
    const files = { webp: Buffer.from('webp-bytes-1'), jpeg: Buffer.from('jpeg-bytes-1') }
    const values = {
      userId: user.id,
      postId: post!.id,
      role: 'featured' as const,
      position: 0,
      source: 'generated' as const,
      alt: 'A bucket',
      width: 1200,
      height: 630,
    }
    const first = await storeImage(values, files, { s3 })
    expect(first.storage).toBe('s3')
    expect(await readImageFile(first, 'webp', { s3 })).toEqual(files.webp)
    expect(await readImageFile(first, 'jpeg', { s3 })).toEqual(files.jpeg)
    const listed = async () =>
      (
        (await fetch(`${process.env.FAKE_S3_URL}/__control/objects`).then((r) => r.json())) as {
          objects: Array<{ key: string; type: string }>
        }
      ).objects
    expect(await listed()).toEqual(
      expect.arrayContaining([
        { key: `images/${first.id}.webp`, size: 12, type: 'image/webp' },
        { key: `images/${first.id}.jpg`, size: 12, type: 'image/jpeg' },
      ]),
    )
    const second = await storeImage(values, { webp: Buffer.from('webp-2'), jpeg: Buffer.from('jpeg-2') }, { s3 })
    const keys = (await listed()).map((o) => o.key)
    expect(keys).toContain(`images/${second.id}.jpg`)
    expect(keys).not.toContain(`images/${first.id}.jpg`)
    expect((await postImagesOf(post!.id)).map((i) => i.id)).toEqual([second.id])
    // A wrong key: S3's XML error reaches the SDK as an error.
    await expect(readImageFile(second, 'jpeg', { s3: { ...s3, accessKeyId: 'AKIAWRONG' } })).rejects.toThrow()
    await expect(readImageFile(first, 'jpeg', { s3 })).rejects.toThrow()
  })
})

describe("the editor's image forms", () => {
  it('alt text, replace (multipart upload, re-encoded, metadata stripped) and regenerate make new images in place', async () => {
    const { user, keywordId } = await setUp(`email automation steps ${tag()}`)
    const post = await writePost(user, keywordId)
    const featured = (await postImagesOf(post.id)).find((i) => i.role === 'featured')!
    const post_ = (body: FormData) =>
      fetch(`${appUrl()}/blogpost/${post.id}/images`, {
        method: 'POST',
        body,
        headers: { Cookie: user.cookie, Origin: appUrl() },
        redirect: 'manual',
      })
    const alt = new FormData()
    alt.set('intent', 'alt')
    alt.set('imageId', featured.id)
    alt.set('alt', 'Two people <b>planning</b> an email sequence')
    expect((await post_(alt)).status).toBe(302)
    expect((await postImagesOf(post.id)).find((i) => i.role === 'featured')!.alt).toBe(
      'Two people planning an email sequence',
    )

    const upload = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3366aa' } })
      .withExif({ IFD0: { Copyright: 'Me' } })
      .jpeg()
      .toBuffer()
    const replace = new FormData()
    replace.set('intent', 'replace')
    replace.set('imageId', featured.id)
    replace.set('file', new Blob([upload], { type: 'image/jpeg' }), 'mine.jpg')
    expect((await post_(replace)).status).toBe(302)
    const replaced = (await postImagesOf(post.id)).find((i) => i.role === 'featured')!
    expect(replaced.id).not.toBe(featured.id)
    expect(replaced.alt).toBe('Two people planning an email sequence')
    const meta = await sharp(await readImageFile(replaced, 'jpeg')).metadata()
    expect([meta.width, meta.height, meta.exif]).toEqual([1200, 630, undefined])

    const bad = new FormData()
    bad.set('intent', 'replace')
    bad.set('imageId', replaced.id)
    bad.set('file', new Blob(['<svg onload=alert(1)>'], { type: 'image/jpeg' }), 'x.jpg')
    await post_(bad)
    expect((await postImagesOf(post.id)).find((i) => i.role === 'featured')!.id).toBe(replaced.id)

    const regen = new FormData()
    regen.set('intent', 'regenerate')
    regen.set('role', 'featured')
    regen.set('position', '0')
    expect((await post_(regen)).status).toBe(302)
    const fresh = (await postImagesOf(post.id)).find((i) => i.role === 'featured')!
    expect(fresh.id).not.toBe(replaced.id)
    expect(fresh.source).toBe('generated')
    const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
    expect(check(row!.seoChecklist, 'featured-image')?.passed).toBe(true)
  })
})
