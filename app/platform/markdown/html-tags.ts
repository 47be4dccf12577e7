/** Kept apart from markdown.ts so that pure modules can use it without bundling marked and DOMPurify. */

/** True when the content holds HTML markup (an element tag), rather than Markdown. */
export function hasHtmlTags(content: string): boolean {
  return /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>/i.test(content)
}
