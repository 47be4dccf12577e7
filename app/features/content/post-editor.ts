import { z } from 'zod'
import { safeText } from '#app/platform/security/safe-text'
import { slugify } from './posts'

/**
 * The editor's view of a post's Markdown (pure, used by the page and the server): the H1 title is edited in its
 * own field, the rest is the body; 'Rewrite this section' works on the body's H2 sections. The editor's form
 * schema lives here so that the page checks it too (decision 0311).
 */
export const EDITOR_LIMITS = { title: 200, metaDescription: 300, body: 100_000, instruction: 500 } as const

/** A post's edited fields: title, slug, meta description and Markdown body (saves, rewrites, restores, added links). */
export const editSchema = z.object({
  title: safeText({ required_error: 'Title is required.' })
    .transform((v) => v.replace(/\s+/g, ' ').trim())
    .pipe(
      safeText()
        .min(1, 'Title is required.')
        .max(EDITOR_LIMITS.title, `Title must be at most ${EDITOR_LIMITS.title} characters.`),
    ),
  slug: safeText({ required_error: 'Slug is required.' })
    .transform((v) => slugify(v))
    .pipe(safeText().min(1, 'Slug needs at least one letter or digit.')),
  metaDescription: safeText()
    .optional()
    .transform((v) => (v ?? '').replace(/\s+/g, ' ').trim())
    .pipe(
      safeText().max(
        EDITOR_LIMITS.metaDescription,
        `Meta description must be at most ${EDITOR_LIMITS.metaDescription} characters.`,
      ),
    ),
  body: safeText({ required_error: 'The post cannot be empty.' })
    .transform((v) => v.replace(/\r\n?/g, '\n').trim())
    .pipe(
      safeText()
        .min(1, 'The post cannot be empty.')
        .max(EDITOR_LIMITS.body, `The post must be at most ${EDITOR_LIMITS.body} characters.`),
    ),
})
export type EditInput = z.infer<typeof editSchema>

/** 'Rewrite this section': which H2 section of the body, and the author's instruction. */
export const rewriteSchema = z.object({
  section: z.coerce.number({ invalid_type_error: 'Choose a section.' }).int().min(0, 'Choose a section.'),
  instruction: safeText({ required_error: 'Tell us how to rewrite the section.' })
    .trim()
    .min(3, 'Tell us how to rewrite the section.')
    .max(EDITOR_LIMITS.instruction, `The instruction must be at most ${EDITOR_LIMITS.instruction} characters.`),
})
export type RewriteInput = z.infer<typeof rewriteSchema>

/**
 * The editor's form (/blogpost/:id/edit): the post's fields, and with the 'Rewrite section' button (intent=rewrite)
 * also the section and the instruction. Its value: the edit, and the rewrite when one was asked for.
 */
export const editorFormSchema = editSchema
  .extend({
    intent: z.string().optional(),
    section: z.string().optional(),
    instruction: z.string().optional(),
  })
  .superRefine(({ intent, section, instruction }, ctx) => {
    if (intent !== 'rewrite') return
    const wanted = rewriteSchema.safeParse({ section, instruction })
    if (!wanted.success) for (const issue of wanted.error.issues) ctx.addIssue(issue)
  })
  .transform(({ intent, section, instruction, ...edit }) => ({
    edit,
    rewrite: intent === 'rewrite' ? rewriteSchema.parse({ section, instruction }) : null,
  }))

/**
 * The editor's form when it asks for a preview (without JavaScript): the fields as typed, nothing checked; the
 * preview, the checklist and the notes on what a save would change are made from them.
 */
export const editorPreviewSchema = z.object({
  title: z.string().optional(),
  slug: z.string().optional(),
  metaDescription: z.string().optional(),
  body: z.string().optional(),
})

/** What the editor says when a save, rewrite or restore never got the app's answer (issue 12): nothing was saved. */
export const EDITOR_FAILED_MESSAGES: Record<string, string> = {
  save: 'Your changes could not be saved. Please try again.',
  rewrite: 'The section could not be rewritten. Please try again.',
  restore: 'The version could not be restored. Please try again.',
}

/** Splits a leading `# Title` line off the Markdown. */
export function splitTitle(markdown: string): { title: string | null; body: string } {
  const text = markdown.replace(/\r\n?/g, '\n').replace(/^\s+/, '')
  const m = /^#\s+(.+?)\s*#*\s*(?:\n|$)/.exec(text)
  if (!m) return { title: null, body: text.trim() }
  return { title: m[1]!.trim(), body: text.slice(m[0].length).trim() }
}

export type Section = { heading: string; body: string; start: number; end: number }

/** The H2 sections of a body (outside code fences): heading, body text and the body's character range. */
export function sectionsOf(body: string): Section[] {
  const lines = body.split('\n')
  const out: Section[] = []
  let offset = 0
  let fence = false
  let current: { heading: string; start: number } | null = null
  const close = (end: number) => {
    if (current) out.push({ ...current, body: body.slice(current.start, end).trim(), end })
  }
  for (const line of lines) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fence = !fence
    const h = fence ? null : /^\s{0,3}##\s+(.+?)\s*#*\s*$/.exec(line)
    if (h) {
      close(offset)
      current = { heading: h[1]!, start: offset + line.length + 1 }
    }
    offset += line.length + 1
  }
  close(body.length)
  return out.map((s) => ({ ...s, start: Math.min(s.start, body.length) }))
}

/** The body with section `index`'s text replaced (its heading stays). */
export function replaceSection(body: string, index: number, text: string): string {
  const s = sectionsOf(body)[index]
  if (!s) return body
  const before = body.slice(0, s.start).replace(/\s*$/, '')
  const after = body.slice(s.end).replace(/^\s*/, '')
  return `${before}\n\n${text.trim()}\n${after ? `\n${after}` : ''}`
}
