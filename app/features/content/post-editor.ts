/**
 * The editor's view of a post's Markdown (pure, used by the page and the server): the H1 title is edited in its
 * own field, the rest is the body; 'Rewrite this section' works on the body's H2 sections.
 */
export const EDITOR_LIMITS = { title: 200, metaDescription: 300, body: 100_000, instruction: 500 } as const

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
