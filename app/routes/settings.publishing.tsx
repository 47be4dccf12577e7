import { isUuid } from '#app/platform/security/ids'
import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { DESTINATION_DEFAULTS, DestinationForm } from '#app/features/publishing/components/destination-form'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { PageHeader } from '#app/ui/page-header'
import { SubmitButton } from '#app/ui/submit-button'
import { Toaster, type Toast } from '#app/ui/toaster'
import {
  DESTINATION_KINDS,
  destinationPageForm,
  KIND_LABELS,
  PUBLISHING_MESSAGES,
  SECRET_FIELD,
  type DestinationKind,
} from '#app/features/publishing/publishing'
import {
  deleteDestination,
  listDestinations,
  resumeDestination,
  saveDestination,
  testDestination,
  toView,
} from '#app/features/publishing/destinations.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { ActionButton } from '#app/ui/action-button'
import { PausedDestinations } from '#app/features/publishing/components/paused-destinations'

export const meta: MetaFunction = () => [{ title: 'Publishing | Rankwell' }]

const isKind = (v: string | null): v is DestinationKind => DESTINATION_KINDS.includes(v as DestinationKind)

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const url = new URL(request.url)
  const editId = url.searchParams.get('edit')
  const rows = await listDestinations(user.id)
  const editing = editId && isUuid(editId) ? rows.find((r) => r.id === editId) : undefined
  return json(
    {
      destinations: rows.map(toView),
      editing: editing ? toView(editing) : null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type ActionData = {
  intent: string
  kind?: DestinationKind
  id?: string
  /** The destination form's reply (Conform): field errors, a refusal of the whole form, the kept values. */
  result?: SubmissionResult<string[]>
  toast?: Toast
  /** When the answer was made: a new one remounts the form, so a secret the user typed is never kept. */
  at?: number
}

/** The secrets of every kind: never sent back to the browser. */
const SECRETS = Object.values(SECRET_FIELD)

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const id = String(form.get('id') ?? '')
  const ok = (message: string) => toast().redirectWithSuccess('/settings/publishing', { message, duration: TOAST_MS })
  const fail = (message: string, status = 400) =>
    json<ActionData>({ intent, id, toast: { type: 'error', message, duration: TOAST_MS } }, { status })
  if (intent !== 'save' && !isUuid(id)) return fail('Destination not found.', 404)

  switch (intent) {
    case 'save': {
      const limit = await hit(`destination-test:${user.id}`, { limit: 20, windowSeconds: 60, failOpen: true })
      if (!limit.allowed)
        return fail(`Too many connection tests. Try again in ${limit.retryAfterSeconds} seconds.`, 429)
      const kind = String(form.get('kind') ?? '')
      const submission = parseSubmission(form, destinationPageForm)
      const refuse = (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status = 400) =>
        json<ActionData>(
          {
            intent,
            kind: isKind(kind) ? kind : undefined,
            id: id || undefined,
            result: submission.reply({ ...errors, hideFields: SECRETS }),
            at: Date.now(),
          },
          { status },
        )
      if (submission.status !== 'success') return refuse({})
      const result = await saveDestination(user.id, submission.value, id && isUuid(id) ? id : undefined)
      if (result.ok) return ok(`${PUBLISHING_MESSAGES.saved} ${result.message}`)
      return refuse(
        result.field ? { fieldErrors: { [result.field]: [result.message] } } : { formErrors: [result.message] },
        result.status,
      )
    }
    case 'test': {
      const limit = await hit(`destination-test:${user.id}`, { limit: 20, windowSeconds: 60, failOpen: true })
      if (!limit.allowed)
        return fail(`Too many connection tests. Try again in ${limit.retryAfterSeconds} seconds.`, 429)
      const result = await testDestination(user.id, id)
      if (!result) return fail('Destination not found.', 404)
      return result.ok ? ok(result.message) : fail(result.message)
    }
    case 'delete':
      return (await deleteDestination(user.id, id))
        ? ok(PUBLISHING_MESSAGES.deleted)
        : fail('Destination not found.', 404)
    case 'resume':
      return (await resumeDestination(user.id, id)) ? ok('Destination resumed.') : fail('Destination not found.', 404)
    default:
      return fail('Unknown action.')
  }
}

/** A saved destination's settings as the form's starting values (lists as comma-separated text). */
function configValues(config: Record<string, unknown>) {
  const values: Record<string, string> = {}
  for (const [k, v] of Object.entries(config)) values[k] = Array.isArray(v) ? v.join(', ') : v == null ? '' : String(v)
  return values
}

export default function PublishingSettings() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ActionData | undefined
  const [params] = useSearchParams()
  const addKind = params.get('add')
  const formKind: DestinationKind | null =
    actionData?.intent === 'save' && actionData.kind
      ? actionData.kind
      : data.editing
        ? data.editing.kind
        : isKind(addKind)
          ? addKind
          : null
  const saveAnswer = actionData?.intent === 'save' ? actionData : undefined
  const editingId = saveAnswer ? saveAnswer.id : data.editing?.id
  const defaultValue = data.editing
    ? {
        ...DESTINATION_DEFAULTS,
        ...configValues(data.editing.config),
        name: data.editing.name,
        autopilot: data.editing.autopilot ? 'on' : '',
      }
    : DESTINATION_DEFAULTS

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <PageHeader
        title="Publishing"
        subtitle="Where Rankwell publishes your posts: WordPress, Ghost and Webflow, next to your Auto Pilot webhook."
      />
      <Toaster toast={actionData?.toast} />
      <p className="mb-6 text-sm text-slate-700">
        <Link to="/autopilot" className="font-semibold text-brand-700 hover:underline">
          Auto Pilot and review settings
        </Link>{' '}
        ·{' '}
        <Link to="/calendar" className="font-semibold text-brand-700 hover:underline">
          Publishing calendar
        </Link>{' '}
        ·{' '}
        <Link to="/settings/content" className="font-semibold text-brand-700 hover:underline">
          Content settings
        </Link>
      </p>

      <PausedDestinations
        destinations={data.destinations}
        testId="destination-paused"
        className="mb-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900"
        fix="Fix it, then resume it."
      />

      <section className="card mb-6" aria-labelledby="destinations-heading">
        <h2 id="destinations-heading" className="text-lg font-semibold text-slate-900">
          Destinations
        </h2>
        {data.destinations.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">
            No destination yet. Add your blog below: Rankwell publishes each post there, updates it when you edit it,
            and can take it down again.
          </p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-200" data-testid="destination-list">
            {data.destinations.map((d) => (
              <li key={d.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{d.name}</p>
                  <p className="text-sm text-slate-600">
                    {d.kindLabel} · {d.host}
                    {d.autopilot ? ' · Auto Pilot' : ''}
                    {d.paused ? ' · Paused' : ''}
                  </p>
                  {d.lastCheckError ? (
                    <p className="mt-1 text-sm text-red-700" data-testid="destination-check-error">
                      {d.lastCheckError}
                    </p>
                  ) : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  <ActionButton
                    field={['id', d.id]}
                    intent="test"
                    className="btn-secondary py-2"
                    pendingText="Testing…"
                  >
                    Test connection
                  </ActionButton>
                  {d.paused ? (
                    <ActionButton field={['id', d.id]} intent="resume" className="btn-secondary py-2">
                      Resume
                    </ActionButton>
                  ) : null}
                  <Link to={`?edit=${d.id}`} className="btn-secondary py-2">
                    Edit
                  </Link>
                  <Form
                    method="post"
                    onSubmit={(event) => {
                      if (!confirm(`Remove ${d.name}? Posts already published there stay on the site.`))
                        event.preventDefault()
                    }}
                  >
                    <input type="hidden" name="id" value={d.id} />
                    <SubmitButton intent="delete" className="btn-secondary py-2 text-red-700">
                      Remove
                    </SubmitButton>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label="Add a destination">
          {DESTINATION_KINDS.map((kind) => (
            <Link key={kind} to={`?add=${kind}`} className="btn-secondary py-2">
              Add {KIND_LABELS[kind]}
            </Link>
          ))}
        </div>
      </section>

      {formKind ? (
        <DestinationForm
          key={`${formKind}-${editingId ?? 'new'}-${saveAnswer?.at ?? 0}`}
          kind={formKind}
          id={editingId}
          defaultValue={defaultValue}
          lastResult={saveAnswer?.result}
        />
      ) : null}
    </div>
  )
}
