import type { PageEngine, PageSubject } from '#app/features/visibility/page-view'
import { CHANGE_LABELS, rateSentence } from '#app/features/visibility/describe'
import type { Rate } from '#app/features/visibility/wilson'
import { AiTrend } from './ai-trend'

/** 'this week' for the current week, else 'in the week of …'. */
function when(week: string, current: string) {
  return week === current ? 'this week' : `in the week of ${week}`
}

function RateLine({
  rate,
  what,
  week,
  current,
  noun,
  testId,
}: {
  rate: Rate
  what: string
  week: string
  current: string
  noun: [string, string]
  testId: string
}) {
  return (
    <li data-testid={testId} data-total={rate.total} data-hits={rate.hits}>
      {rateSentence(rate, what, when(week, current), noun)}
    </li>
  )
}

/** One engine's figures for a keyword or prompt: the week's rates with their intervals, the trend, pages, competitors. */
function EngineBlock({
  kind,
  view,
  weeks,
  current,
}: {
  kind: 'keyword' | 'prompt'
  view: PageEngine
  weeks: string[]
  current: string
}) {
  const noun: [string, string] = ['answer', 'answers']
  const main = kind === 'keyword' ? view.latest.cited : view.latest.mentioned
  const hasAny = view.trend.some((p) => p !== null)
  return (
    <div className="rounded-md border border-slate-200 p-3" data-testid="ai-engine" data-engine={view.engine}>
      <h4 className="text-sm font-semibold text-slate-900">{view.label}</h4>
      <ul className="mt-1 space-y-0.5 text-sm text-slate-700">
        {kind === 'keyword' ? (
          <RateLine
            rate={view.latest.present}
            what="AI answer shown"
            week={view.latest.week}
            current={current}
            noun={noun}
            testId="ai-rate-present"
          />
        ) : null}
        <RateLine
          rate={view.latest.mentioned}
          what="Mentioned"
          week={view.latest.week}
          current={current}
          noun={noun}
          testId="ai-rate-mentioned"
        />
        <RateLine
          rate={view.latest.cited}
          what="Your site cited"
          week={view.latest.week}
          current={current}
          noun={noun}
          testId="ai-rate-cited"
        />
        {view.latest.gaps > 0 ? (
          <li className="text-amber-800" data-testid="ai-gaps">
            {`${view.latest.gaps} ${view.latest.gaps === 1 ? 'check' : 'checks'} failed this week: left out, not counted as zero.`}
          </li>
        ) : null}
      </ul>
      {hasAny ? (
        <>
          <AiTrend
            what={`${kind === 'keyword' ? 'Site cited' : 'Mentioned'} by ${view.label}`}
            weeks={weeks}
            points={view.trend}
          />
          <p className="text-xs text-slate-600" data-testid="ai-change" data-change={view.change}>
            {main.total > 0 ? CHANGE_LABELS[view.change] : 'No answers yet this week.'}
          </p>
        </>
      ) : (
        <p className="mt-1 text-xs text-slate-600">No answers yet.</p>
      )}
      <CountList
        title="Your pages cited"
        testId="ai-cited-pages"
        items={view.citedPages.map((p) => ({ key: p.url, count: p.count }))}
        more={view.morePages}
      />
      <CountList
        title="Competitors named or cited"
        testId="ai-competitors"
        items={view.competitors.map((c) => ({ key: c.domain, count: c.count }))}
        more={view.moreCompetitors}
      />
    </div>
  )
}

/** A keyword or prompt with each of its engines. Text is React text (escaped): plain text, never markup. */
export function AiSubject({
  subject,
  weeks,
  current,
  actions,
}: {
  subject: PageSubject
  weeks: string[]
  current: string
  actions?: React.ReactNode
}) {
  return (
    <article className="card" data-testid="ai-subject" data-kind={subject.kind} aria-label={subject.label}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 break-words text-base font-semibold text-slate-900">{subject.label}</h3>
        {actions}
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {subject.engines.map((e) => (
          <EngineBlock key={e.engine} kind={subject.kind} view={e} weeks={weeks} current={current} />
        ))}
      </div>
    </article>
  )
}

/** A short list of pages or domains with how often each came up, and how many more there were. */
function CountList({
  title,
  testId,
  items,
  more,
}: {
  title: string
  testId: string
  items: Array<{ key: string; count: number }>
  more: number
}) {
  if (!items.length) return null
  return (
    <div className="mt-2 text-xs text-slate-700">
      <p className="font-medium">{title}</p>
      <ul className="list-disc pl-5" data-testid={testId}>
        {items.map((item) => (
          <li key={item.key} className="break-all">
            {`${item.key} (${item.count})`}
          </li>
        ))}
        {more > 0 ? <li>{`and ${more} more`}</li> : null}
      </ul>
    </div>
  )
}
