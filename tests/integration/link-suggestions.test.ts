import crypto from 'node:crypto'
import { desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { linkUrls } from '#app/features/content/content'
import { db, schema } from '#app/platform/db/client.server'
import { api, createTestUser, type TestUser } from '#tests/setup/app'

/**
 * Links from older posts to a newly published one (issue 14, point 5): suggested from the user's older related posts
 * (embeddings from the fake's feature hashing), each added with one click (a form post without JavaScript, or the
 * API), saved through the editor as a new version; a repeat changes nothing; someone else's posts are never touched.
 */
type Post = typeof schema.blogPosts.$inferSelect

const DAY = 86_400_000

async function addPost(
  user: { id: string },
  values: { keyword: string; title: string; body: string; daysAgo: number; publishedUrl?: string },
): Promise<Post> {
  const markdown = `# ${values.title}\n\n${values.body}\n`
  const [row] = await db
    .insert(schema.blogPosts)
    .values({
      userId: user.id,
      requestKey: crypto.randomUUID(),
      keyword: values.keyword,
      title: values.title,
      slug: values.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      metaDescription: `All about ${values.keyword}.`,
      status: 'completed',
      contentMarkdown: markdown,
      contentHtml: `<h1>${values.title}</h1>`,
      createdAt: new Date(Date.now() - values.daysAgo * DAY),
      completedAt: new Date(Date.now() - values.daysAgo * DAY),
      publishedUrl: values.publishedUrl ?? null,
      publishedAt: values.publishedUrl ? new Date() : null,
    })
    .returning()
  return row!
}

async function load(id: string) {
  const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, id))
  return row!
}

async function account() {
  const user = await createTestUser()
  const url = `https://example.com/blog/cold-email-templates-${crypto.randomUUID().slice(0, 8)}`
  const fresh = await addPost(user, {
    keyword: 'cold email templates',
    title: 'Cold email templates that get replies',
    body: 'Templates for cold outreach.\n\n## Subject lines\n\nShort ones.',
    daysAgo: 0,
    publishedUrl: url,
  })
  const mentions = await addPost(user, {
    keyword: 'cold email outreach',
    title: 'Cold email outreach for founders',
    body: [
      'Outreach starts with a list.',
      '',
      '## Writing the first message',
      '',
      'Start from cold email templates and make them yours.',
      '',
      '## Follow-ups',
      '',
      'Send two follow-ups.',
    ].join('\n'),
    daysAgo: 10,
  })
  const related = await addPost(user, {
    keyword: 'cold email subject lines',
    title: 'Subject lines for cold email templates',
    body: ['Subject lines decide.', '', '## Cold email examples', '', 'Examples of subject lines for email.'].join(
      '\n',
    ),
    daysAgo: 20,
    publishedUrl: `https://example.com/blog/subject-lines-${crypto.randomUUID().slice(0, 8)}`,
  })
  const linked = await addPost(user, {
    keyword: 'cold email follow up',
    title: 'Cold email follow up',
    body: `Read [our templates](${url}) first.\n\n## Cold email timing\n\nWait three days.`,
    daysAgo: 5,
  })
  const unrelated = await addPost(user, {
    keyword: 'kubernetes autoscaling',
    title: 'Kubernetes autoscaling explained',
    body: 'Pods and nodes.\n\n## Horizontal pod autoscaler\n\nMetrics server.',
    daysAgo: 3,
  })
  const newer = await addPost(user, {
    keyword: 'cold email deliverability',
    title: 'Cold email deliverability',
    body: 'SPF and DKIM for cold email.',
    daysAgo: -1,
  })
  return { user, url, fresh, mentions, related, linked, unrelated, newer }
}

function suggestions(user: TestUser, id: string) {
  return api(`/api/blogpost/${id}/links`, { as: user })
}

describe('links from older posts to a published post', () => {
  it('suggests older related posts that do not link to it yet, with the change each makes', async () => {
    const a = await account()
    const res = await suggestions(a.user, a.fresh.id)
    expect(res.status).toBe(200)
    expect(res.body.ready).toBe(true)
    expect(res.body.target).toEqual({ url: a.url, title: a.fresh.title })
    const data = res.body.data as Array<{ postId: string; kind: string; excerpt: string; section: string | null }>
    const ids = data.map((d) => d.postId)
    expect(ids).toContain(a.mentions.id)
    expect(ids).toContain(a.related.id)
    // Never the post itself, a newer post, one that links to it already, or an unrelated one.
    for (const not of [a.fresh.id, a.newer.id, a.linked.id, a.unrelated.id]) expect(ids).not.toContain(not)
    const inline = data.find((d) => d.postId === a.mentions.id)!
    expect(inline.kind).toBe('inline')
    expect(inline.excerpt).toContain('Start from cold email templates and make them yours.')
    const readNext = data.find((d) => d.postId === a.related.id)!
    expect(readNext).toMatchObject({ kind: 'read-next', section: 'Cold email examples' })
    // The change is shown as text: the sentence before and after, the new link apart; never Markdown.
    expect(inline).toMatchObject({
      change: {
        before: 'Start from cold email templates and make them yours.',
        after: { lead: 'Start from ', anchor: 'cold email templates', trail: ' and make them yours.', url: a.url },
      },
    })
    expect(readNext).toMatchObject({
      excerpt: 'Read next: Cold email templates that get replies',
      change: { before: null, after: { lead: 'Read next: ', anchor: 'Cold email templates that get replies' } },
    })

    // The page shows the same, and the post page offers it once the post is live.
    const page = await api(`/blogpost/${a.fresh.id}/links`, { as: a.user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Link to this post from older posts')
    expect(page.text).toContain('Cold email outreach for founders')
    expect(page.text).toContain('Adds a “Read next” line at the end of its section “Cold email examples”')
    const shown = page.text.replaceAll('<!-- -->', '')
    const url = a.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    expect(shown).toMatch(
      new RegExp(`Start from <mark[^>]*><a href="${url}"[^>]*>cold email templates</a></mark> and make them yours\\.`),
    )
    expect(shown).not.toContain('**Read next:**')
    expect(shown).not.toContain(`](${a.url})`)
    const postPage = await api(`/blogpost/${a.fresh.id}`, { as: a.user, auth: 'cookie' })
    expect(postPage.text).toContain(`/blogpost/${a.fresh.id}/links`)
  })

  it('adds a link with a form post: a new version of the older post, scored again; a repeat changes nothing', async () => {
    const a = await account()
    const before = await load(a.mentions.id)
    const res = await api(`/blogpost/${a.fresh.id}/links`, {
      method: 'POST',
      as: a.user,
      auth: 'cookie',
      body: new URLSearchParams({ intent: `add-link:${a.mentions.id}` }),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/blogpost/${a.fresh.id}/links`)
    const after = await load(a.mentions.id)
    expect(after.contentMarkdown).toContain(`Start from [cold email templates](${a.url}) and make them yours.`)
    expect(linkUrls(after.contentMarkdown).filter((u) => u === a.url)).toHaveLength(1)
    expect(after.contentHtml).toContain(`href="${a.url}"`)
    expect(after.title).toBe(before.title)
    expect(after.slug).toBe(before.slug)
    expect(after.editedAt).toBeTruthy()
    expect(after.seoScore).toEqual(expect.any(Number))
    const [version] = await db
      .select()
      .from(schema.postVersions)
      .where(eq(schema.postVersions.postId, a.mentions.id))
      .orderBy(desc(schema.postVersions.createdAt))
    expect(version).toMatchObject({ origin: 'edit', contentMarkdown: after.contentMarkdown })

    // It is no longer suggested; adding it again (another tab, the API) changes nothing.
    const next = await suggestions(a.user, a.fresh.id)
    expect((next.body.data as Array<{ postId: string }>).map((d) => d.postId)).not.toContain(a.mentions.id)
    const again = await api(`/api/blogpost/${a.fresh.id}/links`, {
      method: 'POST',
      as: a.user,
      json: { fromPostId: a.mentions.id },
    })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ alreadyLinked: true })
    expect((await load(a.mentions.id)).contentMarkdown).toBe(after.contentMarkdown)

    // Without a mention, a 'Read next' line closes the most related section, through the API.
    const added = await api(`/api/blogpost/${a.fresh.id}/links`, {
      method: 'POST',
      as: a.user,
      json: { fromPostId: a.related.id },
    })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({
      alreadyLinked: false,
      message: 'Link added to “Subject lines for cold email templates”.',
    })
    expect((await load(a.related.id)).contentMarkdown).toContain(
      `Examples of subject lines for email.\n\n**Read next:** [Cold email templates that get replies](${a.url})`,
    )
  })

  it('refuses what it cannot do: unpublished, someone else’s, bad ids; nothing changes', async () => {
    const a = await account()
    const other = await createTestUser()
    const draft = await addPost(a.user, {
      keyword: 'cold email tools',
      title: 'Cold email tools',
      body: 'Tools.',
      daysAgo: 0,
    })

    const notLive = await suggestions(a.user, draft.id)
    expect(notLive.status).toBe(200)
    expect(notLive.body).toMatchObject({ ready: false, reason: 'not_published', data: [] })
    const page = await api(`/blogpost/${draft.id}/links`, { as: a.user, auth: 'cookie' })
    expect(page.text).toContain('Publish this post first: older posts can link to it once it has a live URL.')
    const addToDraft = await api(`/api/blogpost/${draft.id}/links`, {
      method: 'POST',
      as: a.user,
      json: { fromPostId: a.mentions.id },
    })
    expect(addToDraft.status).toBe(409)

    // Someone else's post, as the target or as the post to change: 404, and their post is unchanged.
    expect((await suggestions(other, a.fresh.id)).status).toBe(404)
    const theirs = await addPost(other, {
      keyword: 'cold email templates guide',
      title: 'Their cold email templates guide',
      body: 'About cold email templates.',
      daysAgo: 30,
    })
    const foreign = await api(`/api/blogpost/${a.fresh.id}/links`, {
      method: 'POST',
      as: a.user,
      json: { fromPostId: theirs.id },
    })
    expect(foreign.status).toBe(404)
    expect((await load(theirs.id)).contentMarkdown).toBe(theirs.contentMarkdown)
    const viaForm = await api(`/blogpost/${a.fresh.id}/links`, {
      method: 'POST',
      as: other,
      auth: 'cookie',
      body: new URLSearchParams({ intent: `add-link:${a.mentions.id}` }),
    })
    expect(viaForm.status).toBe(404)
    expect((await load(a.mentions.id)).contentMarkdown).toBe(a.mentions.contentMarkdown)

    // Bad input: 400 with the field named; unknown ids 404.
    const bad = await api(`/api/blogpost/${a.fresh.id}/links`, {
      method: 'POST',
      as: a.user,
      json: { fromPostId: 'x' },
    })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('fromPostId')
    expect((await suggestions(a.user, 'not-a-uuid')).status).toBe(404)
    const noIntent = await api(`/blogpost/${a.fresh.id}/links`, {
      method: 'POST',
      as: a.user,
      auth: 'cookie',
      body: new URLSearchParams({ intent: 'something' }),
    })
    expect(noIntent.status).toBe(400)
  })
})
