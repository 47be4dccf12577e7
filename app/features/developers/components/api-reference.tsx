import { inlineParts, type ReferenceOperation, type ReferenceTag } from '../reference'

/** The document's inline Markdown (`code`, **bold**) as React text: never HTML. */
export function Inline({ text }: { text: string }) {
  return (
    <>
      {inlineParts(text).map((part, i) =>
        part.kind === 'code' ? (
          <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] text-slate-900">
            {part.text}
          </code>
        ) : part.kind === 'strong' ? (
          <strong key={i} className="font-semibold text-slate-900">
            {part.text}
          </strong>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  )
}

/** A block of example code; scrollable regions are focusable so that keyboards can scroll them. */
export function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className="mt-2 max-h-96 overflow-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100"
    >
      {children}
    </pre>
  )
}

const METHOD_STYLE: Record<string, string> = {
  GET: 'bg-emerald-100 text-emerald-900',
  POST: 'bg-sky-100 text-sky-900',
  PUT: 'bg-amber-100 text-amber-900',
  DELETE: 'bg-rose-100 text-rose-900',
}

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text.split('\n\n').map((p, i) => (
        <p key={i} className="mt-2 text-slate-700">
          <Inline text={p} />
        </p>
      ))}
    </>
  )
}

export function OperationCard({ op }: { op: ReferenceOperation }) {
  return (
    <article id={op.id} aria-labelledby={`${op.id}-title`} className="card scroll-mt-24 [overflow-wrap:anywhere]">
      <h4 id={`${op.id}-title`} className="flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold ${METHOD_STYLE[op.method] ?? ''}`}>
          {op.method}
        </span>
        <code className="font-mono text-sm">{op.path}</code>
        <span className="font-normal text-slate-700">— {op.summary}</span>
      </h4>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
        <div className="flex gap-1">
          <dt className="font-medium text-slate-900">Authentication:</dt>
          <dd>{op.auth}</dd>
        </div>
        {op.scope ? (
          <div className="flex gap-1">
            <dt className="font-medium text-slate-900">Scope:</dt>
            <dd>
              <code>{op.scope}</code>
            </dd>
          </div>
        ) : null}
      </dl>
      <Paragraphs text={op.description} />
      {op.parameters.length > 0 ? (
        <table className="mt-4 w-full text-left text-sm">
          <caption className="sr-only">Parameters of {op.id}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-900">
              <th scope="col" className="py-1 pr-4">
                Parameter
              </th>
              <th scope="col" className="py-1 pr-4">
                In
              </th>
              <th scope="col" className="py-1">
                About
              </th>
            </tr>
          </thead>
          <tbody>
            {op.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`} className="border-b border-slate-100 align-top text-slate-700">
                <td className="py-1 pr-4 font-mono">
                  {p.name}
                  {p.required ? <span className="text-slate-900"> (required)</span> : null}
                </td>
                <td className="py-1 pr-4">{p.in}</td>
                <td className="py-1">{p.about}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {op.request ? (
        <div className="mt-4">
          <h5 className="text-sm font-semibold text-slate-900">Example request body</h5>
          <Code label={`Example request body of ${op.id}`}>{op.request}</Code>
        </div>
      ) : null}
      {op.responses.map((r) => (
        <div key={r.status} className="mt-4">
          <h5 className="text-sm font-semibold text-slate-900">
            {r.status}: {r.description}
          </h5>
          {r.example ? <Code label={`Example ${r.status} answer of ${op.id}`}>{r.example}</Code> : null}
        </div>
      ))}
      {op.errors.length > 0 ? (
        <div className="mt-4">
          <h5 className="text-sm font-semibold text-slate-900">Errors</h5>
          <ul className="mt-1 space-y-1 text-sm text-slate-700">
            {op.errors.map((e) => (
              <li key={e.status}>
                <span className="font-mono font-semibold text-slate-900">{e.status}</span>{' '}
                <Inline text={e.description} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </article>
  )
}

export function TagSection({ tag }: { tag: ReferenceTag }) {
  return (
    <section aria-labelledby={`tag-${tag.slug}`} className="mt-10">
      <h3 id={`tag-${tag.slug}`} className="text-xl font-bold text-slate-900">
        {tag.name}
      </h3>
      <div className="mt-4 space-y-6">
        {tag.operations.map((op) => (
          <OperationCard key={op.id} op={op} />
        ))}
      </div>
    </section>
  )
}
