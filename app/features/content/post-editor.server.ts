import { and, desc, eq, notInArray } from 'drizzle-orm'
import { postImagesOf } from '#app/features/content/images/storage.server'
import { linkUrls, stripRawHtml, urlSet } from './content'
import type { LinkTarget } from './internal-links'
import { editSchema, replaceSection, sectionsOf, splitTitle, type EditInput, type RewriteInput } from './post-editor'
import { storedPostBody } from '#app/platform/security/sanitize.server'
import { allowMarkdownLinks } from '#app/platform/markdown/links'
import { cleanSectionBody } from './posts'
import { bareDomain } from '#app/features/keywords/serp'
import type { ScoreResult } from './seo-checklist'
import { apiErrors } from '#app/platform/forms/submission'
import { rewritePrompt } from './brief-prompts.server'
import { businessContext, finishPost, storedEvidence, stripFinish } from './content-engine.server'
import { db, schema } from '#app/platform/db/client.server'
import { chatText } from '#app/platform/ai/openai.server'
import { failureReason } from './posts-pipeline.server'
import { getPost } from './posts.server'
import type { Evidence, StoredClaim } from './evidence'
import type { ChecklistContext } from './post-editor-notes'

/**
 * The editor of a finished post: title, slug, meta description and Markdown body. Every save runs the same
 * deterministic finish as generation (citations, internal links, the CTA, 'Sources', claim ledger, score, JSON-LD),
 * sanitizes the HTML again, and keeps a version (the last MAX_VERSIONS per post). 'Rewrite this section' is one
 * model call with the author's instruction; links the model adds that were not there are removed.
 */
export const MAX_VERSIONS = 20
const posts = schema.blogPosts

type Stored = NonNullable<Awaited<ReturnType<typeof getPost>>>
type Context = {
  /** The fact store the post was written from (pages read and their facts). */
  evidence: Evidence
  own: LinkTarget[]
  internal: LinkTarget[]
  targetWords: number
}

function storedContext(post: Stored): Context {
  const steps = (post.steps ?? {}) as { context?: Partial<Context> }
  const c = steps.context ?? {}
  const brief = post.brief as { targetWords?: number } | null
  return {
    evidence: storedEvidence(post),
    own: c.own ?? [],
    internal: c.internal ?? [],
    targetWords: c.targetWords ?? brief?.targetWords ?? 0,
  }
}

/**
 * What the editor's live checklist and its notes need besides the fields (issue 35): the post's keyword, language,
 * target length, own pages and site, claim ledger and images as the last save scored them, and the research pages a
 * link may cite. The checklist is the same pure function the save runs (seo-checklist.ts).
 */
export async function editorContext(post: Stored): Promise<ChecklistContext> {
  const context = storedContext(post)
  const [business, images] = await Promise.all([businessContext(post.userId), postImagesOf(post.id)])
  const claims = Array.isArray(post.claims) ? (post.claims as StoredClaim[]) : []
  return {
    keyword: post.keyword,
    language: post.language || 'English',
    targetWords: context.targetWords || null,
    ownPages: context.own.map((o) => o.url),
    siteHost: business?.website ? bareDomain(new URL(business.website).host) : null,
    claims: claims
      .filter((c) => c && typeof c.text === 'string')
      .map((c) => ({ text: c.text, sourceUrl: c.sourceUrl ?? null, ...(c.status ? { status: c.status } : {}) })),
    images: images.map((i) => ({ id: i.id, role: i.role, alt: i.alt })),
    readPages: context.evidence.pages.filter((p) => p.status === 'read').map((p) => p.url),
  }
}

export type Versions = Array<{ id: string; origin: string; title: string; seoScore: number | null; createdAt: string }>

export async function listVersions(postId: string): Promise<Versions> {
  const rows = await db
    .select({
      id: schema.postVersions.id,
      origin: schema.postVersions.origin,
      title: schema.postVersions.title,
      seoScore: schema.postVersions.seoScore,
      createdAt: schema.postVersions.createdAt,
    })
    .from(schema.postVersions)
    .where(eq(schema.postVersions.postId, postId))
    .orderBy(desc(schema.postVersions.createdAt), desc(schema.postVersions.id))
    .limit(MAX_VERSIONS)
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }))
}

export type SaveOutcome =
  | { ok: true; score: ScoreResult; versionId: string }
  /** A refusal: its message, and the editor's field it is about (`section`), if any. */
  | { ok: false; status: 400 | 404 | 409 | 502; message: string; field?: 'section' }

const notFound = { ok: false, status: 404, message: 'No blog post found.' } as const

/** The user's finished post an edit applies to; or why the edit cannot be made. */
async function editTarget(
  userId: string,
  postId: string,
): Promise<{ ok: true; post: Stored } | Extract<SaveOutcome, { ok: false }>> {
  const post = await getPost(userId, postId)
  if (!post) return notFound
  if (post.status !== 'completed') return { ok: false, status: 409, message: 'This blog post is not ready yet.' }
  return { ok: true, post }
}

/**
 * Saves an edit checked by `editSchema` (the editor's form): finish, score, sanitize, write, keep the version, prune
 * old ones.
 */
export async function saveEdit(
  userId: string,
  postId: string,
  input: EditInput,
  origin: 'edit' | 'rewrite' | 'restore' = 'edit',
): Promise<SaveOutcome> {
  const target = await editTarget(userId, postId)
  if (!target.ok) return target
  return writeEdit(target.post, input, origin)
}

/**
 * Saves fields the app itself took from a stored post (a restored version, an added link), checked as the editor's
 * form is: a version that no longer passes is refused with the form's messages.
 */
export async function saveStoredEdit(
  userId: string,
  postId: string,
  fields: { title: string; slug: string; metaDescription: string; body: string },
  origin: 'edit' | 'restore' = 'edit',
): Promise<SaveOutcome> {
  const parsed = editSchema.safeParse(fields)
  if (!parsed.success) return { ok: false, status: 400, message: apiErrors(parsed.error).message }
  return saveEdit(userId, postId, parsed.data, origin)
}

async function writeEdit(post: Stored, input: EditInput, origin: 'edit' | 'rewrite' | 'restore'): Promise<SaveOutcome> {
  const context = storedContext(post)
  const business = await businessContext(post.userId)
  const now = new Date()
  const finished = finishPost({
    markdown: `# ${input.title}\n\n${splitTitle(input.body).body}\n`,
    keyword: post.keyword,
    title: input.title,
    slug: input.slug,
    metaDescription: input.metaDescription,
    language: post.language || 'English',
    evidence: context.evidence,
    // The author's sentences are never rewritten or removed: an unverified figure is kept, marked, unsourced.
    policy: 'mark',
    targetWords: context.targetWords || null,
    own: context.own,
    internal: context.internal,
    business,
    publishedUrl: post.publishedUrl,
    publishedAt: post.publishedAt ?? post.completedAt ?? post.createdAt,
    modifiedAt: now,
    // The author's own links stay; only the model's are held to the research and the user's site.
    authorLinks: true,

    images: await postImagesOf(post.id),
  })
  // Sanitized once, here, with the version of the rules that made it (served as stored).
  const body = storedPostBody(finished.markdown)
  const html = body.contentHtml
  const versionId = await db.transaction(async (tx) => {
    await tx
      .update(posts)
      .set({
        title: input.title,
        slug: input.slug,
        metaDescription: input.metaDescription,
        contentMarkdown: finished.markdown,
        ...body,
        seoScore: finished.score.score,
        seoChecklist: finished.score.items,
        claims: finished.claims,
        jsonLd: finished.jsonLd,
        editedAt: now,
      })
      .where(eq(posts.id, post.id))
    const [version] = await tx
      .insert(schema.postVersions)
      .values({
        postId: post.id,
        origin,
        title: input.title,
        slug: input.slug,
        metaDescription: input.metaDescription,
        contentMarkdown: finished.markdown,
        contentHtml: html,
        seoScore: finished.score.score,
        createdAt: now,
      })
      .returning({ id: schema.postVersions.id })
    const keep = await tx
      .select({ id: schema.postVersions.id })
      .from(schema.postVersions)
      .where(eq(schema.postVersions.postId, post.id))
      .orderBy(desc(schema.postVersions.createdAt), desc(schema.postVersions.id))
      .limit(MAX_VERSIONS)
    await tx.delete(schema.postVersions).where(
      and(
        eq(schema.postVersions.postId, post.id),
        notInArray(
          schema.postVersions.id,
          keep.map((k) => k.id),
        ),
      ),
    )
    return version!.id
  })
  return { ok: true, score: finished.score, versionId }
}

/** Restores a version: its title, slug, description and text become the post again (as a new version). */
export async function restoreVersion(userId: string, postId: string, versionId: string): Promise<SaveOutcome> {
  const post = await getPost(userId, postId)
  if (!post) return notFound
  const [version] = await db
    .select()
    .from(schema.postVersions)
    .where(and(eq(schema.postVersions.id, versionId), eq(schema.postVersions.postId, post.id)))
    .limit(1)
  if (!version) return { ok: false, status: 404, message: 'That version is no longer kept.' }
  return saveStoredEdit(
    userId,
    postId,
    {
      title: version.title,
      slug: version.slug,
      metaDescription: version.metaDescription,
      body: splitTitle(version.contentMarkdown).body,
    },
    'restore',
  )
}

/**
 * 'Rewrite this section': the H2 section `section` of the (possibly unsaved) edit is rewritten by one model call
 * following the author's instruction, then the whole edit is saved. The model may keep the section's links and
 * research sources; any other link it writes becomes plain text, raw HTML is dropped.
 */
export async function rewriteSection(
  userId: string,
  postId: string,
  input: EditInput,
  wanted: RewriteInput,
): Promise<SaveOutcome> {
  const target = await editTarget(userId, postId)
  if (!target.ok) return target
  const { post } = target
  const body = stripFinish(splitTitle(input.body).body)
  const section = sectionsOf(body)[wanted.section]
  if (!section) return { ok: false, status: 400, message: 'Choose a section.', field: 'section' }

  const context = storedContext(post)
  const business = await businessContext(post.userId)
  let answer: string
  try {
    const result = await chatText({
      ...rewritePrompt({
        keyword: post.keyword,
        language: post.language || 'English',
        title: input.title,
        heading: section.heading,
        body: section.body,
        instruction: wanted.instruction,
        tone: business?.tone ?? null,
      }),
      maxRetries: 1,
      timeoutMs: 60_000,
    })
    answer = result.data
  } catch (error) {
    return {
      ok: false,
      status: 502,
      message: `The section could not be rewritten: ${failureReason(error)}`,
    }
  }
  const keep = urlSet([
    ...linkUrls(section.body),
    ...context.evidence.pages.filter((p) => p.status === 'read').map((p) => p.url),
    ...context.own.map((o) => o.url),
  ])
  const site = business?.website ? bareDomain(new URL(business.website).host) : null
  const allowed = (url: string) => {
    if (keep(url)) return true
    try {
      return site !== null && bareDomain(new URL(url).host) === site
    } catch {
      return false
    }
  }
  const cleaned = cleanSectionBody(allowMarkdownLinks(stripRawHtml(answer), allowed))
  if (!cleaned) return { ok: false, status: 502, message: 'The section could not be rewritten: the answer was empty.' }
  return writeEdit(post, { ...input, body: replaceSection(body, wanted.section, cleaned) }, 'rewrite')
}
