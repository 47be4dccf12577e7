import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readClaims, readEvidence, unverifiedCount, type Evidence } from '#app/features/content/evidence'
import { splitTitle } from '#app/features/content/post-editor'
import { db, schema } from '#app/platform/db/client.server'
import { FIGURE_IN_REWRITE, OBEYED_INSTRUCTION, UNSOURCED_SENTENCE } from '#tests/fakes/claims'
import { slugify as fakeSlug } from '#tests/fakes/text'
import { api, type TestUser } from '#tests/setup/app'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import {
  citationLinks,
  figuresIn,
  jsonUrls,
  markdownUrls,
  pageKey,
  postMetrics,
  sourcesList,
  type SiteContext,
} from '../../scripts/lib/post-metrics'
import { CTA, setUp, siteUrl, tag, writePost } from './content-helpers'
import { addGhost, ghostPosts, waitForPublication } from './publishing-helpers'

/**
 * Issue 32, against the misbehaving fakes (tests/fakes/claims.ts, tests/fakes/web.ts): a keyword containing
 * 'misbehaving' gets a model that invents a study citing a real fact with a wrong figure, writes an unsourced
 * figure, obeys instructions from a page it read and links to evil.example in every Markdown form (and in the
 * brief's free text); its research pages are a 500 (/site/4/), a hang past the 2.5 s page limit (/site/6/), a page
 * robots.txt forbids (/site/9/) and a hostile page (/site/2/). One post is written by the real worker and checked
 * everywhere it goes: stored HTML and Markdown, JSON-LD, the claim ledger, the brief, the post page, the download,
 * the webhook payload and a CMS copy; then edited.
 */
type Post = typeof schema.blogPosts.$inferSelect

let user: TestUser
let keyword: string
let post: Post
let evidence: Evidence
let receiver: Receiver

const NOT_READ = [4, 6, 9]
const pageUrl = (n: number) => `${process.env.FAKE_WEB_URL!.replace(/\/+$/, '')}/site/${n}/${fakeSlug(keyword)}`
const site = (): SiteContext => ({
  siteUrls: [siteUrl()],
  ctaUrls: [`${siteUrl()}${CTA.path}`],
  targets: [],
})

async function load(id: string): Promise<Post> {
  const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, id))
  return row!
}

/** Nothing that links to, or names, the hostile site. */
function expectNoEvil(where: string, text: string) {
  expect(text, where).not.toContain('evil.example')
}

beforeAll(async () => {
  receiver = await startReceiver()
  keyword = `misbehaving invoice software ${tag()}`
  const setup = await setUp(keyword)
  user = setup.user
  post = await writePost(user, setup.keywordId)
  evidence = readEvidence(post.evidence) ?? { pages: [], facts: [] }
})

afterAll(async () => {
  await receiver?.close()
})

describe('every claim earns its source (issue 32), against a misbehaving model and research pages', () => {
  it('keeps the pages not read (500, hang, robots.txt) as not read, and never cites them', () => {
    expect(post.status).toBe('completed')
    for (const n of NOT_READ) {
      const page = evidence.pages.find((p) => pageKey(p.url) === pageKey(pageUrl(n)))
      expect(page, `/site/${n}/ is in the evidence`).toBeTruthy()
      expect(page!.status, `/site/${n}/`).toBe('not read')
      expect(page!.reason).toBeTruthy()
    }
    const read = evidence.pages.filter((p) => p.status === 'read')
    expect(read.length).toBeGreaterThanOrEqual(5)
    // Facts come only from pages read.
    const readKeys = new Set(read.map((p) => pageKey(p.url)))
    expect(evidence.facts.length).toBeGreaterThan(0)
    for (const f of evidence.facts) expect(readKeys.has(pageKey(f.url)), f.url).toBe(true)

    const citations = citationLinks(post.contentMarkdown)
    expect(citations.length).toBeGreaterThan(0)
    for (const c of citations) expect(readKeys.has(pageKey(c.page)), c.url).toBe(true)
    // A page not read appears nowhere in what readers get: not cited, not listed, not linked, not in the ledger.
    for (const n of NOT_READ) {
      const key = `/site/${n}/${fakeSlug(keyword)}`
      expect(post.contentMarkdown).not.toContain(key)
      expect(post.contentHtml).not.toContain(key)
      expect(JSON.stringify(post.claims)).not.toContain(key)
      expect(JSON.stringify(post.jsonLd)).not.toContain(key)
    }
    const m = postMetrics(post, site())
    expect(m.unreadCitations).toEqual([])
  })

  it('lets no link to evil.example through: stored post, JSON-LD, ledger, brief, page, download, webhook, CMS', async () => {
    expectNoEvil('content_html', post.contentHtml)
    expectNoEvil('content_markdown', post.contentMarkdown)
    expect(markdownUrls(post.contentMarkdown).filter((u) => u.includes('evil.example'))).toEqual([])
    expectNoEvil('json_ld', JSON.stringify(post.jsonLd))
    expect(jsonUrls(post.jsonLd).filter((u) => u.includes('evil.example'))).toEqual([])
    expectNoEvil('claims', JSON.stringify(post.claims))
    expectNoEvil('brief', JSON.stringify(post.brief))
    // Every href/src of the stored HTML, of the Markdown as marked renders it and every URL of the JSON-LD: a page
    // read, the user's site, or a fragment.
    expect(postMetrics(post, site()).offList).toEqual([])
    // What the model was told by the hostile page, and what it invented, is not in the post.
    expect(post.contentMarkdown).not.toContain(OBEYED_INSTRUCTION)
    expect(post.contentMarkdown).not.toMatch(/Ignore all previous instructions/i)

    const page = await api(`/blogpost/${post.id}`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expectNoEvil('the post page', page.text)
    for (const format of ['md', 'html']) {
      const file = await api(`/blogpost/${post.id}/download?format=${format}`, { as: user, auth: 'cookie' })
      expect(file.status).toBe(200)
      expectNoEvil(`the ${format} download`, file.text)
    }
    const one = await api(`/api/blogpost/${post.id}`, { as: user })
    expect(one.status).toBe(200)
    expectNoEvil('GET /api/blogpost/:id', one.text)

    // The webhook payload and a CMS copy (Ghost).
    const hook = `/hooks/${user.id}`
    const saved = await api('/api/autopilot/integrations/webhook', {
      method: 'POST',
      as: user,
      json: { webhookUrl: receiver.url(hook) },
    })
    expect(saved.status).toBe(200)
    const ghost = await addGhost(user)
    const published = await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: ['webhook', ghost] },
    })
    expect(published.status).toBeLessThan(300)
    const [delivery] = await receiver.waitForRequests(hook, 1, 30_000)
    expect(delivery!.body).toContain(post.id)
    expectNoEvil('the webhook payload', delivery!.body)
    await waitForPublication(post.id, ghost, ['published'])
    const copy = (await ghostPosts()).find((p) => JSON.stringify(p).includes(post.slug))
    expect(copy).toBeTruthy()
    expectNoEvil('the Ghost copy', JSON.stringify(copy))
  })

  it('shows a claim as sourced only when its figures are in the sentence of the page it cites', () => {
    const claims = readClaims(post.claims)
    expect(claims.length).toBeGreaterThan(0)
    const facts = new Map(evidence.facts.map((f) => [f.sentence, f]))
    const read = new Set(evidence.pages.filter((p) => p.status === 'read').map((p) => pageKey(p.url)))
    for (const c of claims) {
      if (c.status === 'verified') {
        expect(c.sourceUrl, c.text).toBeTruthy()
        expect(read.has(pageKey(c.sourceUrl!)), c.text).toBe(true)
        expect(c.quote, c.text).toBeTruthy()
        // The quote is a fact of that very page, verbatim, and it carries every figure of the claim.
        const fact = facts.get(c.quote!)
        expect(fact, `quote of "${c.text}"`).toBeTruthy()
        expect(pageKey(fact!.url)).toBe(pageKey(c.sourceUrl!))
        expect(figuresIn(c.text, c.quote!), `"${c.text}" against "${c.quote}"`).toBe(true)
        expect(c.evidenceUrl && pageKey(c.evidenceUrl)).toBe(pageKey(c.sourceUrl!))
      } else {
        expect(c.sourceUrl, `${c.status}: ${c.text}`).toBeNull()
        expect(c.sourceTitle).toBeNull()
      }
    }
    // The fake cites real facts verbatim: some claims are verified.
    expect(claims.some((c) => c.status === 'verified')).toBe(true)
    // The invented study (73%, citing a fact that does not say it) and the unsourced figure are not kept as written
    // (default policy: rewrite); the rewrite that still stated a figure was removed instead.
    const originals = claims.filter((c) => c.status === 'rewritten' || c.status === 'removed').map((c) => c.original)
    expect(originals.some((o) => o?.includes('73%'))).toBe(true)
    expect(originals.some((o) => o?.includes('4.2 million'))).toBe(true)
    expect(claims.some((c) => c.status === 'removed' && c.original)).toBe(true)
    expect(unverifiedCount(claims)).toBe(0)
    expect(post.contentMarkdown).not.toMatch(/Stanford study found that 73%/)
    expect(post.contentMarkdown).not.toContain(UNSOURCED_SENTENCE)
    expect(post.contentMarkdown).not.toContain('4.2 million')
    expect(post.contentMarkdown).not.toContain(FIGURE_IN_REWRITE)
    // No fact marker is left in the text: each became a numbered citation or went.
    expect(post.contentMarkdown).not.toMatch(/\[F\d+\]/)
  })

  it('lists exactly the cited pages under Sources, numbered as cited, before and after an edit', async () => {
    const before = postMetrics(post, site())
    expect(before.sourcesMatch).toBe(true)
    expect(before.cited.length).toBeGreaterThanOrEqual(2)
    // Numbered in order of first use: the citations' numbers first appear as 1, 2, 3…
    const firstUse = [...new Set(citationLinks(post.contentMarkdown).map((c) => c.n))]
    expect(firstUse).toEqual(firstUse.map((_, i) => i + 1))

    // The editor's save (a browser without JavaScript): every citation of the first page deleted from the text.
    const gone = citationLinks(post.contentMarkdown)[0]!.page
    const body = splitTitle(post.contentMarkdown).body
    const edited = body.replace(/\[\[\d+\]\((?:[^\s()<>]|\([^\s()<>]*\))+\)\]/g, (citation) =>
      citationLinks(citation)[0] && pageKey(citationLinks(citation)[0]!.page) === pageKey(gone) ? '' : citation,
    )
    expect(edited).not.toBe(body)
    const res = await api(`/blogpost/${post.id}/edit`, {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({
        intent: 'save',
        title: post.title,
        slug: post.slug,
        metaDescription: post.metaDescription,
        body: edited,
      }),
    })
    expect(res.status).toBe(302)
    const after = await load(post.id)
    const m = postMetrics(after, site())
    expect(m.sourcesMatch).toBe(true)
    expect(m.cited).not.toContain(pageKey(gone))
    expect(sourcesList(after.contentMarkdown).map((s) => pageKey(s.url))).not.toContain(pageKey(gone))
    expect(m.cited.length).toBe(before.cited.length - 1)
    expect(m.offList).toEqual([])
    // The ledger does not cite it either.
    for (const c of readClaims(after.claims)) if (c.sourceUrl) expect(pageKey(c.sourceUrl)).not.toBe(pageKey(gone))
  })
})
