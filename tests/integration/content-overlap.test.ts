import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { pickInternalLinks } from '#app/features/content/internal-links'
import { findOverlap, overlapMessage } from '#app/features/content/cannibalisation.server'
import { db, schema } from '#app/platform/db/client.server'
import { linkSimilarity } from '#app/features/content/embeddings.server'
import { fakeControl, webControl } from '#tests/fakes/client'
import { createTestUser } from '#tests/setup/app'

/** Embeddings (the OpenAI fake's /v1/embeddings) for internal links and the cannibalisation check. */
const siteUrl = () => process.env.FAKE_SITE_URL!.replace(/\/+$/, '')

describe('content overlap: the cannibalisation check', () => {
  it('finds the same keyword, a near-identical search and a sitemap page; leaves other searches alone', async () => {
    const t = crypto.randomBytes(3).toString('hex')
    const user = await createTestUser()
    await db.update(schema.users).set({ website: siteUrl() }).where(eq(schema.users.id, user.id))
    await db.delete(schema.sitemapCache) // cached per site and day: forget an earlier test's copy
    await webControl('site').sitemap(['/', '/pricing', `/blog/project-planning-templates-${t}`])
    const [post] = await db
      .insert(schema.blogPosts)
      .values({
        userId: user.id,
        requestKey: crypto.randomUUID(),
        keyword: `best crm software ${t}`,
        title: `The best CRM software ${t} for small teams`,
        status: 'completed',
      })
      .returning()
    const before = await fakeControl('openai').mark()

    const same = await findOverlap(user.id, `  Best CRM Software ${t} `)
    expect(same).toMatchObject({ kind: 'post', postId: post!.id, method: 'same-keyword' })
    expect(overlapMessage(same!)).toBe(
      `You already have "The best CRM software ${t} for small teams" for a very similar search: update it instead?`,
    )

    const near = await findOverlap(user.id, `crm software best ${t}`)
    expect(near).toMatchObject({ kind: 'post', postId: post!.id, method: 'embeddings' })
    expect(near!.similarity).toBeGreaterThanOrEqual(0.85)

    const page = await findOverlap(user.id, `project planning templates ${t}`)
    expect(page).toMatchObject({ kind: 'page', url: `${siteUrl()}/blog/project-planning-templates-${t}` })

    expect(await findOverlap(user.id, `dog food delivery ${t}`)).toBeNull()
    const calls = await fakeControl('openai').requests({ method: 'POST', path: '/embeddings', since: before })
    expect(calls.length).toBe(3)
    expect(calls[0]!.body).toMatchObject({ model: 'text-embedding-3-small', encoding_format: 'base64' })
  })
})

describe('content links: internal-link relevance from embeddings', () => {
  it('ranks own pages by embeddings, and falls back to term overlap when embeddings fail', async () => {
    const pages = [
      { url: 'https://shop.example/blog/email-newsletter-checklist', title: 'Email newsletter checklist' },
      { url: 'https://shop.example/pricing', title: 'Pricing' },
      { url: 'https://shop.example/blog/newsletter-subject-lines', title: 'Newsletter subject lines' },
    ]
    const topic = 'email newsletter tools'
    const viaEmbeddings = await linkSimilarity(topic, pages)
    expect(viaEmbeddings.method).toBe('embeddings')
    // Embeddings keep what is close enough (the fake's vectors: shared words), never the pricing page.
    const picked = pickInternalLinks(topic, pages, { similarity: viaEmbeddings.similarity })
    expect(picked.map((p) => p.title)).toEqual(['Email newsletter checklist'])

    await fakeControl('openai').enqueue({ status: 500, times: 2, bodyIncludes: 'Newsletter subject lines' })
    const viaTerms = await linkSimilarity(topic, pages)
    expect(viaTerms.method).toBe('terms')
    const fallback = pickInternalLinks(topic, pages, { similarity: viaTerms.similarity })
    expect(fallback.map((p) => p.title)).toEqual(['Email newsletter checklist', 'Newsletter subject lines'])
  })
})
