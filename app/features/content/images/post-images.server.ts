import crypto from 'node:crypto'
import OpenAI from 'openai'
import { AiNotConfiguredError } from '#app/platform/ai/openai.server'
import { getEnv } from '#app/platform/env.server'
import {
  altText,
  creditLine,
  figureSections,
  imagePrompt,
  placeFigures,
  stockQuery,
  type ImageCredit,
  type ImageView,
  type OutlineSection,
} from './images'
import { ImageRefusedError, processImage, type ImageMetadata } from './processing.server'
import { generateImage, ImageSourceError, stockPhoto, stockProvider, type Fetched } from './sources.server'
import { IMAGE_EXTENSION, postImagesOf, storeImage, type ImageFormat, type StoredImage } from './storage.server'

/**
 * Issue 33: a post's images, made after its text is finished (inside the post's job): a featured image and the
 * figures its outline asks for (`figureSections`), from the user's image source. Each stored image is its own
 * checkpoint: a retried job finds the slot filled and pays nothing again. An image that cannot be made leaves its
 * slot empty and a note in the post's research notes, in product words; it never fails the post.
 */
export type ImageSource = 'generated' | 'stock' | 'none'

export type Slot = { role: 'featured' | 'figure'; position: number; section: string | null; context: string }

export type MadeImages = {
  images: StoredImage[]
  notes: string[]
  /** Per image made now: resize + encode + metadata (ms). */
  processMs: number[]
  /** Per image made now: the source's answer (ms). */
  fetchMs: number[]
  reused: number
}

/** The slots of a post: the featured image (position 0) and a figure per chosen section (position = its index). */
export function slotsOf(input: { title: string; sections: OutlineSection[]; firstParagraphs?: string[] }): Slot[] {
  return [
    { role: 'featured', position: 0, section: null, context: input.title },
    ...figureSections(input.sections).map((i) => ({
      role: 'figure' as const,
      position: i,
      section: input.sections[i]!.heading,
      context: input.firstParagraphs?.[i] ?? input.sections[i]!.heading,
    })),
  ]
}

/** The first paragraph (plain Markdown) of each H2 section of a body, in order. */
export function sectionLeads(markdown: string): string[] {
  const parts = markdown.split(/^## .*$/m).slice(1)
  return parts.map((p) => {
    const para = p
      .split(/\n\s*\n/)
      .map((b) => b.trim())
      .find((b) => b && !/^(#|!\[|\||>|[-*]\s|\d+\.\s)/.test(b))
    return para ?? ''
  })
}

function firstSentence(text: string): string {
  const m = /^(.{20,}?[.!?])(\s|$)/.exec(
    text
      .replace(/\[\[?\d+\]?\]\([^)]*\)/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  )
  return m ? m[1]! : text
}

/** The product words for why the images are missing. */
export function imageFailureNote(error: unknown, count: number): string {
  const what = count === 1 ? 'An image' : `${count} images`
  const why =
    error instanceof AiNotConfiguredError
      ? 'image generation is not available on this workspace yet'
      : error instanceof ImageSourceError && error.reason === 'not-configured'
        ? 'stock photos are not available on this workspace yet'
        : error instanceof ImageSourceError && error.reason === 'no-result'
          ? 'no suitable photo was found'
          : error instanceof ImageRefusedError
            ? 'what came back was not an image we could use'
            : error instanceof OpenAI.APIError && (error.status === 401 || error.status === 403)
              ? 'the image service refused the request'
              : 'the image service did not answer'
  return `${what} could not be made (${why}): the post is complete without ${count === 1 ? 'it' : 'them'}. You can add ${count === 1 ? 'it' : 'them'} from the editor with 'Regenerate'.`
}

/** Fetches and processes one image for a slot (nothing stored). */
/** Stores an image `makeImage` made in its slot (row and files together, replacing the slot's old image). */
export async function storeMadeImage(
  userId: string,
  postId: string,
  slot: Pick<Slot, 'role' | 'position'>,
  source: Exclude<ImageSource, 'none'>,
  made: Awaited<ReturnType<typeof makeImage>>,
) {
  return storeImage(
    {
      userId,
      postId,
      role: slot.role,
      position: slot.position,
      source,
      alt: made.alt,
      prompt: made.prompt,
      model: made.fetched.model ?? null,
      credit: made.fetched.credit ?? null,
      width: made.processed.width,
      height: made.processed.height,
    },
    made.processed,
  )
}

export async function makeImage(
  source: Exclude<ImageSource, 'none'>,
  slot: Slot,
  post: { title: string; keyword: string },
  exclude: string[] = [],
): Promise<{
  fetched: Fetched
  processed: Awaited<ReturnType<typeof processImage>>
  alt: string
  prompt: string
  fetchMs: number
}> {
  const t = Date.now()
  const prompt =
    source === 'generated'
      ? imagePrompt({ title: post.title, keyword: post.keyword, section: slot.section })
      : stockQuery({ keyword: post.keyword, section: slot.section })
  const fetched = source === 'generated' ? await generateImage(prompt) : await stockPhoto(prompt, exclude)
  const fetchMs = Date.now() - t
  // Alt text from the content: a stock photo's own description (what it shows) with the post's subject, or for a
  // generated image the sentence it illustrates.
  const alt =
    source === 'stock' && fetched.description
      ? altText(fetched.description, slot.section ?? post.keyword)
      : altText(slot.role === 'featured' ? post.title : firstSentence(slot.context) || slot.section || post.title)
  const metadata: ImageMetadata = {
    description: alt,
    origin: source,
    credit: fetched.credit
      ? creditLine(fetched.credit)
      : source === 'generated'
        ? `Generated with ${fetched.model ?? 'AI'}`
        : null,
  }
  const processed = await processImage(fetched.bytes, {
    role: slot.role,
    metadata,
    maxBytes: getEnv().IMAGE_MAX_BYTES,
  })
  return { fetched, processed, alt, prompt, fetchMs }
}

/** Makes (or finds, on a retry) every image of a post, stores them, and returns them with the notes for what failed. */
export async function makePostImages(input: {
  postId: string
  userId: string
  title: string
  keyword: string
  sections: OutlineSection[]
  markdown: string
  source: ImageSource
}): Promise<MadeImages> {
  const result: MadeImages = { images: [], notes: [], processMs: [], fetchMs: [], reused: 0 }
  if (input.source === 'none') return result
  const existing = await postImagesOf(input.postId)
  const slots = slotsOf({ title: input.title, sections: input.sections, firstParagraphs: sectionLeads(input.markdown) })
  const failures: unknown[] = []
  const used: string[] = existing.flatMap((i) => (i.credit ? [(i.credit as ImageCredit).photoUrl] : []))
  // One at a time: the Images API is slow and rate-limited, and a stock post must not use the same photo twice.
  for (const slot of slots) {
    const done = existing.find((i) => i.role === slot.role && i.position === slot.position)
    if (done) {
      result.images.push(done)
      result.reused++
      continue
    }
    try {
      const made = await makeImage(input.source, slot, input, used)
      if (made.fetched.credit) used.push(made.fetched.credit.photoUrl, made.fetched.credit.photoUrl.split('?')[0]!)
      const stored = await storeMadeImage(input.userId, input.postId, slot, input.source, made)
      result.images.push(stored)
      result.processMs.push(made.processed.ms)
      result.fetchMs.push(made.fetchMs)
    } catch (error) {
      console.error(`[images] ${slot.role} ${slot.position} of post ${input.postId}:`, (error as Error).message)
      failures.push(error)
      // A source that is down (or not configured) is not asked again for the other slots of this post.
      if (
        !(error instanceof ImageSourceError && error.reason === 'no-result') &&
        !(error instanceof ImageRefusedError)
      ) {
        failures.push(
          ...slots
            .slice(slots.indexOf(slot) + 1)
            .filter((s) => !existing.some((i) => i.role === s.role && i.position === s.position))
            .map(() => error),
        )
        break
      }
    }
  }
  if (failures.length) result.notes.push(imageFailureNote(failures[0], failures.length))
  return result
}

/** The body with the figures of `images` placed (after their section's first paragraph). */
export function withFigures(markdown: string, images: StoredImage[]): string {
  return placeFigures(
    markdown,
    images.filter((i) => i.role === 'figure').map((i) => ({ position: i.position, imageId: i.id, alt: i.alt })),
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Signed URLs (the webhook's receivers fetch images without a session)
// ---------------------------------------------------------------------------------------------------------------

function signature(imageId: string, ext: string, expires: number) {
  const key = crypto.createHash('sha256').update(`rankwell-images|${getEnv().SESSION_SECRETS[0]}`).digest()
  return crypto.createHmac('sha256', key).update(`${imageId}.${ext}|${expires}`).digest('base64url')
}

/** An absolute URL of an image's file that works without a session until `ttlSeconds` from now (default 7 days). */
export function signedImageUrl(image: Pick<StoredImage, 'id'>, format: ImageFormat, ttlSeconds = 7 * 24 * 3600) {
  const ext = IMAGE_EXTENSION[format]
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds
  const base = getEnv().APP_URL.replace(/\/+$/, '')
  return `${base}/images/${image.id}.${ext}?exp=${expires}&sig=${signature(image.id, ext, expires)}`
}

/** Whether `exp` and `sig` of a request are a valid, unexpired signature for that file. */
export function verifyImageSignature(imageId: string, ext: string, exp: string | null, sig: string | null): boolean {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false
  const expires = Number(exp)
  if (expires < Date.now() / 1000) return false
  const expected = Buffer.from(signature(imageId, ext, expires))
  const given = Buffer.from(sig)
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
}

export { stockProvider }

/** A post's images as the screens show them (featured first, then figures). */
export async function imageViews(postId: string): Promise<ImageView[]> {
  return (await postImagesOf(postId)).map((i) => ({
    id: i.id,
    role: i.role,
    position: i.position,
    alt: i.alt,
    width: i.width,
    height: i.height,
    source: i.source,
    credit: (i.credit as ImageCredit | null) ?? null,
  }))
}
