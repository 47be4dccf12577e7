import type { EditorFields } from './post-editor-notes'

/**
 * The editor's autosaved draft (issue 35: work is never lost): the fields as typed, kept in the browser's
 * localStorage under one key per user and post, with the version of the post they started from. Pure: reading,
 * comparing and wording; the editor does the storing.
 */
export type Draft = EditorFields & {
  v: 1
  /** When the draft was written (ISO). */
  savedAt: string
  /** The post's version the edit started from (its id; 'none' before the first version). */
  base: string
  /** The editor sent the draft for a save or a rewrite: if the post's version then changed, the save took it. */
  submitted?: boolean
}

export const draftKey = (userId: string, postId: string) => `rankwell:post-draft:${userId}:${postId}`

const FIELDS = ['title', 'slug', 'metaDescription', 'body'] as const

/** A stored draft, or null for anything else (nothing stored, another shape, broken JSON). */
export function readDraft(raw: string | null): Draft | null {
  if (!raw) return null
  try {
    const value = JSON.parse(raw) as Record<string, unknown>
    if (value?.v !== 1 || typeof value.savedAt !== 'string' || typeof value.base !== 'string') return null
    if (Number.isNaN(Date.parse(value.savedAt))) return null
    if (!FIELDS.every((f) => typeof value[f] === 'string')) return null
    return {
      v: 1,
      savedAt: value.savedAt,
      base: value.base,
      submitted: value.submitted === true,
      title: value.title as string,
      slug: value.slug as string,
      metaDescription: value.metaDescription as string,
      body: value.body as string,
    }
  } catch {
    return null
  }
}

/** Whether two sets of fields say the same (line endings and the ends' whitespace do not count). */
export function sameFields(a: EditorFields, b: EditorFields): boolean {
  const norm = (s: string) => s.replace(/\r\n?/g, '\n').trim()
  return FIELDS.every((f) => norm(a[f]) === norm(b[f]))
}

export type DraftOffer = { draft: Draft; older: boolean }

/**
 * What to do with a stored draft when the editor opens on the post as saved now (`versionId`, `savedAt`, `fields`):
 * 'clear' when it holds nothing new (the same as the post, or it was sent and the save took it), else the offer to
 * restore it, `older` when the post was saved after the draft was written.
 */
export function draftOutcome(
  draft: Draft | null,
  post: { versionId: string; savedAt: string | null; fields: EditorFields },
): null | 'clear' | DraftOffer {
  if (!draft) return null
  if (sameFields(draft, post.fields)) return 'clear'
  if (draft.submitted && draft.base !== post.versionId) return 'clear'
  const older = post.savedAt !== null && Date.parse(draft.savedAt) < Date.parse(post.savedAt)
  return { draft, older }
}

/** The restore banner's sentence. `format` writes a time as the reader's browser would (given, for tests). */
export function offerMessage(
  offer: DraftOffer,
  savedAt: string | null,
  format: (iso: string) => string = (iso) =>
    new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
): string {
  const first = `You have unsaved changes from ${format(offer.draft.savedAt)}.`
  return offer.older && savedAt
    ? `${first} They are older than the post’s last save (${format(savedAt)}): restoring them replaces what was saved since in the editor.`
    : first
}
