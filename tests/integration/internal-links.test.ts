import crypto from 'node:crypto'
import { inArray } from 'drizzle-orm'
import { linkingContext } from '#app/features/content/content-engine.server'
import { describe, expect, it } from 'vitest'
import { linkUrls } from '#app/features/content/content'
import { comparableUrl } from '#app/features/keywords/serp'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl, webControl } from '#tests/fakes/client'
import { CTA, setUp, siteUrl, tag, writePost } from './content-helpers'

/**
 * Internal links by meaning (issue 32, item 6), end to end: the worker reads the user's sitemap pages through the
 * guard (the site fake: pages titled unlike their URL, one answering 500, one refused by robots.txt), ranks them
 * and the user's earlier posts by embeddings of what they are about, and links the relevant ones where the text is
 * about them, on a phrase of the sentence.
 */
const FREELANCER_PAGE = '/blog/p/123'
const BROKEN_PAGE = '/blog/p/500'
const PRIVATE_PAGE = '/private/drafts'
const SITEMAP = ['/', '/pricing', FREELANCER_PAGE, '/blog/p/124', '/blog/p/125', BROKEN_PAGE, PRIVATE_PAGE]

async function siteWithPages(keyword: string) {
  const setup = await setUp(keyword)
  await db.delete(schema.sitemapCache)
  await db.delete(schema.sitePageCache)
  await webControl('site').sitemap(SITEMAP)
  return setup
}

function internalLinks(markdown: string) {
  return [...markdown.matchAll(/(?<!!)\[([^\]]+)\]\(([^)\s]+)\)/g)]
    .filter((m) => m[2]!.startsWith(siteUrl()) && !m[2]!.endsWith(CTA.path))
    .map((m) => ({ text: m[1]!, url: m[2]!, at: m.index }))
}

describe('internal links by meaning', () => {
  it('links the page whose title is about the post (its URL says nothing), never a page that does not load', async () => {
    const keyword = `invoicing tips for freelancers ${tag()}`
    const { user, keywordId, publishedUrl } = await siteWithPages(keyword)
    const post = await writePost(user, keywordId)
    const md = post.contentMarkdown
    const body = md.split('\n## Sources\n')[0]!
    const links = internalLinks(body)

    // 2–5 internal links, each target once; the freelancer page and the related earlier post among them.
    expect(links.length).toBeGreaterThanOrEqual(2)
    expect(links.length).toBeLessThanOrEqual(5)
    expect(new Set(links.map((l) => comparableUrl(l.url))).size).toBe(links.length)
    const freelancer = links.find((l) => l.url === `${siteUrl()}${FREELANCER_PAGE}`)
    expect(freelancer).toBeDefined()
    expect(links.map((l) => comparableUrl(l.url))).toContain(comparableUrl(publishedUrl))
    // Never the page that answers 500, the one robots.txt refuses, or an unrelated one.
    for (const url of linkUrls(md)) {
      expect(url).not.toContain(BROKEN_PAGE)
      expect(url).not.toContain(PRIVATE_PAGE)
      expect(url).not.toContain('/blog/p/125')
    }

    // Inline, in a paragraph of the text (not a heading, not the 'Related reading' line), on a phrase of its
    // sentence: 2–6 words that name the page's topic, not the page's title pasted in.
    const line = body.split('\n').find((l) => l.includes(`](${siteUrl()}${FREELANCER_PAGE})`))!
    expect(line).not.toMatch(/^#|^\*\*Related reading/)
    const words = freelancer!.text.split(/\s+/)
    expect(words.length).toBeGreaterThanOrEqual(2)
    expect(words.length).toBeLessThanOrEqual(6)
    expect(freelancer!.text).not.toBe('How to set payment terms as a freelancer')
    expect(freelancer!.text.toLowerCase()).toMatch(/freelancer|invoicing|payment/)
    const sentence = line.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    expect(sentence.replace(freelancer!.text, '').trim().split(/\s+/).length).toBeGreaterThanOrEqual(2)
    expect(post.contentHtml).toContain(`href="${siteUrl()}${FREELANCER_PAGE}"`)

    // The pages were read once through the guard and kept for the day: the 500 and the refused page as failed.
    const rows = await db
      .select()
      .from(schema.sitePageCache)
      .where(
        inArray(
          schema.sitePageCache.url,
          [FREELANCER_PAGE, BROKEN_PAGE, PRIVATE_PAGE].map((p) => `${siteUrl()}${p}`),
        ),
      )
    const byPath = new Map(rows.map((r) => [new URL(r.url).pathname, r]))
    expect(byPath.get(FREELANCER_PAGE)).toMatchObject({
      status: 'ok',
      title: 'How to set payment terms as a freelancer',
      description: expect.stringContaining('invoicing tips for freelancers'),
      fetchedOn: new Date().toISOString().slice(0, 10),
      embeddingModel: expect.stringMatching(/^text-embedding-/),
    })
    expect(byPath.get(BROKEN_PAGE)?.status).toBe('failed')
    expect(byPath.get(PRIVATE_PAGE)?.status).toBe('failed')
    const privateFetches = await fakeControl('site').requests({ method: 'GET', path: PRIVATE_PAGE })
    expect(privateFetches).toHaveLength(0)

    // A second post the same day reuses what was read: the page is not fetched again.
    const before = (await fakeControl('site').requests({ method: 'GET', path: FREELANCER_PAGE })).length
    expect(before).toBe(1)
    const again = await linkingContext({ userId: user.id, id: crypto.randomUUID(), keyword, publishedUrl: null })
    expect(await fakeControl('site').requests({ method: 'GET', path: FREELANCER_PAGE })).toHaveLength(before)
    expect(again.linkMethod).toBe('embeddings')
    expect(again.internal[0]).toMatchObject({ score: expect.any(Number) })
    expect(again.internal.map((t) => t.url)).toContain(`${siteUrl()}${FREELANCER_PAGE}`)
    expect(again.internal.find((t) => t.url.endsWith(FREELANCER_PAGE))?.title).toBe(
      'How to set payment terms as a freelancer',
    )
    for (const p of [BROKEN_PAGE, PRIVATE_PAGE]) expect(again.own.map((t) => t.url)).not.toContain(`${siteUrl()}${p}`)
  })
})
