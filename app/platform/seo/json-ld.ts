/** schema.org structured data shared by the public pages and the posts (JSON-LD objects; serialised by the caller). */

/** A FAQPage of questions and their answers. */
export function faqJsonLd(faqs: ReadonlyArray<{ question: string; answer: string }>) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqs.map((f) => ({
      '@type': 'Question',
      name: f.question,
      acceptedAnswer: { '@type': 'Answer', text: f.answer },
    })),
  }
}

/** The JSON-LD objects stored with a post (`blog_posts.json_ld`: Article, FAQPage), whatever shape the row has. */
export function jsonLdObjectsOf(stored: unknown): Array<Record<string, unknown>> {
  const items = Array.isArray(stored) ? stored : stored && typeof stored === 'object' ? [stored] : []
  return items.filter((i): i is Record<string, unknown> => Boolean(i) && typeof i === 'object' && !Array.isArray(i))
}

/** JSON that cannot end the element it sits in nor read as markup: `<`, `>` and `&` as \u escapes. */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}

/** One `<script type="application/ld+json">` element per object, one a line. */
export function jsonLdScripts(items: ReadonlyArray<Record<string, unknown>>): string {
  return items.map((item) => `<script type="application/ld+json">${jsonForScript(item)}</script>`).join('\n')
}
