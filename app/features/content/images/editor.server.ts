import { getPost } from '#app/features/content/posts.server'
import { imageSourceOf } from '#app/features/content/content-settings.server'
import { saveStoredEdit } from '#app/features/content/post-editor.server'
import { splitTitle } from '#app/features/content/post-editor'
import { getEnv } from '#app/platform/env.server'
import { ALT_MAX, figureLine, plainLine } from './images'
import { imageFailureNote, makeImage, sectionLeads, slotsOf, storeMadeImage } from './post-images.server'
import { ImageRefusedError, processImage } from './processing.server'
import { imageOf, postImagesOf, setImageAlt, storeImage, type StoredImage } from './storage.server'

/**
 * Issue 33, the editor's image actions: edit an image's alt text, replace an image with an uploaded file (checked
 * and re-encoded by sharp, its metadata stripped), or regenerate it (a new generated or stock image). Each change
 * stores a new image (a new id) in the same slot, puts it in the body where the old figure was, and saves the post
 * as an edit (its checklist follows the real images).
 */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024
export const IMAGE_MESSAGES = {
  altSaved: 'Alt text saved.',
  replaced: 'Image replaced.',
  regenerated: 'New image made.',
  altInvalid: `Alt text must be plain text of 1 to ${ALT_MAX} characters.`,
  noFile: 'Choose an image file to upload.',
  tooBig: 'That file is too large: images up to 10 MB.',
  notFound: 'That image no longer exists. Reload the page.',
} as const

export type ImageActionResult =
  { ok: true; message: string } | { ok: false; status: 400 | 404 | 409 | 502; message: string }

async function editablePost(userId: string, postId: string) {
  const post = await getPost(userId, postId)
  return post && post.status === 'completed' ? post : null
}

/** Saves the post with its body's figure for `old` pointing at `image` (or unchanged for the featured image). */
async function saveWith(
  userId: string,
  post: NonNullable<Awaited<ReturnType<typeof getPost>>>,
  old: string | null,
  image: StoredImage,
) {
  let markdown = post.contentMarkdown
  if (image.role === 'figure') {
    const lines = markdown.split('\n')
    const at = lines.findIndex((l) => l.includes(`](/images/${old ?? image.id}.jpg)`))
    if (at >= 0) lines[at] = figureLine(image.id, image.alt)
    markdown = lines.join('\n')
  }
  return saveStoredEdit(userId, post.id, {
    title: post.title,
    slug: post.slug,
    metaDescription: post.metaDescription,
    body: splitTitle(markdown).body,
  })
}

function refusal(outcome: Awaited<ReturnType<typeof saveStoredEdit>>): ImageActionResult | null {
  if (outcome.ok) return null
  return { ok: false, status: outcome.status === 404 ? 404 : 409, message: outcome.message }
}

export async function updateImageAlt(
  userId: string,
  postId: string,
  imageId: string,
  raw: string,
): Promise<ImageActionResult> {
  const alt = plainLine(raw)
  if (!alt || alt.length > ALT_MAX) return { ok: false, status: 400, message: IMAGE_MESSAGES.altInvalid }
  const post = await editablePost(userId, postId)
  const image = await imageOf(userId, imageId)
  if (!post || !image || image.postId !== post.id) return { ok: false, status: 404, message: IMAGE_MESSAGES.notFound }
  const updated = (await setImageAlt(userId, imageId, alt))!
  return refusal(await saveWith(userId, post, imageId, updated)) ?? { ok: true, message: IMAGE_MESSAGES.altSaved }
}

export async function replaceImage(
  userId: string,
  postId: string,
  imageId: string,
  file: File | null,
): Promise<ImageActionResult> {
  if (!file || file.size === 0) return { ok: false, status: 400, message: IMAGE_MESSAGES.noFile }
  if (file.size > UPLOAD_MAX_BYTES) return { ok: false, status: 400, message: IMAGE_MESSAGES.tooBig }
  const post = await editablePost(userId, postId)
  const image = await imageOf(userId, imageId)
  if (!post || !image || image.postId !== post.id) return { ok: false, status: 404, message: IMAGE_MESSAGES.notFound }
  let processed
  try {
    processed = await processImage(Buffer.from(await file.arrayBuffer()), {
      role: image.role,
      metadata: { description: image.alt, origin: 'upload' },
      maxBytes: getEnv().IMAGE_MAX_BYTES,
    })
  } catch (error) {
    if (error instanceof ImageRefusedError) return { ok: false, status: 400, message: error.message }
    throw error
  }
  // An upload is the author's own file: no credit, no model, and no AI marker.
  const stored = await storeImage(
    {
      userId,
      postId,
      role: image.role,
      position: image.position,
      source: 'upload',
      alt: image.alt,
      prompt: '',
      model: null,
      credit: null,
      width: processed.width,
      height: processed.height,
    },
    processed,
  )
  return refusal(await saveWith(userId, post, imageId, stored)) ?? { ok: true, message: IMAGE_MESSAGES.replaced }
}

/** A new image for a slot (the featured image, or the figure of section `position`), from the user's image source. */
export async function regenerateImage(
  userId: string,
  postId: string,
  slot: { role: 'featured' | 'figure'; position: number },
): Promise<ImageActionResult> {
  const post = await editablePost(userId, postId)
  if (!post) return { ok: false, status: 404, message: IMAGE_MESSAGES.notFound }
  const existing = (await postImagesOf(postId)).find((i) => i.role === slot.role && i.position === slot.position)
  if (slot.role === 'figure' && !existing) return { ok: false, status: 404, message: IMAGE_MESSAGES.notFound }
  const chosen = await imageSourceOf(userId)
  const source = chosen === 'none' ? 'generated' : chosen
  const headings = [...post.contentMarkdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]!)
  const leads = sectionLeads(post.contentMarkdown)
  const target =
    slot.role === 'featured'
      ? slotsOf({ title: post.title, sections: [] })[0]!
      : {
          role: 'figure' as const,
          position: slot.position,
          section: headings[slot.position] ?? post.title,
          context: leads[slot.position] ?? '',
        }
  try {
    const used = existing?.credit ? [(existing.credit as { photoUrl: string }).photoUrl] : []
    const made = await makeImage(source, target, { title: post.title, keyword: post.keyword }, used)
    const stored = await storeMadeImage(userId, postId, slot, source, made)
    return (
      refusal(await saveWith(userId, post, existing?.id ?? null, stored)) ?? {
        ok: true,
        message: IMAGE_MESSAGES.regenerated,
      }
    )
  } catch (error) {
    console.error('[images] regenerate failed:', (error as Error).message)
    return { ok: false, status: 502, message: imageFailureNote(error, 1).split(':')[0]! + '. Try again in a moment.' }
  }
}
