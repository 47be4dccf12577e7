import { Form } from '@remix-run/react'
import type { DiffRow } from '#app/features/publishing/diff'
import { SubmitButton } from '#app/ui/submit-button'

/**
 * 'Update the live copy': shown when a post that is live on a site was changed since. A plain form to the publish
 * page's action (intent=update-live), so it works without JavaScript.
 */
export function UpdateLiveCopy({
  postId,
  destinations,
}: {
  postId: string
  destinations: Array<{ destinationId: string; destinationName: string; kindLabel: string }>
}) {
  if (destinations.length === 0) return null
  return (
    <div
      role="status"
      className="mb-6 flex flex-wrap items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-slate-900"
      data-testid="update-live-copy"
    >
      <span>
        This post changed since it was published on{' '}
        {destinations.map((d) => `${d.destinationName} (${d.kindLabel})`).join(', ')}.
      </span>
      <Form method="post" action={`/blogpost/${postId}/publish`}>
        <SubmitButton intent="update-live" className="btn-primary py-1.5" pendingText="Updating…">
          Update the live copy
        </SubmitButton>
      </Form>
    </div>
  )
}

/**
 * The live copy against the new version, line by line with the changed words marked. Every part is text rendered
 * by React (no HTML from the content).
 */
export function LiveDiff({ rows }: { rows: DiffRow[] }) {
  if (rows.length === 0) return null
  return (
    <div
      className="mt-2 max-h-96 overflow-auto rounded-lg border border-slate-200 bg-white p-3 font-mono text-xs leading-relaxed"
      data-testid="live-diff"
    >
      {rows.map((row, i) =>
        row.kind === 'skip' ? (
          <p key={i} className="text-slate-500">
            … {row.lines} unchanged {row.lines === 1 ? 'line' : 'lines'}
          </p>
        ) : row.kind === 'change' ? (
          <p key={i} className="whitespace-pre-wrap break-words">
            {row.parts.map((part, j) =>
              part.kind === 'del' ? (
                <del key={j} className="bg-red-100 text-red-900">
                  {part.text}
                </del>
              ) : part.kind === 'ins' ? (
                <ins key={j} className="bg-green-100 text-green-900 no-underline">
                  {part.text}
                </ins>
              ) : (
                <span key={j}>{part.text}</span>
              ),
            )}
          </p>
        ) : row.kind === 'del' ? (
          <p key={i} className="whitespace-pre-wrap break-words">
            <del className="bg-red-100 text-red-900">{row.text || ' '}</del>
          </p>
        ) : row.kind === 'ins' ? (
          <p key={i} className="whitespace-pre-wrap break-words">
            <ins className="bg-green-100 text-green-900 no-underline">{row.text || ' '}</ins>
          </p>
        ) : (
          <p key={i} className="whitespace-pre-wrap break-words text-slate-600">
            {row.text || ' '}
          </p>
        ),
      )}
    </div>
  )
}
