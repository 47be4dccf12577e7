import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { WORDPRESS_NO_STRUCTURED_DATA } from '#app/features/publishing/wordpress.server'
import { api, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import { startWordPress, wordpressUnavailable, type WordPressSite } from '#tests/setup/wordpress'
import { addImage, figureHtml, makePost, publicationOf, waitForPublication } from './publishing-helpers'

/**
 * Publishing to a real WordPress (Debian's package, run on loopback by tests/setup/wordpress.ts), read back through
 * WordPress's own REST API. `npm test` installs the packages on Debian as root; `npm test -- --skip-wordpress`
 * (or a machine where they cannot be installed) leaves this suite out and says so.
 */
const unavailable = process.env.RANKWELL_SKIP_WORDPRESS ? 'skipped with --skip-wordpress' : wordpressUnavailable()
if (unavailable) console.warn(`[publishing-wordpress] real WordPress tests not run: ${unavailable}`)

describe.runIf(!unavailable)('publishing to a real WordPress', () => {
  let wp: WordPressSite
  let user: TestUser
  let destination: string

  beforeAll(async () => {
    wp = await startWordPress()
    user = await createTestUser()
  }, 180_000)
  afterAll(async () => wp?.stop())

  const adminAuth = () => `Basic ${Buffer.from(`admin:${wp.admin.appPassword}`).toString('base64')}`
  /** What the public (no credentials) sees of a post. */
  const publicRead = (id: string) => fetch(`${wp.url}/wp-json/wp/v2/posts/${id}`)
  const adminRead = async (id: string) =>
    (await (
      await fetch(`${wp.url}/wp-json/wp/v2/posts/${id}?context=edit`, { headers: { Authorization: adminAuth() } })
    ).json()) as {
      status: string
      slug: string
      title: { raw: string }
      content: { raw: string }
      excerpt: { raw: string }
      categories: number[]
      tags: number[]
    }

  /** A post whose title, description, slug and JSON-LD come from a hostile model or search result. */
  async function hostilePost(owner: TestUser) {
    const tag = crypto.randomBytes(4).toString('hex')
    const jsonLd = [
      {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: `Pay ${tag} </script><script>alert(1)</script>`,
      },
      {
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        mainEntity: [{ '@type': 'Question', name: 'A & B <3?' }],
      },
    ]
    const post = await makePost(owner, {
      title: `<script>alert(1)</script>Pay <b>on time</b> &amp; often ${tag} <img src=x onerror=alert(2)>`,
      metaDescription:
        'Get paid <a href="https://evil.example">now</a> &lt;img src=x onerror=alert(3)&gt;, every time.',
      slug: `Pay <b>On</b> Time: Été ${tag}!`,
      jsonLd,
    })
    return { post, jsonLd, title: `Pay on time & often ${tag}`, slug: `pay-on-time-ete-${tag}` }
  }

  /** The JSON of each `<script type="application/ld+json">` in some HTML. */
  const scriptsIn = (html: string) =>
    [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))

  async function publishAs(owner: TestUser, postId: string, target: string) {
    const res = await api(`/api/blogpost/${postId}/publish`, {
      method: 'POST',
      as: owner,
      json: { action: 'publish', targets: [target] },
    })
    expect(res.status).toBe(202)
    const row = await waitForPublication(postId, target, ['published', 'failed'], 45_000)
    expect(row.lastError).toBeNull()
    return row
  }

  async function save(json: Record<string, unknown>) {
    return api('/api/destinations', {
      method: 'POST',
      as: user,
      json: { kind: 'wordpress', siteUrl: wp.url, username: 'admin', appPassword: wp.admin.appPassword, ...json },
    })
  }

  it('tests the connection and explains what is wrong', async () => {
    const wrong = await save({ appPassword: 'abcd efgh ijkl mnop qrst uvwx' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe('WordPress refused the user name or Application Password.')
    const reader = await save({ username: 'reader', appPassword: wp.subscriber.appPassword })
    expect(reader.body.message).toBe(
      'The WordPress user reader may not publish posts (it needs the Author role or higher).',
    )
    const notWordPress = await save({ siteUrl: process.env.FAKE_WEBFLOW_URL })
    expect(notWordPress.body.message).toMatch(/does not look like a WordPress site/)
    const down = await save({ siteUrl: 'http://127.0.0.1:9' })
    expect(down.body.message).toMatch(/refused the connection/)
    expect(await db.select().from(schema.destinations).where(eq(schema.destinations.userId, user.id))).toHaveLength(0)

    const ok = await save({ categories: 'Growth, SEO', tags: 'founders', name: 'Company blog' })
    expect(ok.status).toBe(201)
    expect(ok.body.message).toMatch(/Connected to Rankwell Test Blog as admin/)
    destination = (ok.body.destination as { id: string }).id
  })

  it('publishes with categories and tags, updates the same post, reverts it to draft, and re-creates it after a deletion only when confirmed', async () => {
    const post = await makePost(user)
    const res = await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [destination] },
    })
    expect(res.status).toBe(202)
    const row = await waitForPublication(post.id, destination, ['published', 'failed'], 45_000)
    expect(row.lastError).toBeNull()
    expect(row.status).toBe('published')
    const remote = await adminRead(row.remoteId!)
    expect(remote).toMatchObject({ status: 'publish', slug: post.slug })
    expect(remote.title.raw).toBe(post.title)
    expect(remote.content.raw).toContain('Publishing is the last step.')
    // One title: in WordPress's title field, not again as an H1 of the body.
    expect(remote.content.raw).not.toContain('<h1')
    expect(remote.excerpt.raw).toBe(post.metaDescription)
    expect(remote.categories).toHaveLength(2)
    expect(remote.tags).toHaveLength(1)
    expect((await publicRead(row.remoteId!)).status).toBe(200)
    expect(row.remoteUrl).toBe(`${wp.url}/${post.slug}/`)

    // Update on WordPress: the same post changes.
    await db
      .update(schema.blogPosts)
      .set({ contentHtml: '<p>Edited after review.</p>' })
      .where(eq(schema.blogPosts.id, post.id))
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [destination] },
    })
    await waitForPublication(post.id, destination, ['published'])
    const after = await (async () => {
      for (let i = 0; i < 100; i++) {
        const r = await adminRead(row.remoteId!)
        if (r.content.raw.includes('Edited')) return r
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      return adminRead(row.remoteId!)
    })()
    expect(after.content.raw).toContain('Edited after review.')
    const all = (await (
      await fetch(`${wp.url}/wp-json/wp/v2/posts?search=${encodeURIComponent(post.title)}&status=any&context=edit`, {
        headers: { Authorization: adminAuth() },
      })
    ).json()) as unknown[]
    expect(all).toHaveLength(1)

    // Unpublish: back to a draft, invisible to the public.
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'unpublish', target: destination },
    })
    await waitForPublication(post.id, destination, ['unpublished'])
    expect((await adminRead(row.remoteId!)).status).toBe('draft')
    expect((await publicRead(row.remoteId!)).status).toBeGreaterThanOrEqual(400)

    // Deleted by hand on WordPress: the next update says so; only a confirmed request re-creates it.
    await fetch(`${wp.url}/wp-json/wp/v2/posts/${row.remoteId}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: adminAuth() },
    })
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [destination] },
    })
    const missing = await waitForPublication(post.id, destination, ['missing', 'failed'])
    expect(missing.status).toBe('missing')
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [destination], confirmRecreate: true },
    })
    const recreated = await waitForPublication(post.id, destination, ['published'])
    expect(recreated.remoteId).not.toBe(row.remoteId)
    expect((await adminRead(recreated.remoteId!)).status).toBe('publish')
    expect((await publicationOf(post.id, destination))!.lastError).toBeNull()
  })

  it('says a copy trashed or deleted by hand is deleted on the site, on update and on unpublish, and deletes the copy there when the post is deleted', async () => {
    const publishNow = async (postId: string, extra: Record<string, unknown> = {}) =>
      api(`/api/blogpost/${postId}/publish`, {
        method: 'POST',
        as: user,
        json: { action: 'publish', targets: [destination], ...extra },
      })
    const post = await makePost(user)
    await publishNow(post.id)
    const first = await waitForPublication(post.id, destination, ['published', 'failed'], 45_000)
    expect(first.status).toBe('published')
    // Moved to the trash by hand (DELETE without force): an update says so and does not take it out of the trash.
    await fetch(`${wp.url}/wp-json/wp/v2/posts/${first.remoteId}`, {
      method: 'DELETE',
      headers: { Authorization: adminAuth() },
    })
    await publishNow(post.id)
    expect((await waitForPublication(post.id, destination, ['missing', 'failed', 'published'])).status).toBe('missing')
    expect((await adminRead(first.remoteId!)).status).toBe('trash')

    // Re-created, then trashed again: an unpublish says so too, and leaves it in the trash.
    await publishNow(post.id, { confirmRecreate: true })
    const second = await waitForPublication(post.id, destination, ['published', 'failed'], 45_000)
    expect(second.status).toBe('published')
    await fetch(`${wp.url}/wp-json/wp/v2/posts/${second.remoteId}`, {
      method: 'DELETE',
      headers: { Authorization: adminAuth() },
    })
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'unpublish', target: destination },
    })
    const missing = await waitForPublication(post.id, destination, ['missing', 'unpublished', 'failed'])
    expect(missing.status).toBe('missing')
    expect(missing.lastError).toMatch(/deleted on/)
    expect((await adminRead(second.remoteId!)).status).toBe('trash')

    // Deleting a live post with 'Delete it there' deletes the WordPress copy, then the post.
    const live = await makePost(user)
    await publishNow(live.id)
    const row = await waitForPublication(live.id, destination, ['published', 'failed'], 45_000)
    expect(row.status).toBe('published')
    const res = await api(`/api/blogpost/${live.id}`, {
      method: 'DELETE',
      as: user,
      json: { copies: { [destination]: 'delete' } },
    })
    expect(res.status).toBe(202)
    await waitFor(
      async () => (await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, live.id))).length === 0,
      { timeout: 45_000 },
    )
    const gone = await fetch(`${wp.url}/wp-json/wp/v2/posts/${row.remoteId}?context=edit`, {
      headers: { Authorization: adminAuth() },
    })
    expect(gone.status).toBe(404)
  })

  it("structured data: an administrator's posts carry it in a Custom HTML block (raw and rendered), fields as plain text", async () => {
    const owner = await createTestUser()
    const saved = await api('/api/destinations', {
      method: 'POST',
      as: owner,
      json: {
        kind: 'wordpress',
        siteUrl: wp.url,
        username: 'admin',
        appPassword: wp.admin.appPassword,
        categories: '<b>Growth</b>, <script>x</script>',
        tags: 'Tom &amp; Jerry, <i>founders</i>',
      },
    })
    expect(saved.status).toBe(201)
    expect(saved.body.message).toBe('Connected to Rankwell Test Blog as admin.')
    const id = (saved.body.destination as { id: string }).id
    const [row] = await db.select().from(schema.destinations).where(eq(schema.destinations.id, id))
    expect(row!.config).toMatchObject({
      unfilteredHtml: true,
      categories: ['Growth'],
      tags: ['Tom & Jerry', 'founders'],
    })

    const { post, jsonLd, title, slug } = await hostilePost(owner)
    const published = await publishAs(owner, post.id, id)
    const remote = await adminRead(published.remoteId!)
    expect(remote.title.raw).toBe(title)
    expect(remote.slug).toBe(slug)
    expect(remote.excerpt.raw).toBe('Get paid now , every time.')
    expect(remote.content.raw).toContain('<!-- wp:html -->\n<script type="application/ld+json">')
    expect(scriptsIn(remote.content.raw)).toEqual(jsonLd)
    expect(remote.content.raw).not.toContain('<h1')
    // What a visitor's page gets: the scripts, rendered by WordPress, still parse to the post's JSON-LD.
    const rendered = (await (await publicRead(published.remoteId!)).json()) as {
      title: { rendered: string }
      content: { rendered: string }
    }
    expect(scriptsIn(rendered.content.rendered)).toEqual(jsonLd)
    expect(rendered.content.rendered).toContain('Publishing is the last step.')
    expect(rendered.title.rendered).not.toMatch(/<(?:script|img|b)\b/)
    const terms = async (taxonomy: string, ids: number[]) =>
      (
        (await (
          await fetch(`${wp.url}/wp-json/wp/v2/${taxonomy}?include=${ids.join(',')}&context=edit`, {
            headers: { Authorization: adminAuth() },
          })
        ).json()) as Array<{ name: string }>
      )
        .map((t) => t.name.replace(/&amp;/g, '&')) // WordPress stores a term's & as &amp;
        .sort()
    expect(await terms('categories', remote.categories)).toEqual(['Growth'])
    expect(await terms('tags', remote.tags)).toEqual(['Tom & Jerry', 'founders'])
  })

  it('structured data: an Author account is told it cannot carry it, and gets no script WordPress would strip', async () => {
    // What WordPress does with a script from a user without unfiltered_html: the tags go, the JSON stays as text.
    const authorAuth = `Basic ${Buffer.from(`writer:${wp.author.appPassword}`).toString('base64')}`
    const probe = (await (
      await fetch(`${wp.url}/wp-json/wp/v2/posts?context=edit`, {
        method: 'POST',
        headers: { Authorization: authorAuth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: 'probe',
          status: 'draft',
          content:
            '<!-- wp:html -->\n<script type="application/ld+json">{"@type":"Article"}</script>\n<!-- /wp:html -->',
        }),
      })
    ).json()) as { id: number; content: { raw: string } }
    expect(probe.content.raw).not.toContain('<script')
    expect(probe.content.raw).toContain('{"@type":"Article"}')
    await fetch(`${wp.url}/wp-json/wp/v2/posts/${probe.id}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: adminAuth() },
    })

    const owner = await createTestUser()
    const saved = await api('/api/destinations', {
      method: 'POST',
      as: owner,
      json: { kind: 'wordpress', siteUrl: wp.url, username: 'writer', appPassword: wp.author.appPassword },
    })
    expect(saved.status).toBe(201)
    expect(saved.body.message).toBe(`Connected to Rankwell Test Blog as writer. ${WORDPRESS_NO_STRUCTURED_DATA}`)
    expect(saved.body.message).not.toMatch(/unfiltered_html|capabilit/i)
    const id = (saved.body.destination as { id: string }).id
    const [row] = await db.select().from(schema.destinations).where(eq(schema.destinations.id, id))
    expect(row!.config).toMatchObject({ unfilteredHtml: false })

    const { post, title, slug } = await hostilePost(owner)
    const published = await publishAs(owner, post.id, id)
    const remote = await adminRead(published.remoteId!)
    expect(remote).toMatchObject({ status: 'publish', slug })
    // WordPress filters an Author's title itself (kses: & stored as &amp;); what we sent was the plain title.
    expect(remote.title.raw.replace(/&amp;/g, '&')).toBe(title)
    expect(remote.content.raw).toContain('Publishing is the last step.')
    expect(remote.content.raw).not.toMatch(/wp:html|ld\+json|@type|schema\.org/)
    const rendered = (await (await publicRead(published.remoteId!)).json()) as { content: { rendered: string } }
    expect(rendered.content.rendered).not.toMatch(/ld\+json|@type/)
  })

  it('uploads the featured image and a figure to the media library once, with alt text; a retry after a crash adopts the upload', async () => {
    const saved = await save({ name: 'Media blog' })
    expect(saved.status).toBe(201)
    const dest = (saved.body.destination as { id: string }).id
    const post = await makePost(user)
    const featured = await addImage(post, { role: 'featured', alt: 'A <i>founder</i> at her desk' })
    const figure = await addImage(post, { role: 'figure', alt: 'A checklist on a whiteboard' })
    await db
      .update(schema.blogPosts)
      .set({ contentHtml: `${post.contentHtml}\n${figureHtml(figure)}` })
      .where(eq(schema.blogPosts.id, post.id))
    type WpMedia = {
      id: number
      slug: string
      alt_text: string
      source_url: string
      mime_type: string
      media_details: { width: number; height: number; filesize?: number }
    }
    const mediaBySlug = async (slug: string) =>
      (await (
        await fetch(`${wp.url}/wp-json/wp/v2/media?slug=${slug}&context=edit`, {
          headers: { Authorization: adminAuth() },
        })
      ).json()) as WpMedia[]
    const publishOnce = async () => {
      await api(`/api/blogpost/${post.id}/publish`, {
        method: 'POST',
        as: user,
        json: { action: 'publish', targets: [dest] },
      })
      return waitForPublication(post.id, dest, ['published', 'failed'], 45_000)
    }

    const row = await publishOnce()
    expect(row.lastError).toBeNull()
    const [featuredMedia] = await mediaBySlug(`rankwell-${featured.id}`)
    const [figureMedia] = await mediaBySlug(`rankwell-${figure.id}`)
    // The slug WordPress gives the upload is the one Rankwell asked for (what a retry looks it up by).
    expect(featuredMedia).toMatchObject({
      slug: `rankwell-${featured.id}`,
      alt_text: 'A founder at her desk',
      mime_type: 'image/jpeg',
    })
    expect(figureMedia!.alt_text).toBe('A checklist on a whiteboard')
    expect(featuredMedia!.media_details).toMatchObject({ width: 1200, height: 630, filesize: featured.jpeg.length })
    const remote = (await (
      await fetch(`${wp.url}/wp-json/wp/v2/posts/${row.remoteId}?context=edit`, {
        headers: { Authorization: adminAuth() },
      })
    ).json()) as { featured_media: number; content: { raw: string } }
    expect(remote.featured_media).toBe(featuredMedia!.id)
    expect(remote.content.raw).toContain(`src="${figureMedia!.source_url}"`)
    expect(remote.content.raw).not.toContain('src="/images/')
    const served = await fetch(featuredMedia!.source_url)
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer()).equals(featured.jpeg)).toBe(true)
    const recorded = await db.select().from(schema.remoteMedia).where(eq(schema.remoteMedia.destinationId, dest))
    expect(recorded.map((m) => m.remoteId).sort()).toEqual([String(featuredMedia!.id), String(figureMedia!.id)].sort())

    const allMedia = async () =>
      (
        (await (
          await fetch(`${wp.url}/wp-json/wp/v2/media?per_page=100&context=edit`, {
            headers: { Authorization: adminAuth() },
          })
        ).json()) as WpMedia[]
      ).filter((m) => m.slug.startsWith('rankwell-'))
    const countBefore = (await allMedia()).length

    // An update uploads nothing new.
    expect((await publishOnce()).status).toBe('published')
    expect((await allMedia()).length).toBe(countBefore)

    // A worker killed between the upload and its record: the retry adopts the upload by its slug.
    await db.delete(schema.remoteMedia).where(eq(schema.remoteMedia.destinationId, dest))
    expect((await publishOnce()).status).toBe('published')
    expect(await mediaBySlug(`rankwell-${featured.id}`)).toHaveLength(1)
    expect(await mediaBySlug(`rankwell-${figure.id}`)).toHaveLength(1)
    expect((await allMedia()).length).toBe(countBefore)
    const adopted = await db.select().from(schema.remoteMedia).where(eq(schema.remoteMedia.destinationId, dest))
    expect(adopted.map((m) => m.remoteId).sort()).toEqual(recorded.map((m) => m.remoteId).sort())
  })
})
