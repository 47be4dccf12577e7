import { and, eq, inArray, sql } from 'drizzle-orm'
import OpenAI from 'openai'
import { z } from 'zod'
import { isRetryableStatus } from '#app/platform/http/http-retry'
import { storedPostBody } from '#app/platform/security/sanitize.server'
import type { LinkTarget } from './internal-links'
import { assembleArticle, clampText, countWords, slugify, titleWithKeyword } from './posts'
import {
  briefJsonSchema,
  briefPrompt,
  briefSchema,
  briefSectionPrompt,
  claimRewritesJsonSchema,
  claimRewritesPrompt,
  claimRewritesSchema,
  type Brief,
  type BriefInput,
  type BusinessContext,
} from './brief-prompts.server'
import {
  briefFacts,
  briefResearch,
  finishPost,
  linkingContext,
  sectionFacts,
  targetWords,
} from './content-engine.server'
import { plainText } from './claims'
import { db, schema } from '#app/platform/db/client.server'
import { imageSourceOf, unverifiedPolicyOf } from './content-settings.server'
import { makePostImages, withFigures } from './images/post-images.server'
import { postImagesOf, type StoredImage } from './images/storage.server'
import { getEnv } from '#app/platform/env.server'
import { AiNotConfiguredError, AiOutputError, chatJson, chatText, type AiUsage } from '#app/platform/ai/openai.server'
import { PROMPT_VERSION } from './prompts.server'
import { evidenceOf, readUrls, research as runResearch, type Research } from './research.server'

/**
 * The generation of one post, as the worker runs it:
 *   research (SERP + the ranking pages, no model) → the brief (1 structured call) → every section in parallel
 *   (1 round trip) → a deterministic finish (links, citations, CTA, sources, claim ledger, score, JSON-LD).
 * Each model answer is checkpointed in blog_posts.steps the moment it arrives, so a job that is retried (an error,
 * a 429, a killed worker) resumes with what is already paid for. The final write happens once: it only applies
 * to a post that is not completed yet.
 */
const posts = schema.blogPosts

/**
 * Per model call: one request, no hidden SDK retries (the queue retries, and a 429 slows the whole queue), within
 * POST_MODEL_TIMEOUT_MS (90 s by default).
 */
const callTimeoutMs = () => getEnv().POST_MODEL_TIMEOUT_MS

type StepRecord<T> = { data: T; usage: AiUsage; model: string; ms: number; at: string }

const usageSchema = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() })
const stepSchema = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ data, usage: usageSchema, model: z.string(), ms: z.number(), at: z.string() })
const briefStep = stepSchema(briefSchema)
const sectionStep = stepSchema(z.string())
const rewritesStep = stepSchema(z.record(z.string()))

/** What research and the user's settings gave the post (checkpointed: a retry writes from the same material). */
type Context = {
  research: Research | null
  business: BusinessContext | null
  own: LinkTarget[]
  internal: LinkTarget[]
  targetWords: number
  researchMs: number
  /** How internal links were ranked: embeddings, or term overlap when they were unavailable. */
  linkMethod?: 'embeddings' | 'terms'
  embeddingTokens?: number
}

export type GenerationOutcome =
  | { outcome: 'completed' | 'already-completed'; source: 'manual' | 'autopilot'; reusedSteps?: number }
  | { outcome: 'missing' | 'failed' }

/** Model output of a previous attempt, if it was written by the current prompt version. */
function readCheckpoints(steps: unknown) {
  const record = (steps ?? {}) as Record<string, unknown>
  if (record.version !== PROMPT_VERSION)
    return {
      fresh: true,
      context: undefined,
      brief: undefined,
      rewrites: undefined,
      sections: new Map<number, StepRecord<string>>(),
    }
  const brief = briefStep.safeParse(record.brief)
  const rewrites = rewritesStep.safeParse(record.rewrites)
  const context = record.context && typeof record.context === 'object' ? (record.context as Context) : undefined
  const sections = new Map<number, StepRecord<string>>()
  for (const [key, value] of Object.entries(record)) {
    const match = /^section:(\d+)$/.exec(key)
    const parsed = match ? sectionStep.safeParse(value) : null
    if (match && parsed?.success) sections.set(Number(match[1]), parsed.data)
  }
  return {
    fresh: false,
    context,
    brief: brief.success ? (brief.data as StepRecord<Brief>) : undefined,
    rewrites: rewrites.success ? (rewrites.data as StepRecord<Record<string, string>>) : undefined,
    sections,
  }
}

const imageStepSchema = z.object({ notes: z.array(z.string()) })

/** The images step of a previous attempt (this prompt version's checkpoints only). */
function imageStepOf(steps: unknown, fresh: boolean) {
  if (fresh) return undefined
  const parsed = imageStepSchema.safeParse(((steps ?? {}) as Record<string, unknown>).images)
  return parsed.success ? parsed.data : undefined
}

/** Adds one step's output to blog_posts.steps (an atomic jsonb merge, safe for parallel sections). */
async function checkpoint(postId: string, key: string, value: unknown) {
  await db
    .update(posts)
    .set({ steps: sql`${posts.steps} || ${JSON.stringify({ [key]: value })}::jsonb` })
    .where(eq(posts.id, postId))
}

function record<T>(result: { data: T; usage: AiUsage; model: string; ms: number }): StepRecord<T> {
  return { data: result.data, usage: result.usage, model: result.model, ms: result.ms, at: new Date().toISOString() }
}

function sumUsage(records: Array<StepRecord<unknown>>): AiUsage {
  return records.reduce(
    (sum, r) => ({
      promptTokens: sum.promptTokens + r.usage.promptTokens,
      completionTokens: sum.completionTokens + r.usage.completionTokens,
      totalTokens: sum.totalTokens + r.usage.totalTokens,
    }),
    { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  )
}

/** Of several failed parallel calls, the error that decides what happens next: a final one, then a 429. */
function decisiveError(errors: unknown[]): unknown {
  const final = errors.find((e) => isFinalError(e))
  if (final) return final
  return errors.find((e) => e instanceof OpenAI.APIError && e.status === 429) ?? errors[0]
}

/** Errors that no retry will fix: bad request, credentials, unknown model, exhausted account, AI switched off. */
export function isFinalError(error: unknown): boolean {
  if (error instanceof AiNotConfiguredError) return true
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    if (error.status === 429) return error.code === 'insufficient_quota'
    return error.status >= 400 && !isRetryableStatus(error.status) && error.status !== 409
  }
  return false
}

/** What the library says after 'Failed:'. */
export function failureReason(error: unknown): string {
  if (error instanceof AiNotConfiguredError) return 'Writing posts is not available on this workspace yet.'
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    if (error.status === 401 || error.status === 403) return 'The AI service refused our credentials.'
    if (error.status === 404) return 'The AI model is not available.'
    if (error.status === 429 && error.code === 'insufficient_quota') return 'The AI service has no credit left.'
    if (error.status === 429) return 'The AI service was too busy for too long.'
    if (error.status < 500) return 'The AI service rejected the request.'
    return 'The AI service did not answer after several attempts.'
  }
  if (error instanceof OpenAI.APIConnectionError) return 'The AI service could not be reached after several attempts.'
  if (error instanceof AiOutputError) return 'The AI model gave an answer we could not use, several times.'
  return 'Something went wrong while writing the post.'
}

export async function generatePost(postId: string): Promise<GenerationOutcome> {
  const started = Date.now()
  const [post] = await db.select().from(posts).where(eq(posts.id, postId)).limit(1)
  if (!post) return { outcome: 'missing' }
  if (post.status === 'completed') return { outcome: 'already-completed', source: post.source }
  if (post.status === 'failed') return { outcome: 'failed' }

  // Checkpoints of another prompt version (or none yet) are replaced by an empty set for this version.
  const saved = readCheckpoints(post.steps)
  await db
    .update(posts)
    .set({ status: 'generating', ...(saved.fresh ? { steps: { version: PROMPT_VERSION } } : {}) })
    .where(and(eq(posts.id, postId), inArray(posts.status, ['queued', 'generating'])))
  let reused = 0

  // Research and context (no model): the SERP and the ranking pages, the business, the pages to link to.
  let context = saved.context
  if (context) reused++
  else {
    const t = Date.now()
    const [keywordRow] = post.keywordId
      ? await db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.id, post.keywordId)).limit(1)
      : []
    // The SERP and pages on one side; the business, its pages and their relevance (embeddings) on the other.
    const [research, linking] = await Promise.all([
      keywordRow
        ? runResearch({
            keyword: post.keyword,
            countryCode: keywordRow.countryCode,
            languageCode: keywordRow.languageCode,
          })
        : Promise.resolve(null),
      linkingContext(post),
    ])
    context = { research, ...linking, targetWords: targetWords(research), researchMs: Date.now() - t }
    await checkpoint(postId, 'context', context)
  }
  const input: BriefInput = {
    keyword: post.keyword,
    language: post.language || 'English',
    targetWords: context.targetWords,
    research: briefResearch(context.research),
    business: context.business,
    secondaryKeywords: post.secondaryKeywords,
  }
  // The fact store: the pages read and their facts, cited by id (F1…).
  const evidence = evidenceOf(context.research)

  // Round trip 1: the brief (with the title, introduction, outline, facts with sources, FAQ and conclusion).
  let brief = saved.brief
  let briefMs = 0
  if (brief) reused++
  else {
    const prompt = briefPrompt(input)
    const t = Date.now()
    brief = record(
      await chatJson({
        ...prompt,
        jsonSchema: briefJsonSchema(evidence.facts.map((f) => f.id)),
        parse: briefSchema,
        maxRetries: 0,
        timeoutMs: callTimeoutMs(),
      }),
    )
    briefMs = Date.now() - t
    await checkpoint(postId, 'brief', brief)
  }
  const b = brief.data

  // Round trip 2: every section at once; each is saved as soon as it arrives.
  const sectionsStarted = Date.now()
  const results = await Promise.allSettled(
    b.sections.map(async (_, index) => {
      const done = saved.sections.get(index)
      if (done) {
        reused++
        return done
      }
      const links = context.internal.filter((_, i) => i % b.sections.length === index)
      const step = record(
        await chatText({
          ...briefSectionPrompt({ ...input, brief: b, index, facts: sectionFacts(b, index, evidence), links }),
          maxRetries: 0,
          timeoutMs: callTimeoutMs(),
        }),
      )
      await checkpoint(postId, `section:${index}`, step)
      return step
    }),
  )
  const sectionsMs = Date.now() - sectionsStarted
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
  if (failures.length) throw decisiveError(failures)
  const sections = results.map((r) => (r as PromiseFulfilledResult<StepRecord<string>>).value)

  // Assembly and the deterministic finish: one Markdown article, its sanitized HTML, claims, score and JSON-LD.
  const assembleStarted = Date.now()
  const title = titleWithKeyword(b.title, post.keyword)
  const slug = slugify(b.slug) || slugify(title)
  const metaDescription = clampText(b.metaDescription, 160)
  const assembled = assembleArticle({
    title,
    introduction: b.introduction,
    sections: b.sections.map((s, i) => ({ heading: s.heading, body: sections[i]!.data })),
    faqHeading: b.faqHeading,
    faq: b.faq,
    conclusionHeading: b.conclusionHeading,
    conclusion: b.conclusion,
  })
  const policy = await unverifiedPolicyOf(post.userId)
  const finish = (rewrites?: Record<string, string>, images: StoredImage[] = []) =>
    finishPost({
      markdown: assembled,
      keyword: post.keyword,
      title,
      slug,
      metaDescription,
      language: input.language,
      evidence,
      policy,
      rewrites,
      targetWords: context.targetWords,
      own: context.own,
      internal: context.internal,
      business: context.business,
      publishedUrl: post.publishedUrl,
      publishedAt: new Date(),
      modifiedAt: null,
      images,
    })
  let finished = finish(saved.rewrites?.data)
  const assembleMs = Date.now() - assembleStarted

  // Round trip 3, only when figures could not be verified and the user wants them rewritten: one call for all.
  let rewrites = saved.rewrites
  let rewriteMs = 0
  const notes: string[] = []
  if (finished.pending.length) {
    const t = Date.now()
    const sentences = finished.pending.slice(0, 40)
    try {
      const answer = await chatJson({
        ...claimRewritesPrompt({ keyword: post.keyword, language: input.language, sentences }),
        jsonSchema: claimRewritesJsonSchema(),
        parse: claimRewritesSchema,
        maxRetries: 0,
        timeoutMs: callTimeoutMs(),
      })
      const byId = new Map(answer.data.rewrites.map((r) => [r.id.trim().toUpperCase(), r.text]))
      const data = { ...(rewrites?.data ?? {}) }
      sentences.forEach((sentence, i) => {
        const text = byId.get(`C${i + 1}`)
        if (text !== undefined) data[sentence] = text
      })
      rewrites = record({ ...answer, data })
      await checkpoint(postId, 'rewrites', rewrites)
    } catch (error) {
      // The sentences stay removed (never shown as sourced); the post is not failed for them.
      console.error('[posts] the rewrite of unverified figures failed:', (error as Error).message)
      notes.push(
        `${sentences.length} sentence${sentences.length === 1 ? '' : 's'} with figures we could not verify ${sentences.length === 1 ? 'was' : 'were'} removed: the rewrite did not answer.`,
      )
    }
    rewriteMs = Date.now() - t
    if (rewrites) finished = finish(rewrites.data)
  }
  // Images (issue 33), once the text is done: each stored image is a checkpoint of its own (a retry finds it and
  // pays nothing again), and `steps.images` records that this post's images were made (or could not be).
  const imagesStarted = Date.now()
  const imageStep = imageStepOf(post.steps, saved.fresh)
  let images: StoredImage[]
  let imageTimings: { processMs: number[]; fetchMs: number[] } = { processMs: [], fetchMs: [] }
  if (imageStep) {
    images = await postImagesOf(postId)
    notes.push(...imageStep.notes)
  } else {
    const source = await imageSourceOf(post.userId)
    const made = await makePostImages({
      postId,
      userId: post.userId,
      title,
      keyword: post.keyword,
      sections: b.sections,
      markdown: finished.markdown,
      source,
    })
    images = made.images
    imageTimings = { processMs: made.processMs, fetchMs: made.fetchMs }
    notes.push(...made.notes)
    await checkpoint(postId, 'images', {
      source,
      ids: images.map((i) => i.id),
      notes: made.notes,
      ...imageTimings,
      at: new Date().toISOString(),
    })
  }
  finished = finish(rewrites?.data, images)
  // Figures on lines of their own after their section's first paragraph (the only relative URL a body may embed).
  const markdown = withFigures(finished.markdown, images)
  const imagesMs = Date.now() - imagesStarted
  // Sanitized once, and every href and src held to the same allowlist as the Markdown.
  const body = storedPostBody(markdown, { allowUrl: finished.allowUrl })
  const html = body.contentHtml
  const usage = sumUsage([brief, ...sections, ...(rewrites ? [rewrites] : [])])
  const modelMs = brief.ms + Math.max(0, ...sections.map((s) => s.ms)) + (rewrites?.ms ?? 0)
  const storedBrief = {
    // The model's words are plain text here (no links survive); the facts are the store's own sentences.
    searchIntent: b.searchIntent,
    reader: plainText(b.reader),
    angle: plainText(b.angle),
    targetWords: context.targetWords,
    outline: b.sections.map((s) => ({
      heading: plainText(s.heading),
      subheadings: s.subheadings.map(plainText),
      keyPoints: s.keyPoints.map(plainText),
    })),
    questions: b.faq.map((f) => plainText(f.question)),
    facts: briefFacts(b, evidence),
    researchStatus: input.research.status,
    researchNotes: [
      ...(context.research?.notes ?? ['Written without search data: no keyword market was known for this post.']),
      ...notes,
    ],
    competitors: input.research.sources.map((s) => ({ url: s.url, title: plainText(s.title), words: s.words })),
    pagesRead: readUrls(context.research).length,
    peopleAlsoAsk: input.research.peopleAlsoAsk,
    /** Issue 36: the sibling searches of a cluster's post, which the brief was asked to cover. */
    secondaryKeywords: post.secondaryKeywords,
    internalLinks: context.internal,
    linkMethod: context.linkMethod ?? 'terms',
    business: context.business ? { product: context.business.product, tone: context.business.tone } : null,
  }
  const timings = {
    queuedMs: started - post.createdAt.getTime(),
    researchMs: context.researchMs,
    briefMs,
    sectionsMs,
    sectionMs: sections.map((s) => s.ms),
    assembleMs,
    rewriteMs,
    /** Issue 33: the images (fetch, process, store) of this attempt, and per image made now. */
    imagesMs,
    imageCount: images.length,
    imageProcessMs: imageTimings.processMs,
    imageFetchMs: imageTimings.fetchMs,
    /** This attempt, from pick-up to the final write. */
    totalMs: Date.now() - started,
    /** The model's own time along the critical path (brief + slowest section), including reused steps. */
    modelCriticalPathMs: modelMs,
    sequentialModelCalls: rewrites ? 3 : 2,
    modelCalls: 1 + sections.length + (rewrites ? 1 : 0),
    /** The embeddings call runs alongside research (not on the model's critical path). */
    embeddingCalls: context.linkMethod === 'embeddings' ? 1 : 0,
    embeddingTokens: context.embeddingTokens ?? 0,
    linkMethod: context.linkMethod ?? 'terms',
    reusedSteps: reused,
    words: countWords(markdown),
  }

  const [written] = await db
    .update(posts)
    .set({
      status: 'completed',
      failureReason: null,
      title,
      slug,
      metaDescription,
      contentMarkdown: markdown,
      contentHtml: html,
      sanitizerVersion: body.sanitizerVersion,
      brief: storedBrief,
      researchStatus: input.research.status,
      seoScore: finished.score.score,
      seoChecklist: finished.score.items,
      claims: finished.claims,
      evidence,
      jsonLd: finished.jsonLd,
      model: brief.model,
      promptVersion: PROMPT_VERSION,
      usage,
      timings,
      completedAt: new Date(),
    })
    .where(and(eq(posts.id, postId), inArray(posts.status, ['queued', 'generating'])))
    .returning({ source: posts.source })
  if (!written) {
    const [now] = await db
      .select({ status: posts.status, source: posts.source })
      .from(posts)
      .where(eq(posts.id, postId))
    return now?.status === 'completed' ? { outcome: 'already-completed', source: now.source } : { outcome: 'failed' }
  }
  await db.insert(schema.postVersions).values({
    postId,
    origin: 'generated',
    title,
    slug,
    metaDescription,
    contentMarkdown: markdown,
    contentHtml: html,
    seoScore: finished.score.score,
  })
  return { outcome: 'completed', source: written.source, reusedSteps: reused }
}
