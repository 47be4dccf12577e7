import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { webhookSecretOf } from '#app/features/autopilot/settings/settings.server'
import { api, createTestUser, type TestUser } from '#tests/setup/app'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import {
  addGhost,
  addImage,
  addWebflow,
  figureHtml,
  ghostImages,
  ghostPosts,
  makePost,
  waitForPublication,
  webflowAssets,
  webflowItems,
} from './publishing-helpers'

/**
 * Issue 33: a post's images reach each destination's media library exactly once, with their alt text, as the
 * featured image and in the body; a second publish uploads nothing; a retry after a crash between an upload and
 * its record adopts the upload instead of making a second one. Ghost and Webflow are the loopback fakes (real
 * WordPress: publishing-wordpress.test.ts).
 */

async function publish(user: TestUser, postId: string, targets: string[]) {
  const res = await api(`/api/blogpost/${postId}/publish`, {
    method: 'POST',
    as: user,
    json: { action: 'publish', targets },
  })
  expect(res.status).toBe(202)
}

/** Publishes again (the request bumps the revision before it answers) and waits for it to settle. */
async function republish(user: TestUser, postId: string, destination: string) {
  await publish(user, postId, [destination])
  return waitForPublication(postId, destination, ['published', 'failed'])
}

async function remoteMediaOf(destination: string) {
  return db.select().from(schema.remoteMedia).where(eq(schema.remoteMedia.destinationId, destination))
}

async function postWithImages(user: TestUser) {
  const post = await makePost(user)
  const featured = await addImage(post, {
    role: 'featured',
    alt: 'A <b>founder</b> & her laptop',
    credit: {
      provider: 'unsplash',
      photographer: 'Ada Lovelace',
      photographerUrl: 'https://unsplash.com/@ada',
      photoUrl: 'https://unsplash.com/photos/x',
    },
  })
  const figure = await addImage(post, { role: 'figure', position: 0, alt: 'A checklist on a whiteboard' })
  await db
    .update(schema.blogPosts)
    .set({ contentHtml: `${post.contentHtml}\n${figureHtml(figure)}\n<p>After the figure.</p>` })
    .where(eq(schema.blogPosts.id, post.id))
  return { post, featured, figure }
}

describe('images on Ghost (fake)', () => {
  it('uploads the featured image and the figure once, sets feature_image with its alt, and adopts after a crash', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const { post, featured, figure } = await postWithImages(user)
    const imagesBefore = (await ghostImages()).length

    await publish(user, post.id, [destination])
    const row = await waitForPublication(post.id, destination, ['published', 'failed'])
    expect(row.lastError).toBeNull()
    const remote = (await ghostPosts()).find((p) => p.id === row.remoteId)!
    const media = await remoteMediaOf(destination)
    expect(media).toHaveLength(2)
    const featuredUrl = media.find((m) => m.imageId === featured.id)!.remoteUrl
    const figureUrl = media.find((m) => m.imageId === figure.id)!.remoteUrl
    expect(remote.feature_image).toBe(featuredUrl)
    expect(remote.feature_image_alt).toBe('A founder & her laptop')
    expect(remote.feature_image_caption).toBe('Photo by Ada Lovelace on Unsplash')
    expect(String(remote.html)).toContain(`src="${figureUrl}"`)
    expect(String(remote.html)).not.toContain('src="/images/')
    // What Ghost serves at that URL is the JPEG we stored.
    const served = await fetch(featuredUrl)
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer()).equals(featured.jpeg)).toBe(true)
    expect((await ghostImages()).length).toBe(imagesBefore + 2)

    // An update uploads nothing new.
    const updated = await republish(user, post.id, destination)
    expect(updated.status).toBe('published')
    expect((await ghostImages()).length).toBe(imagesBefore + 2)

    // A worker that died between the upload and its record: the retry finds the file at its URL and adopts it.
    await db.delete(schema.remoteMedia).where(eq(schema.remoteMedia.destinationId, destination))
    const retried = await republish(user, post.id, destination)
    expect(retried.status).toBe('published')
    expect((await ghostImages()).length).toBe(imagesBefore + 2)
    const adopted = await remoteMediaOf(destination)
    expect(adopted.map((m) => m.remoteUrl).sort()).toEqual([featuredUrl, figureUrl].sort())
  })
})

describe('images on Webflow (fake)', () => {
  it('refuses an image field that is not an Image field', async () => {
    const user = await createTestUser()
    await expect(addWebflow(user, { imageField: 'post-summary' })).rejects.toThrow(
      /The image field \\?"post-summary\\?" is a PlainText field; choose an Image field\./,
    )
  })

  it('uploads each asset once (S3-style), fills the mapped Image field, and adopts by file name after a crash', async () => {
    const user = await createTestUser()
    const destination = await addWebflow(user, { imageField: 'main-image' })
    const { post, featured, figure } = await postWithImages(user)
    const assetsBefore = (await webflowAssets()).filter((a) => a.uploaded).length

    await publish(user, post.id, [destination])
    const row = await waitForPublication(post.id, destination, ['published', 'failed'])
    expect(row.lastError).toBeNull()
    const media = await remoteMediaOf(destination)
    expect(media).toHaveLength(2)
    const item = (await webflowItems()).find((i) => i.id === row.remoteId)!
    const featuredMedia = media.find((m) => m.imageId === featured.id)!
    const figureMedia = media.find((m) => m.imageId === figure.id)!
    expect(item.fieldData['main-image']).toEqual({
      fileId: featuredMedia.remoteId,
      url: featuredMedia.remoteUrl,
      alt: 'A founder & her laptop',
    })
    expect(String(item.fieldData['post-body'])).toContain(`src="${figureMedia.remoteUrl}"`)
    const served = await fetch(featuredMedia.remoteUrl)
    expect(Buffer.from(await served.arrayBuffer()).equals(featured.jpeg)).toBe(true)
    const assets = (await webflowAssets()).filter((a) => a.uploaded)
    expect(assets.length).toBe(assetsBefore + 2)
    expect(assets.map((a) => a.originalFileName)).toEqual(
      expect.arrayContaining([`rankwell-${featured.id}.jpg`, `rankwell-${figure.id}.jpg`]),
    )

    const updated = await republish(user, post.id, destination)
    expect(updated.status).toBe('published')
    expect((await webflowAssets()).length).toBe(assets.length)

    await db.delete(schema.remoteMedia).where(eq(schema.remoteMedia.destinationId, destination))
    const retried = await republish(user, post.id, destination)
    expect(retried.status).toBe('published')
    expect((await webflowAssets()).length).toBe(assets.length)
    expect((await remoteMediaOf(destination)).map((m) => m.remoteId).sort()).toEqual(
      [featuredMedia.remoteId, figureMedia.remoteId].sort(),
    )
  })
})

describe('images in the webhook', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => receiver.close())

  it('post.published carries featured_image (url, alt, size, credit) and every image', async () => {
    const user = await createTestUser()
    await api('/api/autopilot/integrations/webhook', {
      method: 'POST',
      as: user,
      json: { webhookUrl: receiver.url(`/hooks/${user.id}`) },
    })
    const [settings] = await db
      .select()
      .from(schema.autopilotSettings)
      .where(eq(schema.autopilotSettings.userId, user.id))
    const { post, featured, figure } = await postWithImages(user)
    await publish(user, post.id, ['webhook'])
    const [got] = await receiver.waitForRequests(`/hooks/${user.id}`, 1)
    const event = new Webhook(webhookSecretOf(settings!)!).verify(got!.body, got!.headers) as {
      data: { post: { featured_image: Record<string, unknown>; images: Array<Record<string, unknown>> } }
    }
    expect(event.data.post.featured_image).toMatchObject({
      alt: 'A founder & her laptop',
      width: 1200,
      height: 630,
      credit: 'Photo by Ada Lovelace on Unsplash',
    })
    expect(String(event.data.post.featured_image.url)).toContain(featured.id)
    // A signed link: the receiver fetches the JPEG without a session.
    const image = await fetch(String(event.data.post.featured_image.url))
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/jpeg')
    expect(event.data.post.images.map((i) => [i.id, i.role])).toEqual([
      [featured.id, 'featured'],
      [figure.id, 'figure'],
    ])
  })
})
