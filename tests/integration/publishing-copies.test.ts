import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { api, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import {
  addGhost,
  addWebflow,
  ghostPosts,
  makePost,
  publicationOf,
  waitForPublication,
  webflowItems,
} from './publishing-helpers'

/**
 * Copies kept in step (issue 33): deleting a post that is live asks what happens to each copy and does it through
 * the publication machinery; 'Update the live copy' after an edit; a copy deleted by hand on the site is 'missing'.
 * Over HTTP against the running app and worker, real Postgres, and the Ghost and Webflow fakes.
 */

const form = (values: Record<string, string>) => new URLSearchParams(values)

async function publishTo(user: TestUser, postId: string, targets: string[]) {
  const res = await api(`/api/blogpost/${postId}/publish`, {
    method: 'POST',
    as: user,
    json: { action: 'publish', targets },
  })
  expect(res.status).toBe(202)
  for (const target of targets)
    expect((await waitForPublication(postId, target, ['published', 'failed'])).status).toBe('published')
}

const postRow = async (id: string) => (await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, id)))[0]
const waitGone = (id: string) => waitFor(async () => !(await postRow(id)), { timeout: 30_000 })

describe('deleting a post that is live', () => {
  it('the API refuses without a choice per copy, then deletes one copy there, unpublishes the other, and deletes the post once both are down', async () => {
    const user = await createTestUser()
    const ghost = await addGhost(user)
    const webflow = await addWebflow(user)
    const post = await makePost(user)
    await publishTo(user, post.id, [ghost, webflow])

    const refused = await api(`/api/blogpost/${post.id}`, { method: 'DELETE', as: user })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('This post is live on your site. Choose what happens to each live copy.')
    const listed = refused.body.copies as Array<{ destination_id: string; kind: string; status: string }>
    expect(listed.map((c) => c.destination_id).sort()).toEqual([ghost, webflow].sort())
    expect(listed.every((c) => c.status === 'published')).toBe(true)
    // One choice is not enough, and a bad choice is a 400 naming the field.
    expect(
      (await api(`/api/blogpost/${post.id}`, { method: 'DELETE', as: user, json: { copies: { [ghost]: 'delete' } } }))
        .status,
    ).toBe(400)
    expect((await api(`/api/blogpost/${post.id}?copies=burn`, { method: 'DELETE', as: user })).status).toBe(400)
    expect(await postRow(post.id)).toBeDefined()
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)

    const res = await api(`/api/blogpost/${post.id}`, {
      method: 'DELETE',
      as: user,
      json: { copies: { [ghost]: 'delete', [webflow]: 'unpublish' } },
    })
    expect(res.status).toBe(202)
    expect(res.body.message).toBe('Taking the live copies down. The post is deleted once they are.')
    // Gone from every screen at once.
    expect((await api(`/api/blogpost/${post.id}`, { as: user })).status).toBe(404)
    expect((await api(`/blogpost/${post.id}`, { as: user, auth: 'cookie' })).status).toBe(404)
    const list = await api('/api/blogposts', { as: user })
    expect(JSON.stringify(list.body)).not.toContain(post.id)

    await waitGone(post.id)
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(0)
    const item = (await webflowItems()).find((i) => i.fieldData.slug === post.slug)
    expect(item).toMatchObject({ live: false })
  })

  it("'leave' deletes the post at once and leaves the copy live; a post without copies is deleted at once", async () => {
    const user = await createTestUser()
    const ghost = await addGhost(user)
    const post = await makePost(user)
    await publishTo(user, post.id, [ghost])
    const res = await api(`/api/blogpost/${post.id}?copies=leave`, { method: 'DELETE', as: user })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Blog post deleted.')
    expect(await postRow(post.id)).toBeUndefined()
    expect((await ghostPosts()).find((p) => p.slug === post.slug)).toMatchObject({ status: 'published' })

    const plain = await makePost(user)
    expect((await api(`/api/blogpost/${plain.id}`, { method: 'DELETE', as: user })).status).toBe(200)
    expect(await postRow(plain.id)).toBeUndefined()
  })

  it('without JavaScript: the confirmation page asks per copy, the form unpublishes it there, and the post goes', async () => {
    const user = await createTestUser()
    const ghost = await addGhost(user)
    const post = await makePost(user)
    await publishTo(user, post.id, [ghost])

    const confirm = await api(`/blogposts?delete=${post.id}`, { as: user, auth: 'cookie' })
    expect(confirm.text).toContain('data-testid="live-copies"')
    expect(confirm.text).toContain(`name="copy-${ghost}"`)
    for (const label of ['Unpublish it', 'Delete it there', 'Leave it']) expect(confirm.text).toContain(label)

    // A form without the choice deletes nothing and goes back to the confirmation.
    const without = await api('/blogposts', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: form({ intent: 'delete-post', postId: post.id, redirectTo: '/blogposts' }),
    })
    expect(without.status).toBe(302)
    expect(without.headers.get('location')).toBe(`/blogposts?delete=${post.id}`)
    expect(await postRow(post.id)).toBeDefined()

    const res = await api('/blogposts', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: form({ intent: 'delete-post', postId: post.id, redirectTo: '/blogposts', [`copy-${ghost}`]: 'unpublish' }),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/blogposts')
    await waitGone(post.id)
    expect((await ghostPosts()).find((p) => p.slug === post.slug)).toMatchObject({ status: 'draft' })
  })

  it('a copy that cannot come down keeps the post as being deleted, with Try again and Leave it there', async () => {
    const user = await createTestUser()
    const ghost = await addGhost(user)
    const post = await makePost(user)
    await publishTo(user, post.id, [ghost])
    // The destination is paused (its credentials stopped working): the unpublish cannot run.
    await db
      .update(schema.destinations)
      .set({ pausedAt: new Date(), pausedReason: 'test' })
      .where(eq(schema.destinations.id, ghost))
    const res = await api(`/api/blogpost/${post.id}?copies=delete`, { method: 'DELETE', as: user })
    expect(res.status).toBe(202)
    const failed = await waitForPublication(post.id, ghost, ['failed'])
    expect(failed.action).toBe('unpublish')
    await new Promise((r) => setTimeout(r, 500))
    expect((await postRow(post.id))!.deletingAt).not.toBeNull()
    const library = await api('/blogposts', { as: user, auth: 'cookie' })
    expect(library.text).toContain('data-testid="deleting-posts"')
    expect(library.text).toContain('Try again')
    expect(library.text).toContain('Leave it there and delete the post')

    // Resumed, 'Try again' takes it down and the post goes.
    await db
      .update(schema.destinations)
      .set({ pausedAt: null, pausedReason: null })
      .where(eq(schema.destinations.id, ghost))
    const retry = await api('/blogposts', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: form({ intent: 'retry-deletion', postId: post.id }),
    })
    expect(retry.status).toBe(302)
    await waitGone(post.id)
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(0)

    // 'Leave it there and delete the post' gives up on a copy that still cannot come down.
    const second = await makePost(user)
    await publishTo(user, second.id, [ghost])
    await db
      .update(schema.destinations)
      .set({ pausedAt: new Date(), pausedReason: 'test' })
      .where(eq(schema.destinations.id, ghost))
    await api(`/api/blogpost/${second.id}?copies=unpublish`, { method: 'DELETE', as: user })
    await waitForPublication(second.id, ghost, ['failed'])
    const leave = await api('/blogposts', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: form({ intent: 'abandon-deletion', postId: second.id }),
    })
    expect(leave.status).toBe(302)
    expect(await postRow(second.id)).toBeUndefined()
    expect((await ghostPosts()).find((p) => p.slug === second.slug)).toMatchObject({ status: 'published' })
  })
})

describe('the live copy after an edit', () => {
  it("offers 'Update the live copy' when the post differs from what was sent, and updates it without JavaScript", async () => {
    const user = await createTestUser()
    const ghost = await addGhost(user)
    const post = await makePost(user)
    await publishTo(user, post.id, [ghost])
    expect((await postRow(post.id))!.liveMarkdown).toBe(post.contentMarkdown)
    const before = await api(`/blogpost/${post.id}`, { as: user, auth: 'cookie' })
    expect(before.text).not.toContain('Update the live copy')

    const edited = `${post.contentMarkdown}\n\nA paragraph added <script>alert(1)</script> after publishing.`
    await db
      .update(schema.blogPosts)
      .set({ contentMarkdown: edited, contentHtml: `${post.contentHtml}<p>A paragraph added after publishing.</p>` })
      .where(eq(schema.blogPosts.id, post.id))
    for (const path of [`/blogpost/${post.id}`, `/blogpost/${post.id}/edit`, `/blogpost/${post.id}/publish`]) {
      const page = await api(path, { as: user, auth: 'cookie' })
      expect(page.text).toContain('Update the live copy')
    }
    // The diff on the publish page: the added words, as text.
    const publishPage = await api(`/blogpost/${post.id}/publish`, { as: user, auth: 'cookie' })
    expect(publishPage.text).toContain('data-testid="live-diff"')
    expect(publishPage.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(publishPage.text).not.toContain('<script>alert(1)')

    const res = await api(`/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: form({ intent: 'update-live' }),
    })
    expect(res.status).toBe(302)
    await waitFor(async () =>
      (await ghostPosts()).find((p) => p.slug === post.slug && String(p.html).includes('added after publishing')),
    )
    expect((await publicationOf(post.id, ghost))!.action).toBe('update')
    await waitFor(async () => (await postRow(post.id))!.liveMarkdown === edited)
    const after = await api(`/blogpost/${post.id}`, { as: user, auth: 'cookie' })
    expect(after.text).not.toContain('Update the live copy')
  })
})

describe('a copy deleted by hand on the site', () => {
  it('is shown as deleted on the site on update and on unpublish (Ghost, Webflow)', async () => {
    const user = await createTestUser()
    const ghost = await addGhost(user)
    const webflow = await addWebflow(user)
    const post = await makePost(user)
    await publishTo(user, post.id, [ghost, webflow])
    const ghostId = (await publicationOf(post.id, ghost))!.remoteId!
    const webflowId = (await publicationOf(post.id, webflow))!.remoteId!
    await fetch(`${process.env.FAKE_GHOST_URL}/__control/posts/${ghostId}/delete`, { method: 'POST' })
    await fetch(`${process.env.FAKE_WEBFLOW_URL}/__control/items/${webflowId}/delete`, { method: 'POST' })

    for (const target of [ghost, webflow]) {
      const un = await api(`/api/blogpost/${post.id}/publish`, {
        method: 'POST',
        as: user,
        json: { action: 'unpublish', target },
      })
      expect(un.status).toBe(202)
      const row = await waitForPublication(post.id, target, ['missing', 'unpublished', 'failed'])
      expect(row.status).toBe('missing')
      expect(row.lastError).toMatch(/deleted on/)
    }
    const page = await api(`/blogpost/${post.id}/publish`, { as: user, auth: 'cookie' })
    expect(page.text.match(/Deleted on the site/g)?.length).toBeGreaterThanOrEqual(2)

    // Webflow on update too (Ghost's update is covered in publishing.test.ts).
    const second = await makePost(user)
    await publishTo(user, second.id, [webflow])
    const itemId = (await publicationOf(second.id, webflow))!.remoteId!
    await fetch(`${process.env.FAKE_WEBFLOW_URL}/__control/items/${itemId}/delete`, { method: 'POST' })
    await api(`/api/blogpost/${second.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [webflow] },
    })
    expect((await waitForPublication(second.id, webflow, ['missing', 'failed', 'published'])).status).toBe('missing')
    expect((await webflowItems()).filter((i) => i.fieldData.slug === second.slug)).toHaveLength(0)
  })
})
