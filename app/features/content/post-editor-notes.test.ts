import { describe, expect, it } from 'vitest'
import { liveChecklist, saveNotes, type ChecklistContext, type EditorFields } from './post-editor-notes'
import { draftOutcome, offerMessage, readDraft, sameFields, type Draft } from './post-editor-draft'
import { scorePost } from './seo-checklist'

const body = [
  'Project management tools help small teams ship. See [our planner](https://acme.test/planner).',
  '## Why project management tools help',
  'They save time [1](https://research.example/a).',
  '**Related reading:** [Pricing](https://acme.test/pricing)',
  '## Sources',
  '1. [Research](https://research.example/a)',
].join('\n\n')

const saved: EditorFields = {
  title: 'Project management tools: a simple guide',
  slug: 'project-management-tools',
  metaDescription: 'Project management tools for small teams.',
  body,
}
const context = { saved, readPages: ['https://research.example/a', 'https://stats.example/b'] }
const ids = (fields: Partial<EditorFields>) => saveNotes({ ...saved, ...fields }, context).map((n) => n.id)
const note = (fields: Partial<EditorFields>, id: string) =>
  saveNotes({ ...saved, ...fields }, context).find((n) => n.id === id)?.message

describe('what a save will change, said before saving', () => {
  it('says nothing about the post as saved', () => {
    expect(saveNotes(saved, context)).toEqual([])
  })

  it('title: the spaces the save collapses, and where search results cut a long title', () => {
    expect(note({ title: 'Project  management tools' }, 'title-spaces')).toBe(
      'Extra spaces are removed on save: “Project management tools”.',
    )
    const long = 'Project management tools: a simple guide for small teams that want to ship on time'
    expect(note({ title: long }, 'title-cut')).toBe(
      'Saved as you wrote it, but search results show about 60 characters: “Project management tools: a simple guide for small teams…”.',
    )
    expect(ids({ title: '# Project management tools' })).toContain('title-hash')
  })

  it('slug and meta description: what the slug is saved as, where a long description is cut', () => {
    expect(note({ slug: 'Project Management Tools!' }, 'slug-changed')).toBe(
      'Saved as “project-management-tools”: lower case, letters and digits joined by hyphens.',
    )
    expect(ids({ metaDescription: `${'word '.repeat(40)}end` })).toEqual(['meta-cut'])
    expect(ids({ metaDescription: 'two\nlines' })).toEqual(['meta-spaces'])
  })

  it('body: a leading # line, raw HTML, links that are not web addresses, citations, repeated links, rebuilt parts', () => {
    expect(note({ body: `# Another title\n\n${body}` }, 'body-title')).toBe(
      'The first line “# Another title” is removed on save: the Title field is the post’s heading.',
    )
    expect(note({ body: `<div>Hi</div> <script>x()</script>\n\n${body}` }, 'body-html')).toBe(
      'HTML is removed on save (the post is Markdown): <div>, <script>. <script> goes with its content; other tags keep their text.',
    )
    expect(note({ body: `[Click](javascript:alert(1)) and [mail](mailto:a@b.test)\n\n${body}` }, 'body-links')).toBe(
      'Only web addresses (http:// or https://) stay links: “javascript:alert(1)”, “mailto:a@b.test” become plain text on save, and a script address is never kept.',
    )
    expect(note({ body: `[a study](https://stats.example/b)\n\n${body}` }, 'body-citations')).toBe(
      'A link to a page from the research becomes its text and a numbered citation on save: “a study”.',
    )
    expect(note({ body: `[the planner again](https://acme.test/planner/)\n\n${body}` }, 'body-repeated-links')).toBe(
      'A second link to the same page becomes plain text on save: “our planner” (the first is kept).',
    )
    expect(ids({ body: `${body}\n\nA paragraph typed after the sources.` })).toEqual(['body-finish'])
    expect(ids({ body: body.replace('[Pricing]', '[Our pricing]') })).toEqual(['body-finish'])
    // Text changed above the rebuilt parts is the author's: no note.
    expect(ids({ body: body.replace('help small teams ship', 'help teams ship') })).toEqual([])
  })
})

describe('the live checklist', () => {
  it('is the checklist of what the save would score, and follows the typing', () => {
    const ctx: ChecklistContext = {
      keyword: 'project management tools',
      language: 'English',
      targetWords: null,
      ownPages: ['https://acme.test/planner'],
      siteHost: 'acme.test',
      claims: [],
      images: [],
      readPages: [],
    }
    const { readPages: _r, ...scoreContext } = ctx
    const live = liveChecklist(saved, ctx)
    expect(live).toEqual(scorePost({ ...scoreContext, ...saved, markdown: `# ${saved.title}\n\n${body}\n` }))
    const title = (fields: EditorFields) => liveChecklist(fields, ctx).items.find((i) => i.id === 'title-length')!
    expect(title(saved).passed).toBe(true)
    expect(title({ ...saved, title: 'x'.repeat(61) }).passed).toBe(false)
    // A javascript: link does not count as a link once saved; the slug is scored as it will be saved.
    const slugItem = liveChecklist({ ...saved, slug: 'Project Management Tools' }, ctx).items.find(
      (i) => i.id === 'keyword-slug',
    )!
    expect(slugItem.passed).toBe(true)
  })
})

describe('the autosaved draft', () => {
  const draft: Draft = { v: 1, savedAt: '2026-11-29T10:00:00.000Z', base: 'v1', ...saved, title: 'Typed title' }
  const post = { versionId: 'v1', savedAt: '2026-11-29T09:00:00.000Z', fields: saved }

  it('reads only what it wrote', () => {
    expect(readDraft(JSON.stringify(draft))).toEqual({ ...draft, submitted: false })
    for (const raw of [null, '', '{', '[]', JSON.stringify({ ...draft, v: 2 }), JSON.stringify({ ...draft, body: 1 })])
      expect(readDraft(raw)).toBeNull()
  })

  it('is offered when it holds changes, cleared when the save took it or it says the same', () => {
    expect(draftOutcome(null, post)).toBeNull()
    expect(draftOutcome(draft, post)).toEqual({ draft, older: false })
    expect(draftOutcome({ ...draft, ...saved, body: `${saved.body}\r\n` }, post)).toBe('clear')
    expect(draftOutcome({ ...draft, submitted: true }, { ...post, versionId: 'v2' })).toBe('clear')
    // Sent but refused (the version did not change): still offered.
    expect(draftOutcome({ ...draft, submitted: true }, post)).toMatchObject({ older: false })
    expect(sameFields(saved, { ...saved, title: ` ${saved.title} ` })).toBe(true)
  })

  it('says when it is older than the post’s last save', () => {
    const later = { ...post, versionId: 'v2', savedAt: '2026-11-29T11:00:00.000Z' }
    const offer = draftOutcome(draft, later)
    expect(offer).toEqual({ draft, older: true })
    const format = (iso: string) => iso.slice(11, 16)
    expect(offerMessage(offer as never, later.savedAt, format)).toBe(
      'You have unsaved changes from 10:00. They are older than the post’s last save (11:00): restoring them replaces what was saved since in the editor.',
    )
    expect(offerMessage({ draft, older: false }, post.savedAt, format)).toBe('You have unsaved changes from 10:00.')
  })
})
