/** Helpers of the content tests: a user with a site, settings, a sitemap and an older post; posts written by the worker. */
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { webControl } from '#tests/fakes/client'
import { api, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import { addKeyword } from '#tests/setup/records'

export const siteUrl = () => process.env.FAKE_SITE_URL!.replace(/\/+$/, '')
export const tag = () => `zc${crypto.randomBytes(4).toString('hex')}`
export const CTA = { text: 'Start your free trial', path: '/signup' }

export async function setUp(keyword: string) {
  const user = await createTestUser()
  await db.update(schema.users).set({ website: siteUrl() }).where(eq(schema.users.id, user.id))
  await db.insert(schema.contentSettings).values({
    userId: user.id,
    valueProposition: 'Send better newsletters in half the time',
    ctaText: CTA.text,
    ctaUrl: `${siteUrl()}${CTA.path}`,
    tone: 'direct',
  })
  const slug = keyword.split(' ').slice(0, 2).join('-')
  // The sitemap is cached per site and day: forget what an earlier test of this run cached for the fake site.
  await db.delete(schema.sitemapCache)
  await webControl('site').sitemap(['/', '/pricing', `/blog/${slug}-checklist`, `/blog/${slug}-mistakes`, '/about'])
  // An older post of the user, published on their site, about a related search.
  const publishedUrl = `${siteUrl()}/blog/${slug}-for-beginners`
  await db.insert(schema.blogPosts).values({
    userId: user.id,
    requestKey: crypto.randomUUID(),
    keyword: `${keyword.split(' ').slice(0, 2).join(' ')} for beginners`,
    title: `${keyword.split(' ').slice(0, 2).join(' ')} for beginners`,
    status: 'completed',
    publishedUrl,
    publishedAt: new Date(),
  })
  const kw = await addKeyword(user, keyword, 'English', 'dataforseo')
  return { user, keywordId: kw.id, publishedUrl }
}

export async function writePost(user: TestUser, keywordId: string) {
  const res = await api('/api/creator', { method: 'POST', as: user, json: { keywordId } })
  expect(res.status).toBe(202)
  const postId = res.body.post_id as string
  return waitFor(
    async () => {
      const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
      if (row?.status === 'failed') throw new Error(`post failed: ${row.failureReason}`)
      return row?.status === 'completed' ? row : null
    },
    { timeout: 40_000, interval: 250 },
  )
}
