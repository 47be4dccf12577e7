/** A static picture of the keyword screen, drawn in HTML (no image to download), for the hero. */
const ROWS = [
  {
    keyword: 'invoice software for freelancers',
    volume: '1,900',
    difficulty: 24,
    band: 'Easy',
    tone: 'bg-green-100 text-green-800',
  },
  {
    keyword: 'how to send an invoice by email',
    volume: '880',
    difficulty: 18,
    band: 'Easy',
    tone: 'bg-green-100 text-green-800',
  },
  {
    keyword: 'recurring invoice template',
    volume: '2,400',
    difficulty: 41,
    band: 'Medium',
    tone: 'bg-yellow-100 text-yellow-900',
  },
  {
    keyword: 'best invoicing app',
    volume: '6,600',
    difficulty: 72,
    band: 'Hard',
    tone: 'bg-orange-100 text-orange-900',
  },
]

export function ProductMock() {
  return (
    <figure className="relative mx-auto w-full max-w-xl" aria-labelledby="mock-caption">
      <div className="rounded-2xl border border-slate-200 bg-white shadow-xl">
        <div className="flex items-center gap-1.5 border-b border-slate-100 px-4 py-3" aria-hidden="true">
          <span className="h-2.5 w-2.5 rounded-full bg-red-300" />
          <span className="h-2.5 w-2.5 rounded-full bg-yellow-300" />
          <span className="h-2.5 w-2.5 rounded-full bg-green-300" />
          <span className="ml-3 text-xs text-slate-600">Keyword Opportunities</span>
        </div>
        <div className="p-4">
          <div className="flex gap-2" aria-hidden="true">
            <span className="flex-1 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-700">
              invoicing for freelancers
            </span>
            <span className="rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white">Find Keywords</span>
          </div>
          <table className="mt-4 w-full text-left text-sm">
            <thead>
              <tr className="text-xs uppercase tracking-wide text-slate-600">
                <th scope="col" className="pb-2 font-semibold">
                  Keyword
                </th>
                <th scope="col" className="pb-2 text-right font-semibold">
                  Volume
                </th>
                <th scope="col" className="pb-2 text-right font-semibold">
                  Difficulty
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {ROWS.map((row) => (
                <tr key={row.keyword}>
                  <td className="py-2 pr-2 text-slate-800">{row.keyword}</td>
                  <td className="py-2 text-right tabular-nums text-slate-700">{row.volume}</td>
                  <td className="py-2 text-right">
                    <span
                      className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${row.tone}`}
                    >
                      {row.difficulty} {row.band}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <div
        className="absolute -bottom-5 -left-3 hidden rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-lg sm:block"
        aria-hidden="true"
      >
        <p className="text-xs text-slate-600">Post generated</p>
        <p className="text-sm font-semibold text-slate-900">“Invoice Software for Freelancers: 2026 Guide”</p>
      </div>
      <figcaption id="mock-caption" className="sr-only">
        Example keyword research: each keyword with its monthly search volume and a difficulty label from Easy to Very
        Hard.
      </figcaption>
    </figure>
  )
}
