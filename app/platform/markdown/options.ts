/**
 * marked's options for post bodies. The renderer (`markdownToHtml`) and the link filter (`links.ts`) both lex with
 * these, so that the filter sees exactly the links that the renderer makes.
 */
export const MARKED_OPTIONS = { gfm: true, breaks: false } as const
