import { isUuid } from '#app/platform/security/ids'
import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, Link, useActionData, useFetcher, useLoaderData } from '@remix-run/react'
import { useState, type DragEvent } from 'react'
import { PageHeader } from '#app/ui/page-header'
import { Toaster, type Toast } from '#app/ui/toaster'
import {
  calendarRange,
  DAY_FORMAT,
  dayKey,
  ENTRY_LABELS,
  MONTH_FORMAT,
  neighbours,
  parseDay,
  type CalendarEntry,
  type CalendarView,
} from '#app/features/publishing/calendar'
import { PUBLISHING_MESSAGES } from '#app/features/publishing/publishing'
import { calendarEntries } from '#app/features/publishing/calendar.server'
import { moveScheduled } from '#app/features/publishing/publications.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { ScrollRegion } from '#app/ui/scroll-region'
import { autopilotPause } from '#app/features/autopilot/autopilot-pause.server'
import { PauseNotice } from '#app/features/autopilot/components/pause-notice'
import { findAutopilotSettings } from '#app/features/autopilot/settings/settings.server'

export const meta: MetaFunction = () => [{ title: 'Calendar | Rankwell' }]

function viewOf(value: string | null): CalendarView {
  return value === 'week' ? 'week' : 'month'
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const url = new URL(request.url)
  const view = viewOf(url.searchParams.get('view'))
  const now = new Date()
  const anchor = parseDay(url.searchParams.get('date'), now)
  const { from, to, weeks } = calendarRange(view, anchor)
  const [found, settings, pause] = await Promise.all([
    calendarEntries(user.id, from, to, now),
    findAutopilotSettings(user.id),
    autopilotPause(user.id),
  ])
  // Decision 0353: while Auto Pilot is paused by the plan, its slots are not promised as posts to come (until the
  // allowance renews, when it resumes on its own; not at all when the owner must act).
  const paused = settings?.enabled ? pause : null
  const resumes = paused?.resumesAt ? new Date(paused.resumesAt).getTime() : Infinity
  const entries = paused ? found.filter((e) => e.kind !== 'slot' || new Date(e.at).getTime() >= resumes) : found
  const { prev, next } = neighbours(view, anchor)
  return json(
    {
      view,
      anchor: dayKey(anchor),
      today: dayKey(now),
      title: view === 'month' ? MONTH_FORMAT.format(anchor) : `Week of ${DAY_FORMAT.format(weeks[0]![0]!)}`,
      prev: dayKey(prev),
      next: dayKey(next),
      weeks: weeks.map((w) => w.map(dayKey)),
      entries,
      pause: paused,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type ActionData = { ok?: boolean; toast?: Toast; error?: string; postId?: string }

/** Moves a scheduled post to another day (the time of day stays). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const postId = String(form.get('postId') ?? '')
  const date = String(form.get('date') ?? '')
  const current = String(form.get('current') ?? '')
  const back = String(form.get('back') ?? '/calendar')
  const fail = (message: string, status = 400) =>
    json<ActionData>({ error: message, postId, toast: { type: 'error', message, duration: TOAST_MS } }, { status })
  if (String(form.get('intent')) !== 'move') return fail('Unknown action.')
  if (!isUuid(postId)) return fail('Unknown post.', 404)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || parseDay(date, new Date(0)).getTime() === 0)
    return fail('Enter a date like 2026-12-01.')
  const day = parseDay(date, new Date())
  const previous = new Date(current)
  const timeOfDay = Number.isNaN(previous.getTime()) ? 9 * 3600_000 : previous.getTime() % (24 * 3600_000)
  const at = new Date(day.getTime() + timeOfDay)
  if (at.getTime() < Date.now() - 60_000) return fail('Choose today or a later day.')
  const moved = await moveScheduled(user.id, postId, at)
  if (!moved) return fail('Only a scheduled post can move.', 404)
  const safeBack = back.startsWith('/calendar') ? back : '/calendar'
  return toast().redirectWithSuccess(safeBack, { message: PUBLISHING_MESSAGES.moved, duration: TOAST_MS })
}

const KIND_STYLES: Record<CalendarEntry['kind'], string> = {
  slot: 'border-slate-200 bg-slate-50 text-slate-700',
  review: 'border-yellow-300 bg-yellow-50 text-yellow-900',
  scheduled: 'border-brand-300 bg-brand-50 text-slate-900',
  published: 'border-green-300 bg-green-50 text-green-900',
}

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }) + ' UTC'

function Entry({ entry, back, today }: { entry: CalendarEntry; back: string; today: string }) {
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(
      'application/x-rankwell-post',
      JSON.stringify({ postId: entry.postId, current: entry.at }),
    )
    event.dataTransfer.effectAllowed = 'move'
  }
  return (
    <li
      className={`rounded-md border px-2 py-1 text-xs ${KIND_STYLES[entry.kind]}`}
      data-testid={`entry-${entry.kind}`}
      draggable={entry.kind === 'scheduled'}
      onDragStart={entry.kind === 'scheduled' ? onDragStart : undefined}
    >
      <span className="block font-semibold">{ENTRY_LABELS[entry.kind]}</span>
      {entry.postId ? (
        <Link
          to={entry.kind === 'published' ? `/blogpost/${entry.postId}` : `/blogpost/${entry.postId}/publish`}
          className="block [overflow-wrap:anywhere] hover:underline"
        >
          {entry.title}
        </Link>
      ) : (
        <span className="block">{time(entry.at)}</span>
      )}
      {entry.destinations?.length ? <span className="block">on {entry.destinations.join(', ')}</span> : null}
      {entry.kind === 'scheduled' ? <MoveDetails entry={entry} back={back} today={today} /> : null}
    </li>
  )
}

/** A <details> opens the move form (keyboard and no-JavaScript users); drag-and-drop does the same with a mouse. */
function MoveDetails({ entry, back, today }: { entry: CalendarEntry; back: string; today: string }) {
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-brand-700">Move</summary>
      <Form method="post" className="mt-1 grid gap-1">
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="postId" value={entry.postId} />
        <input type="hidden" name="current" value={entry.at} />
        <input type="hidden" name="back" value={back} />
        <label className="sr-only" htmlFor={`move-nojs-${entry.id}`}>
          New date for {entry.title}
        </label>
        <input
          id={`move-nojs-${entry.id}`}
          type="date"
          name="date"
          min={today}
          defaultValue={entry.at.slice(0, 10)}
          className="input py-1 text-xs"
          required
        />
        <button type="submit" className="btn-secondary py-1 text-xs">
          Move
        </button>
      </Form>
    </details>
  )
}

export default function CalendarPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ActionData | undefined
  const mover = useFetcher<typeof action>()
  const moverData = mover.data as ActionData | undefined
  const [dragOver, setDragOver] = useState<string | null>(null)
  const back = `/calendar?view=${data.view}&date=${data.anchor}`
  const entries = data.entries as CalendarEntry[]
  // While a drag-and-drop move is on its way, show the entry on its new day already.
  const pendingMove = mover.formData
    ? { postId: String(mover.formData.get('postId')), date: String(mover.formData.get('date')) }
    : null
  const byDay = new Map<string, CalendarEntry[]>()
  for (const e of entries) {
    const day =
      pendingMove && e.kind === 'scheduled' && e.postId === pendingMove.postId ? pendingMove.date : e.at.slice(0, 10)
    byDay.set(day, [...(byDay.get(day) ?? []), e])
  }

  const onDrop = (day: string) => (event: DragEvent) => {
    event.preventDefault()
    setDragOver(null)
    const raw = event.dataTransfer.getData('application/x-rankwell-post')
    if (!raw) return
    const { postId, current } = JSON.parse(raw) as { postId: string; current: string }
    if (day < data.today) return
    mover.submit({ intent: 'move', postId, current, date: day, back }, { method: 'post' })
  }

  const dayCell = (day: string) => (
    <div
      data-day={day}
      onDragOver={(event) => {
        if (day < data.today) return
        event.preventDefault()
        setDragOver(day)
      }}
      onDragLeave={() => setDragOver((d) => (d === day ? null : d))}
      onDrop={onDrop(day)}
      className={`min-h-24 p-1 ${dragOver === day ? 'bg-brand-50 outline outline-2 outline-brand-400' : ''}`}
    >
      <p className={`text-xs font-semibold ${day === data.today ? 'text-brand-700' : 'text-slate-600'}`}>
        {DAY_FORMAT.format(new Date(`${day}T00:00:00Z`))}
      </p>
      <ul className="mt-1 grid gap-1">
        {(byDay.get(day) ?? []).map((e) => (
          <Entry key={e.id} entry={e} back={back} today={data.today} />
        ))}
      </ul>
    </div>
  )

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader
        title="Calendar"
        subtitle="Auto Pilot's next posts, drafts waiting for review, scheduled and published posts."
      />
      <Toaster toast={moverData?.toast ?? actionData?.toast} />
      {data.pause ? <PauseNotice pause={data.pause} /> : null}
      <nav aria-label="Calendar" className="mb-4 flex flex-wrap items-center gap-2">
        <Link
          to={`?view=${data.view}&date=${data.prev}`}
          className="btn-secondary py-2"
          aria-label={`Previous ${data.view}`}
        >
          ←
        </Link>
        <h2 className="min-w-48 text-center text-lg font-semibold text-slate-900" data-testid="calendar-title">
          {data.title}
        </h2>
        <Link
          to={`?view=${data.view}&date=${data.next}`}
          className="btn-secondary py-2"
          aria-label={`Next ${data.view}`}
        >
          →
        </Link>
        <Link to={`?view=${data.view}`} className="btn-secondary py-2">
          Today
        </Link>
        <span className="ml-auto flex gap-2">
          <Link
            to={`?view=month&date=${data.anchor}`}
            aria-current={data.view === 'month' ? 'page' : undefined}
            className="btn-secondary py-2"
          >
            Month
          </Link>
          <Link
            to={`?view=week&date=${data.anchor}`}
            aria-current={data.view === 'week' ? 'page' : undefined}
            className="btn-secondary py-2"
          >
            Week
          </Link>
        </span>
      </nav>
      {data.view === 'month' ? (
        // Below `sm` the month stacks into a list of its days that have something on them (and today), so that a
        // phone needs no sideways swipe; from `sm` up it is the 7-column grid (scrollable when narrow).
        <ScrollRegion label="Month table" className="sm:overflow-x-auto">
          <table
            className="w-full table-fixed border-collapse text-left max-sm:block sm:min-w-[720px]"
            data-testid="calendar-month"
          >
            <thead className="max-sm:sr-only">
              <tr>
                {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => (
                  <th
                    key={d}
                    scope="col"
                    className="border-b border-slate-200 px-1 py-2 text-xs uppercase text-slate-600"
                  >
                    {d}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="max-sm:grid max-sm:gap-2">
              {data.weeks.map((week) => (
                <tr key={week[0]} className="max-sm:contents">
                  {week.map((day) => (
                    <td
                      key={day}
                      className="border border-slate-200 align-top max-sm:block max-sm:rounded-lg max-sm:data-[quiet]:hidden"
                      data-quiet={(day !== data.today && !byDay.get(day)?.length) || undefined}
                    >
                      {dayCell(day)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <ol className="grid gap-2" data-testid="calendar-week">
          {data.weeks[0]!.map((day) => (
            <li key={day} className="rounded-lg border border-slate-200">
              {dayCell(day)}
            </li>
          ))}
        </ol>
      )}
      <p className="mt-4 text-sm text-slate-600">
        Drag a scheduled post to another day to move it (or use its Move link). Times are in UTC.{' '}
        <Link to="/settings/publishing" className="font-semibold text-brand-700 hover:underline">
          Publishing destinations
        </Link>
      </p>
    </div>
  )
}
