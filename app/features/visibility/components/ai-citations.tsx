import { Link } from '@remix-run/react'
import type { PostCitation } from '#app/features/visibility/read.server'

/** The post page's block (issue 37): which AI answers cited this post over the last four weeks. */
export function AiCitations({ citations }: { citations: PostCitation[] }) {
  return (
    <section
      className="mt-6 rounded-lg border border-slate-200 p-4"
      aria-labelledby="post-ai"
      data-testid="post-ai-citations"
    >
      <h2 id="post-ai" className="text-lg font-semibold text-slate-900">
        Cited by AI answers
      </h2>
      {citations.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">
          No AI answer cited this post in the last four weeks.{' '}
          <Link to="/rankings/ai" className="underline">
            See AI visibility
          </Link>
        </p>
      ) : (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
          {citations.map((c) => (
            <li key={`${c.engine}-${c.kind}-${c.subject}`} className="break-words">
              {c.label}, for {c.kind === 'keyword' ? 'the keyword' : 'the prompt'} “{c.subject}”: cited in {c.count} of{' '}
              {c.answers} {c.answers === 1 ? 'answer' : 'answers'} (last four weeks)
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
