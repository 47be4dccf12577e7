import { SEO_GUIDE, type GuideBlock, type GuideChapter } from '#app/features/marketing/seo-guide'
import { ScrollRegion } from '#app/ui/scroll-region'

/** Renders the SEO guide (app/lib/seo-guide.ts): used by /how-grow and the printable ebook. */
function Block({ block }: { block: GuideBlock }) {
  switch (block.kind) {
    case 'p':
      return <p className="mt-4 leading-relaxed text-slate-700">{block.text}</p>
    case 'h3':
      return <h3 className="mt-8 text-lg font-semibold text-slate-900">{block.text}</h3>
    case 'list': {
      const Tag = block.ordered ? 'ol' : 'ul'
      return (
        <Tag
          className={`mt-4 space-y-2 pl-6 leading-relaxed text-slate-700 ${block.ordered ? 'list-decimal' : 'list-disc'}`}
        >
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </Tag>
      )
    }
    case 'tip':
      return (
        <div role="note" className="mt-6 break-inside-avoid rounded-xl border-l-4 border-brand-600 bg-brand-50 p-4">
          <p className="font-semibold text-brand-900">{block.title}</p>
          <p className="mt-1 text-slate-700">{block.text}</p>
        </div>
      )
    case 'table':
      return (
        <ScrollRegion label={block.caption} className="mt-6 overflow-x-auto">
          <table className="w-full min-w-[32rem] border-collapse break-inside-avoid text-left text-sm">
            <caption className="mb-2 text-left text-sm font-medium text-slate-600">{block.caption}</caption>
            <thead>
              <tr>
                {block.head.map((h) => (
                  <th
                    key={h}
                    scope="col"
                    className="border-b-2 border-slate-300 px-3 py-2 font-semibold text-slate-900"
                  >
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row) => (
                <tr key={row.join('|')} className="align-top">
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th
                        key={i}
                        scope="row"
                        className="border-b border-slate-200 px-3 py-2 font-semibold text-slate-900"
                      >
                        {cell}
                      </th>
                    ) : (
                      <td key={i} className="border-b border-slate-200 px-3 py-2 text-slate-700">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )
  }
}

export function GuideChapterView({ chapter, number }: { chapter: GuideChapter; number: number }) {
  return (
    <section id={chapter.id} aria-labelledby={`${chapter.id}-title`} className="guide-chapter scroll-mt-24">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Chapter {number}</p>
      <h2 id={`${chapter.id}-title`} className="mt-1 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        {chapter.title}
      </h2>
      <p className="mt-2 text-lg text-slate-600">{chapter.summary}</p>
      {chapter.blocks.map((block, i) => (
        <Block key={i} block={block} />
      ))}
    </section>
  )
}

export function GuideContents() {
  return (
    <nav aria-label="Contents" className="rounded-2xl border border-slate-200 bg-white p-5">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-600">Contents</h2>
      <ol className="mt-3 space-y-1.5 text-sm">
        {SEO_GUIDE.chapters.map((c, i) => (
          <li key={c.id}>
            <a href={`#${c.id}`} className="text-slate-700 hover:text-brand-700 hover:underline">
              {i + 1}. {c.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  )
}

export function GuideBody() {
  return (
    <div className="space-y-14">
      {SEO_GUIDE.chapters.map((chapter, i) => (
        <GuideChapterView key={chapter.id} chapter={chapter} number={i + 1} />
      ))}
    </div>
  )
}
