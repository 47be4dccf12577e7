import { and, eq, inArray, sql } from 'drizzle-orm'
import OpenAI from 'openai'
import { z } from 'zod'
import { isRetryableStatus } from '#app/lib/http-retry'
import { renderPostBody } from '#app/lib/markdown'
import { assembleArticle, clampText, countWords, slugify, titleWithKeyword } from '#app/lib/posts'
import { db, schema } from './db.server'
import { AiNotConfiguredError, AiOutputError, chatJson, chatText, type AiUsage } from './openai.server'
import {
  outlineJsonSchema,
  outlinePrompt,
  outlineSchema,
  PROMPT_VERSION,
  sectionPrompt,
  type Outline,
} from './prompts.server'

/**
 * The generation of one post, as the worker runs it:
 *   outline (1 structured call) → every section in parallel (1 round trip) → one assembled Markdown article.
 * Each model answer is checkpointed in blog_posts.steps the moment it arrives, so a job that is retried (an error,
 * a 429, a killed worker) resumes with what is already paid for. The final write happens once: it only applies
 * to a post that is not completed yet.
 */
const posts = schema.blogPosts

/** Per model call: one request, no hidden SDK retries (the queue retries, and a 429 slows the whole queue). */
const CALL_TIMEOUT_MS = 90_000

type StepRecord<T> = { data: T; usage: AiUsage; model: string; ms: number; at: string }

const usageSchema = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() })
const stepSchema = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ data, usage: usageSchema, model: z.string(), ms: z.number(), at: z.string() })
const outlineStep = stepSchema(outlineSchema)
const sectionStep = stepSchema(z.string())

export type GenerationOutcome =
  | { outcome: 'completed' | 'already-completed'; source: 'manual' | 'autopilot'; reusedSteps?: number }
  | { outcome: 'missing' | 'failed' }

/** Model output of a previous attempt, if it was written by the current prompt version. */
function readCheckpoints(steps: unknown) {
  const record = (steps ?? {}) as Record<string, unknown>
  if (record.version !== PROMPT_VERSION)
    return { fresh: true, outline: undefined, sections: new Map<number, StepRecord<string>>() }
  const outline = outlineStep.safeParse(record.outline)
  const sections = new Map<number, StepRecord<string>>()
  for (const [key, value] of Object.entries(record)) {
    const match = /^section:(\d+)$/.exec(key)
    const parsed = match ? sectionStep.safeParse(value) : null
    if (match && parsed?.success) sections.set(Number(match[1]), parsed.data)
  }
  return { fresh: false, outline: outline.success ? (outline.data as StepRecord<Outline>) : undefined, sections }
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
  if (error instanceof AiNotConfiguredError) return 'AI writing is not configured on this server.'
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
  const input = { keyword: post.keyword, language: post.language || 'English' }

  // Round trip 1: the outline (with introduction, FAQ and conclusion).
  let outline = saved.outline
  let outlineMs = 0
  if (outline) reused++
  else {
    const prompt = outlinePrompt(input)
    const t = Date.now()
    outline = record(
      await chatJson({
        ...prompt,
        jsonSchema: outlineJsonSchema,
        parse: outlineSchema,
        maxRetries: 0,
        timeoutMs: CALL_TIMEOUT_MS,
      }),
    )
    outlineMs = Date.now() - t
    await checkpoint(postId, 'outline', outline)
  }

  // Round trip 2: every section at once; each is saved as soon as it arrives.
  const sectionsStarted = Date.now()
  const results = await Promise.allSettled(
    outline.data.sections.map(async (_, index) => {
      const done = saved.sections.get(index)
      if (done) {
        reused++
        return done
      }
      const step = record(
        await chatText({
          ...sectionPrompt({ ...input, outline: outline.data, index }),
          maxRetries: 0,
          timeoutMs: CALL_TIMEOUT_MS,
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

  // Assembly: one Markdown article, and its sanitized HTML.
  const assembleStarted = Date.now()
  const o = outline.data
  const title = titleWithKeyword(o.title, post.keyword)
  const markdown = assembleArticle({
    title,
    introduction: o.introduction,
    sections: o.sections.map((s, i) => ({ heading: s.heading, body: sections[i]!.data })),
    faqHeading: o.faqHeading,
    faq: o.faq,
    conclusionHeading: o.conclusionHeading,
    conclusion: o.conclusion,
  })
  const html = renderPostBody(markdown)
  const usage = sumUsage([outline, ...sections])
  const modelMs = outline.ms + Math.max(0, ...sections.map((s) => s.ms))
  const timings = {
    queuedMs: started - post.createdAt.getTime(),
    outlineMs,
    sectionsMs,
    sectionMs: sections.map((s) => s.ms),
    assembleMs: Date.now() - assembleStarted,
    /** This attempt, from pick-up to the final write. */
    totalMs: Date.now() - started,
    /** The model's own time along the critical path (outline + slowest section), including reused steps. */
    modelCriticalPathMs: modelMs,
    sequentialModelCalls: 2,
    modelCalls: 1 + sections.length,
    reusedSteps: reused,
    words: countWords(markdown),
  }

  const [written] = await db
    .update(posts)
    .set({
      status: 'completed',
      failureReason: null,
      title,
      slug: slugify(o.slug) || slugify(title),
      metaDescription: clampText(o.metaDescription, 160),
      contentMarkdown: markdown,
      contentHtml: html,
      model: outline.model,
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
  return { outcome: 'completed', source: written.source, reusedSteps: reused }
}
