import { z } from 'zod'
import type { DestinationKind } from './publishing'

/** Deleting a post that has live copies (issue 33): the choices per copy and the screens' copy. Pure: no I/O. */

export const COPY_CHOICES = ['unpublish', 'delete', 'leave'] as const
export type CopyChoice = (typeof COPY_CHOICES)[number]

export const COPY_CHOICE_LABELS: Record<CopyChoice, string> = {
  unpublish: 'Unpublish it',
  delete: 'Delete it there',
  leave: 'Leave it',
}

export const DELETION_MESSAGES = {
  deleted: 'Blog post deleted.',
  deleting: 'Taking the live copies down. The post is deleted once they are.',
  chooseCopies: 'This post is live on your site. Choose what happens to each live copy.',
  retried: 'Trying again to take the copies down.',
} as const

/** A copy of the post on a destination that a deletion must decide about. */
export type LiveCopy = {
  destinationId: string
  destinationName: string
  kind: DestinationKind
  kindLabel: string
  status: 'pending' | 'published' | 'failed'
  remoteUrl: string | null
}

/** A post being deleted as the library shows it: each copy being taken down, and why one could not be. */
export type DeletingPost = {
  id: string
  title: string
  since: string
  copies: Array<{ destinationName: string; kindLabel: string; status: string; lastError: string | null }>
  /** A copy failed to come down: 'Try again' or 'Leave it there and delete the post'. */
  stuck: boolean
}

/**
 * The choices of a form: one field per live copy, `copy-<destinationId>` = unpublish | delete | leave (unknown values
 * are dropped, so that the post is not deleted on a choice nobody made).
 */
export function choicesFromForm(form: { get(name: string): unknown }, copies: LiveCopy[]) {
  const choices: Record<string, CopyChoice> = {}
  for (const copy of copies) {
    const value = form.get(`copy-${copy.destinationId}`)
    if (typeof value === 'string' && (COPY_CHOICES as readonly string[]).includes(value))
      choices[copy.destinationId] = value as CopyChoice
  }
  return choices
}

/** One choice for a live copy (DELETE /api/blogpost/:id, by destination id or for all in `?copies=`). */
export const copyChoiceSchema = z.enum(COPY_CHOICES, {
  errorMap: () => ({ message: 'Choose unpublish, delete or leave.' }),
})
/** The body of DELETE /api/blogpost/:id: the choice per live copy, by destination id. */
export const deletePostSchema = z
  .object({ copies: z.record(z.string().uuid('Unknown destination.'), copyChoiceSchema).optional() })
  .strict()
