import { SeoScoreBadge } from './post-card'
import type { ChecklistItem } from '#app/features/content/seo-checklist'

/**
 * The score and its checklist: what passes, what fails and how to fix it. `live` (the editor, as typed): its summary
 * is announced politely when it changes; `caption` says what the score is of.
 */
export function ScorePanel({
  score,
  items,
  live = false,
  caption,
}: {
  score: number
  items: ChecklistItem[]
  live?: boolean
  caption?: string
}) {
  const failed = items.filter((i) => !i.passed)
  return (
    <section className="mt-6 rounded-lg border border-slate-200 p-4" aria-labelledby="seo-checklist-title">
      <h2 id="seo-checklist-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        SEO checklist <SeoScoreBadge score={score} />
      </h2>
      {caption ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="seo-checklist-caption">
          {caption}
        </p>
      ) : null}
      <p className="mt-1 text-sm text-slate-600" aria-live={live ? 'polite' : undefined}>
        {failed.length ? `${failed.length} of ${items.length} items to fix.` : 'Every item passes.'}
      </p>
      <ul className="mt-3 space-y-1 text-sm" data-testid="seo-checklist">
        {items.map((item) => (
          <li key={item.id} data-item={item.id} data-passed={item.passed ? 'true' : 'false'}>
            <span aria-hidden="true" className={item.passed ? 'text-green-700' : 'text-red-700'}>
              {item.passed ? '✓' : '✗'}
            </span>{' '}
            <span className="sr-only">{item.passed ? 'Passed:' : 'To fix:'}</span> {item.label}
            {item.passed ? null : <span className="block pl-5 text-slate-600">{item.fix}</span>}
          </li>
        ))}
      </ul>
    </section>
  )
}
