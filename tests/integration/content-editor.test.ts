import { and, desc, eq } from 'drizzle-orm'
import { postImagesOf } from '#app/features/content/images/storage.server'
import { describe, expect, it } from 'vitest'
import { linkUrls } from '#app/features/content/content'
import { splitTitle, sectionsOf } from '#app/features/content/post-editor'
import { scorePost } from '#app/features/content/seo-checklist'
import { bareDomain } from '#app/features/keywords/serp'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl } from '#tests/fakes/client'
import { api, type TestUser } from '#tests/setup/app'
import { chatCompletion } from '#tests/setup/openai'
import { CTA, setUp, siteUrl, tag, writePost } from './content-helpers'

/**
 * The editor (/blogpost/:id/edit) through its form posts, as a browser without JavaScript sends them: saves are
 * finished, scored and sanitized again, versions are kept (20) and restored, and 'Rewrite this section' is one
 * model call whose foreign links are removed.
 */
type Post = typeof schema.blogPosts.$inferSelect

async function load(id: string): Promise<Post> {
  const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, id))
  return row!
}

function edit(user: TestUser, id: string, fields: Record<string, string>) {
  return api(`/blogpost/${id}/edit`, { method: 'POST', as: user, auth: 'cookie', body: new URLSearchParams(fields) })
}

function fieldsOf(post: Post, changes: Partial<Record<string, string>> = {}) {
  return {
    intent: 'save',
    title: post.title,
    slug: post.slug,
    metaDescription: post.metaDescription,
    body: splitTitle(post.contentMarkdown).body,
    ...changes,
  } as Record<string, string>
}

async function versions(id: string) {
  return db
    .select()
    .from(schema.postVersions)
    .where(eq(schema.postVersions.postId, id))
    .orderBy(desc(schema.postVersions.createdAt))
}

describe('content editor (/blogpost/:id/edit)', () => {
  it('saves an edit: finished again, scored as computed, sanitized, a version kept; bad input changes nothing', async () => {
    const keyword = `newsletter editor ${tag()}`
    const { user, keywordId } = await setUp(keyword)
    const post = await writePost(user, keywordId)
    const page = await api(`/blogpost/${post.id}/edit`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Rewrite this section')
    expect(page.text).toContain('Written by Rankwell')

    const body = splitTitle(post.contentMarkdown).body
    const added = `\n\nA paragraph the author wrote about ${keyword}, with <script>alert(1)</script> and a [link of my own](https://author.example/page).`
    const newTitle = `My ${keyword} guide`
    const res = await edit(
      user,
      post.id,
      fieldsOf(post, { title: newTitle, slug: 'My Custom Slug!', body: body.replace(/\n## /, `${added}\n\n## `) }),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/blogpost/${post.id}/edit`)

    const after = await load(post.id)
    expect(after.title).toBe(newTitle)
    expect(after.slug).toBe('my-custom-slug')
    expect(after.editedAt).toBeTruthy()
    expect(after.contentMarkdown.startsWith(`# ${newTitle}\n`)).toBe(true)
    expect(after.contentMarkdown).toContain('A paragraph the author wrote')
    expect(after.contentMarkdown).not.toContain('<script')
    expect(after.contentHtml).not.toContain('<script')
    expect(linkUrls(after.contentMarkdown)).toContain('https://author.example/page')
    // The finish is the same as generation's: one CTA line, one Sources list, citations renumbered consistently.
    expect(after.contentMarkdown.split(`**[${CTA.text}](${siteUrl()}${CTA.path})**`)).toHaveLength(2)
    expect(after.contentMarkdown.match(/\n## Sources\n/g)).toHaveLength(1)
    // Sources are exactly the cited pages, in order of first citation; deleting every citation of a page in an
    // edit takes it off the list.
    const sourcesOf = (md: string) => ({
      cited: [...new Set([...md.matchAll(/\[\[\d+\]\(([^)#]+)[^)]*\)\]/g)].map((m) => m[1]!))],
      listed: [...(md.split('\n## Sources\n')[1] ?? '').matchAll(/^\d+\. \[[^\]]*\]\(([^)]+)\)/gm)].map((m) => m[1]!),
    })
    const before = sourcesOf(after.contentMarkdown)
    expect(before.cited.length).toBeGreaterThanOrEqual(1)
    expect(before.listed).toEqual(before.cited)
    const first = before.cited[0]!
    const withoutFirst = splitTitle(after.contentMarkdown)
      .body.split('\n## Sources\n')[0]!
      .replace(/\[\[\d+\]\(([^)]+)\)\]/g, (whole, url: string) => (url.startsWith(first) ? '' : whole))
    expect(
      (await edit(user, post.id, fieldsOf(after, { title: newTitle, slug: after.slug, body: withoutFirst }))).status,
    ).toBe(302)
    const trimmed = sourcesOf((await load(post.id)).contentMarkdown)
    expect(trimmed.listed).toEqual(trimmed.cited)
    expect(trimmed.listed).not.toContain(first)
    await edit(
      user,
      post.id,
      fieldsOf(after, { title: newTitle, slug: after.slug, body: splitTitle(after.contentMarkdown).body }),
    )
    // The score is the checklist computed from what is stored.
    const brief = post.brief as { targetWords: number }
    const context = (post.steps as { context: { own: Array<{ url: string }> } }).context
    const expected = scorePost({
      keyword,
      title: after.title,
      slug: after.slug,
      metaDescription: after.metaDescription,
      markdown: after.contentMarkdown,
      targetWords: brief.targetWords,
      language: 'English',
      ownPages: context.own.map((o) => o.url),
      siteHost: bareDomain(new URL(siteUrl()).host),
      claims: after.claims as Array<{ text: string; sourceUrl: string | null }>,
      images: await postImagesOf(post.id),
    })
    expect(after.seoScore).toBe(expected.score)
    expect(after.seoChecklist).toEqual(expected.items)
    expect((after.jsonLd as Array<Record<string, unknown>>)[0]).toMatchObject({
      '@type': 'Article',
      headline: newTitle,
    })
    expect((await versions(post.id)).map((v) => v.origin)).toEqual(['edit', 'edit', 'edit', 'generated'])
    // The exported HTML carries the JSON-LD: Article (with the new headline) and FAQPage.
    const download = await api(`/blogpost/${post.id}/download?format=html`, { as: user, auth: 'cookie' })
    const ld = [...download.text.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    )
    expect(ld.map((d) => d['@type'])).toEqual(['Article', 'FAQPage'])
    expect(ld[0]).toMatchObject({ headline: newTitle, '@context': 'https://schema.org' })

    // Saving the saved text again changes nothing in it (the finish is stable).
    const again = await edit(user, post.id, fieldsOf(after))
    expect(again.status).toBe(302)
    expect((await load(post.id)).contentMarkdown).toBe(after.contentMarkdown)

    // Bad input: messages next to the fields, the input kept, nothing written.
    const bad = await edit(user, post.id, fieldsOf(after, { title: '   ', body: '', slug: '!!!' }))
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Title is required.')
    expect(bad.text).toContain('The post cannot be empty.')
    expect(bad.text).toContain('Slug needs at least one letter or digit.')
    expect(bad.text).toContain('value="!!!"')
    expect((await load(post.id)).contentMarkdown).toBe(after.contentMarkdown)
    expect(await versions(post.id)).toHaveLength(5)

    // Preview without JavaScript: the sanitized HTML of the text, nothing saved.
    const preview = await edit(
      user,
      post.id,
      fieldsOf(after, { intent: 'preview', body: '## Preview me\n\n<img src=x onerror=alert(1)>Hello **world**' }),
    )
    expect(preview.status).toBe(200)
    const shown = /data-testid="editor-preview"[^>]*>([\s\S]*?)<\/div>/.exec(preview.text)?.[1]
    expect(shown).toContain('<strong>world</strong>')
    expect(shown).not.toContain('<img')
    expect(shown).not.toContain('onerror')
    expect(await versions(post.id)).toHaveLength(5)

    // Another user's post is not found and not changed.
    const other = (await setUp(`other editor ${tag()}`)).user
    const foreign = await edit(other, post.id, fieldsOf(after, { title: 'Hijacked' }))
    expect(foreign.status).toBe(404)
    expect((await load(post.id)).title).toBe(newTitle)
  })

  it('keeps the last 20 versions and restores one as a new version', async () => {
    const keyword = `versioned post ${tag()}`
    const { user, keywordId } = await setUp(keyword)
    const post = await writePost(user, keywordId)
    const generated = (await versions(post.id))[0]!
    for (let i = 1; i <= 21; i++) {
      const res = await edit(user, post.id, fieldsOf(await load(post.id), { title: `${keyword} take ${i}` }))
      expect(res.status).toBe(302)
    }
    const kept = await versions(post.id)
    expect(kept).toHaveLength(20)
    expect(kept[0]!.title).toBe(`${keyword} take 21`)
    expect(kept.some((v) => v.id === generated.id)).toBe(false)

    const target = kept.find((v) => v.title === `${keyword} take 5`)!
    const res = await edit(user, post.id, { intent: 'restore', versionId: target.id })
    expect(res.status).toBe(302)
    const restored = await load(post.id)
    expect(restored.title).toBe(`${keyword} take 5`)
    expect(restored.contentMarkdown).toBe(target.contentMarkdown)
    const now = await versions(post.id)
    expect(now).toHaveLength(20)
    expect(now[0]).toMatchObject({ origin: 'restore', title: `${keyword} take 5` })

    const gone = await edit(user, post.id, { intent: 'restore', versionId: generated.id })
    expect(gone.status).toBe(404)
    expect(gone.text).toContain('That version is no longer kept.')
  })

  it("rewrites one section with one model call; the model's foreign links and headings do not survive", async () => {
    const t = tag()
    const keyword = `section rewrite ${t}`
    const { user, keywordId } = await setUp(keyword)
    const post = await writePost(user, keywordId)
    const body = splitTitle(post.contentMarkdown).body
    const sections = sectionsOf(body)
    // The fake model's headings repeat once a post has more sections than it has heading patterns: rewrite a section
    // whose heading is the post's only one of that name, so that the count below means something.
    const chosen = sections.findIndex(
      (s, i) => i > 0 && sections.filter((other) => other.heading === s.heading).length === 1,
    )
    expect(chosen).toBeGreaterThan(0)
    const instruction = `Make it shorter ${t}`
    await fakeControl('openai').enqueue({
      status: 200,
      bodyIncludes: [instruction],
      times: 1,
      body: chatCompletion(
        `## ${sections[chosen]!.heading}\n\nA rewritten, shorter section. Visit [our sponsor](https://evil.example/deal).\n\n<script>alert(1)</script>`,
      ),
    })
    const before = await fakeControl('openai').mark()
    const res = await edit(user, post.id, {
      ...fieldsOf(post),
      intent: 'rewrite',
      section: String(chosen),
      instruction,
    })
    expect(res.status).toBe(302)
    const calls = await fakeControl('openai').requests({ method: 'POST', path: '/chat/completions', since: before })
    expect(calls.filter((c) => JSON.stringify(c.body).includes(instruction))).toHaveLength(1)

    const after = await load(post.id)
    const newSections = sectionsOf(splitTitle(after.contentMarkdown).body)
    expect(newSections[chosen]!.heading).toBe(sections[chosen]!.heading)
    expect(newSections[chosen]!.body).toContain('A rewritten, shorter section. Visit our sponsor.')
    expect(newSections[0]!.body).toBe(sections[0]!.body)
    expect(after.contentMarkdown).not.toContain('evil.example')
    expect(after.contentMarkdown).not.toContain('<script')
    expect(
      after.contentMarkdown.match(
        new RegExp(`^## ${sections[chosen]!.heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'gm'),
      ),
    ).toHaveLength(1)
    const [latest] = await db
      .select()
      .from(schema.postVersions)
      .where(and(eq(schema.postVersions.postId, post.id), eq(schema.postVersions.origin, 'rewrite')))
    expect(latest?.contentMarkdown).toBe(after.contentMarkdown)

    // No instruction: a message next to the field, no model call, nothing written.
    const callsBefore = await fakeControl('openai').mark()
    const bad = await edit(user, post.id, { ...fieldsOf(after), intent: 'rewrite', section: '0', instruction: '' })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Tell us how to rewrite the section.')
    expect(
      await fakeControl('openai').requests({ method: 'POST', path: '/chat/completions', since: callsBefore }),
    ).toEqual([])
    expect((await load(post.id)).contentMarkdown).toBe(after.contentMarkdown)
  })
})
