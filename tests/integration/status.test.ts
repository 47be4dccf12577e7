import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { db, schema, sqlClient } from '#app/platform/db/client.server'
import { postMessageId } from '#app/platform/webhooks/signing.server'
import { wordCount } from '#app/features/content/seo-checklist'
import {
  postProgressForKeywords,
  postProgressForPosts,
  WEBHOOK_DESTINATION,
} from '#app/features/publishing/post-progress.server'
import { api, createTestUser, type TestUser } from '#tests/setup/app'
import { addKeywords, autopilotWithWebhook, pendingDelivery } from '#tests/setup/records'

/**
 * Issue 35, status everywhere (decision 0351): where each keyword's post and each post stands, from real rows, as
 * the functions compute it and as /keywords, /blogposts and /autopilot show it (the server's HTML: what a browser
 * without JavaScript gets).
 */

const MARKDOWN = [
  '# Email onboarding that works',
  '',
  'Most **founders** write one welcome e-mail and stop there.',
  '',
  '## Why it matters',
  '',
  '- Activation rises when the first e-mail arrives within a minute.',
  '1. Send the [first e-mail](https://example.com/first) at once.',
  '',
  '![A chart of opens](https://example.com/chart.png)',
  '',
  '```',
  'const ignored = "code is not words"',
  '```',
  '',
  'Read <em>more</em> about it — in 2026 too.',
].join('\n')

type PostValues = Partial<typeof schema.blogPosts.$inferInsert>
async function addPost(user: TestUser, values: PostValues & { keyword: string }) {
  const [row] = await db
    .insert(schema.blogPosts)
    .values({
      userId: user.id,
      requestKey: crypto.randomUUID(),
      status: 'completed',
      title: `A post about ${values.keyword}`,
      contentMarkdown: MARKDOWN,
      completedAt: new Date(),
      ...values,
    })
    .returning()
  return row!
}

/** The server's HTML of one keyword row. */
function keywordRow(html: string, keyword: string) {
  const match = new RegExp(`<tr[^>]*data-keyword="${keyword}"[\\s\\S]*?</tr>`).exec(html)
  expect(match, `row of ${keyword}`).not.toBeNull()
  return match![0].replaceAll('<!-- -->', '')
}
/** The server's HTML of one library card (without React's markers between text parts). */
function card(html: string, postId: string) {
  const match = new RegExp(`<article[^>]*data-post-id="${postId}"[\\s\\S]*?</article>`).exec(html)
  expect(match, `card of ${postId}`).not.toBeNull()
  return match![0].replaceAll('<!-- -->', '')
}

describe('status everywhere', () => {
  it('each state from real rows: the functions, the keyword rows and the library cards', async () => {
    const user = await createTestUser()
    const other = await createTestUser()
    const tag = crypto.randomBytes(3).toString('hex')
    const names = ['writing', 'failed', 'ready', 'waiting', 'scheduled', 'published', 'reviewed', 'none', 'unpub'].map(
      (n) => `${n} ${tag}`,
    )
    const kws = await addKeywords(user, names, { source: 'dataforseo' })
    const kw = Object.fromEntries(names.map((n, i) => [n.split(' ')[0]!, kws[i]!]))
    const hour = 3_600_000
    const at = (ms: number) => new Date(Date.now() + ms)

    const writing = await addPost(user, {
      keyword: kw.writing!.keyword,
      keywordId: kw.writing!.id,
      status: 'generating',
      contentMarkdown: '',
      completedAt: null,
    })
    const failed = await addPost(user, {
      keyword: kw.failed!.keyword,
      keywordId: kw.failed!.id,
      status: 'failed',
      failureReason: 'The AI service did not answer after several attempts.',
    })
    // The newest post of a keyword is the one shown: an older failed attempt is history.
    await addPost(user, {
      keyword: kw.ready!.keyword,
      keywordId: kw.ready!.id,
      status: 'failed',
      createdAt: at(-2 * hour),
    })
    const ready = await addPost(user, { keyword: kw.ready!.keyword, keywordId: kw.ready!.id, seoScore: 77 })
    const waiting = await addPost(user, {
      keyword: kw.waiting!.keyword,
      keywordId: kw.waiting!.id,
      reviewStatus: 'waiting',
    })
    const scheduledAt = new Date('2031-03-04T09:30:00Z')
    const scheduled = await addPost(user, {
      keyword: kw.scheduled!.keyword,
      keywordId: kw.scheduled!.id,
      scheduledPublishAt: scheduledAt,
      scheduledTargets: ['webhook'],
      reviewStatus: 'approved',
    })
    const published = await addPost(user, { keyword: kw.published!.keyword, keywordId: kw.published!.id })
    const reviewed = await addPost(user, {
      keyword: kw.reviewed!.keyword,
      keywordId: kw.reviewed!.id,
      reviewedAt: new Date(),
    })
    const rejected = await addPost(user, { keyword: `rejected ${tag}`, reviewStatus: 'rejected' })
    // Published to the webhook, then taken back there: no longer live anywhere.
    const unpublished = await addPost(user, { keyword: kw.unpub!.keyword, keywordId: kw.unpub!.id })
    // A post being deleted and another user's post are never shown.
    await addPost(user, { keyword: kw.none!.keyword, keywordId: kw.none!.id, deletingAt: new Date() })
    const foreign = await addPost(other, { keyword: `foreign ${tag}` })

    const [wordpress, ghost] = await db
      .insert(schema.destinations)
      .values([
        { userId: user.id, kind: 'wordpress', name: `Company blog ${tag}`, config: {}, credentials: 'x' },
        { userId: user.id, kind: 'ghost', name: `Ghost ${tag}`, config: {}, credentials: 'x' },
      ])
      .returning()
    await db.insert(schema.publications).values([
      {
        userId: user.id,
        postId: published.id,
        destinationId: wordpress!.id,
        status: 'published',
        remoteUrl: `https://blog.example.com/${tag}`,
        publishedAt: at(-hour),
      },
      // A live URL that is not a web address is never a link.
      {
        userId: user.id,
        postId: published.id,
        destinationId: ghost!.id,
        status: 'published',
        remoteUrl: 'javascript:alert(1)',
        publishedAt: new Date(),
      },
      // Still on its way: not live yet.
      { userId: user.id, postId: ready.id, destinationId: wordpress!.id, status: 'pending' },
    ])
    const delivery = (postId: string, eventType: string, messageId: string, createdAt: Date) => ({
      userId: user.id,
      messageId,
      eventType,
      postId,
      url: 'https://hooks.example.com/in',
      body: '{}',
      status: 'delivered' as const,
      attempts: 1,
      createdAt,
      updatedAt: createdAt,
    })
    await db
      .insert(schema.webhookDeliveries)
      .values([
        delivery(published.id, 'post.published', postMessageId(published.id, 'post.published'), at(-hour)),
        delivery(unpublished.id, 'post.published', postMessageId(unpublished.id, 'post.published'), at(-2 * hour)),
        delivery(unpublished.id, 'post.unpublished', `msg_${crypto.randomUUID()}`, at(-hour)),
      ])

    // The functions.
    const byKeyword = await postProgressForKeywords(user.id, [...kws.map((k) => k.id), crypto.randomUUID(), 'bad'])
    expect(byKeyword.get(kw.writing!.id)).toMatchObject({ postId: writing.id, state: 'writing' })
    expect(byKeyword.get(kw.failed!.id)).toMatchObject({ postId: failed.id, state: 'failed' })
    expect(byKeyword.get(kw.ready!.id)).toMatchObject({ postId: ready.id, state: 'ready', score: 77, reviewed: false })
    expect(byKeyword.get(kw.waiting!.id)).toMatchObject({ postId: waiting.id, state: 'waiting', reviewed: false })
    expect(byKeyword.get(kw.scheduled!.id)).toMatchObject({
      postId: scheduled.id,
      state: 'scheduled',
      scheduledAt: scheduledAt.toISOString(),
      reviewed: true,
    })
    expect(byKeyword.get(kw.published!.id)).toMatchObject({
      postId: published.id,
      state: 'published',
      destinations: [
        { name: `Company blog ${tag}`, url: `https://blog.example.com/${tag}` },
        { name: `Ghost ${tag}`, url: null },
        { name: WEBHOOK_DESTINATION, url: null },
      ],
    })
    expect(byKeyword.get(kw.reviewed!.id)).toMatchObject({ postId: reviewed.id, state: 'ready', reviewed: true })
    expect(byKeyword.get(kw.unpub!.id)).toMatchObject({ postId: unpublished.id, state: 'ready' })
    expect(byKeyword.has(kw.none!.id)).toBe(false)
    expect(byKeyword.get(kw.ready!.id)?.words).toBeUndefined()

    const byPost = await postProgressForPosts(user.id, [ready.id, writing.id, foreign.id])
    expect([...byPost.keys()].sort()).toEqual([ready.id, writing.id].sort())
    // The word count is the SEO checklist's.
    expect(byPost.get(ready.id)?.words).toBe(wordCount(MARKDOWN))
    expect(byPost.get(writing.id)?.words).toBeUndefined()
    expect(await postProgressForKeywords(other.id, [kw.ready!.id])).toEqual(new Map())

    // /keywords: each row says where its post stands and links to it; only a keyword without a post offers
    // 'Create Post', and a failed post 'Try again'.
    const keywords = await api('/keywords', { as: user, auth: 'cookie' })
    expect(keywords.status).toBe(200)
    const row = (key: string) => keywordRow(keywords.text, kw[key]!.keyword)
    const states = {
      writing: ['writing', 'Writing…'],
      failed: ['failed', 'Failed'],
      ready: ['ready', 'Ready for review'],
      waiting: ['waiting', 'Waiting for your review'],
      scheduled: ['scheduled', 'Scheduled for Mar 4, 2031, 09:30 AM UTC'],
      published: ['published', 'Published on '],
      reviewed: ['ready', 'Reviewed, ready to publish'],
    } as const
    const posts = { writing, failed, ready, waiting, scheduled, published, reviewed }
    for (const [key, [state, text]] of Object.entries(states)) {
      const html = row(key)
      expect(html, key).toContain(`data-post-state="${state}"`)
      expect(html, key).toContain(text)
      expect(html, key).toContain(`href="/blogpost/${posts[key as keyof typeof posts].id}"`)
      expect(html, key).toContain('View post')
      expect(html, key).not.toContain('Create Post')
    }
    expect(row('failed')).toContain('Try again')
    expect(row('failed')).toContain(`name="postId" value="${failed.id}"`)
    expect(row('ready')).toContain(`href="/keywords/${kw.ready!.id}/write?redirectTo=%2Fkeywords"`)
    expect(row('writing')).not.toContain('Write another')
    expect(row('published')).toContain(`<a href="https://blog.example.com/${tag}"`)
    expect(row('published')).not.toContain('javascript:')
    expect(row('published')).toContain(WEBHOOK_DESTINATION)
    expect(row('none')).toContain('Create Post')
    expect(row('none')).not.toContain('data-post-state')

    // /blogposts: score, word count, review state and where each written post is.
    const library = await api('/blogposts', { as: user, auth: 'cookie' })
    expect(library.status).toBe(200)
    const words = `${wordCount(MARKDOWN)} words`
    expect(card(library.text, ready.id)).toContain(words)
    expect(card(library.text, ready.id)).toContain('SEO 77/100')
    expect(card(library.text, ready.id)).toContain('Not reviewed')
    expect(card(library.text, reviewed.id)).toMatch(/data-testid="review-state">Reviewed</)
    expect(card(library.text, scheduled.id)).toMatch(/data-testid="review-state">Reviewed</)
    expect(card(library.text, waiting.id)).toContain('Waiting for your review')
    expect(card(library.text, rejected.id)).toContain('Rejected')
    expect(card(library.text, scheduled.id)).toContain('Scheduled for Mar 4, 2031, 09:30 AM UTC')
    const live = card(library.text, published.id)
    expect(live).toContain(`<a href="https://blog.example.com/${tag}"`)
    expect(live).toContain(`Ghost ${tag}`)
    expect(live).toContain(WEBHOOK_DESTINATION)
    expect(card(library.text, writing.id)).not.toContain('data-testid="post-facts"')
    // The spec's card stays: title link, long US date, excerpt, 'Read More'.
    expect(card(library.text, ready.id)).toContain('Read More')

    // The cards' refresh (JavaScript) carries the same.
    const refreshed = await api(`/blogposts/status?ids=${published.id},${ready.id}`, { as: user, auth: 'cookie' })
    const cards = (refreshed.body as { cards: Array<{ id: string; progress: { state: string; words?: number } }> })
      .cards
    expect(cards.find((c) => c.id === published.id)?.progress.state).toBe('published')
    expect(cards.find((c) => c.id === ready.id)?.progress.words).toBe(wordCount(MARKDOWN))
  })

  it('a page of 200 posts costs one statement, however long the list', async () => {
    const user = await createTestUser()
    const rows = await db
      .insert(schema.blogPosts)
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          userId: user.id,
          requestKey: crypto.randomUUID(),
          keyword: `bulk ${i}`,
          status: 'completed' as const,
          contentMarkdown: MARKDOWN,
        })),
      )
      .returning({ id: schema.blogPosts.id })
    const ids = rows.map((r) => r.id)
    // Every statement the pool sends passes postgres.js's debug hook: one for the whole list, never one per post.
    const client = sqlClient()
    const statements: string[] = []
    const before = client.options.debug
    client.options.debug = (_connection, query) => void statements.push(query)
    let progress: Awaited<ReturnType<typeof postProgressForPosts>>
    try {
      progress = await postProgressForPosts(user.id, ids)
    } finally {
      client.options.debug = before
    }
    expect(progress.size).toBe(200)
    expect(statements).toHaveLength(1)
    expect([...progress.values()].every((p) => p.state === 'ready' && p.words === wordCount(MARKDOWN))).toBe(true)
  })

  it('/autopilot without JavaScript says a reload shows a delivery on its way', async () => {
    const user = await createTestUser()
    await autopilotWithWebhook(user)
    const page = async () => (await api('/autopilot', { as: user, auth: 'cookie' })).text
    expect(await page()).not.toContain('deliveries-in-flight')
    await pendingDelivery(user, { attempts: 1, nextAttemptAt: new Date(Date.now() + 60_000) })
    const html = await page()
    expect(html).toContain('data-testid="deliveries-in-flight"')
    expect(html).toContain('A delivery is on its way: reload the page to see the result.')
  })
})
