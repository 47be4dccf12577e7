import { Form } from '@remix-run/react'
import { formatLongDate } from '#app/features/content/posts'
import type { Versions as KeptVersions } from '#app/features/content/post-editor.server'
import { SubmitButton } from '#app/ui/submit-button'

const ORIGIN_LABELS: Record<string, string> = {
  generated: 'Written by Rankwell',
  edit: 'Your edit',
  rewrite: 'Section rewrite',
  refresh: 'Refresh',
  restore: 'Restored',
}

/** The kept versions, newest (the current one) first; each older one can be restored (intent=restore). */
export function Versions({ versions }: { versions: KeptVersions }) {
  return (
    <section className="mt-6 rounded-lg border border-slate-200 p-4" aria-labelledby="versions-title">
      <h2 id="versions-title" className="text-lg font-semibold text-slate-900">
        Versions
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        The last 20 versions are kept. Restoring one makes it a new version.
      </p>
      <ol className="mt-3 divide-y divide-slate-200 text-sm" data-testid="versions">
        {versions.map((v, i) => (
          <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span>
              <span className="font-medium text-slate-900">{ORIGIN_LABELS[v.origin] ?? v.origin}</span>{' '}
              <span className="text-slate-600">
                ·{' '}
                <time dateTime={v.createdAt}>
                  {formatLongDate(v.createdAt)} {v.createdAt.slice(11, 16)} UTC
                </time>
                {v.seoScore === null ? '' : ` · SEO ${v.seoScore}/100`}
                {i === 0 ? ' · current' : ''}
              </span>
            </span>
            {i === 0 ? null : (
              <Form method="post">
                <input type="hidden" name="versionId" value={v.id} />
                <SubmitButton
                  intent="restore"
                  className="btn-secondary py-1"
                  aria-label={`Restore the version of ${v.createdAt}`}
                >
                  Restore
                </SubmitButton>
              </Form>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}
