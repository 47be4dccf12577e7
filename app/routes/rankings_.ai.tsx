import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import { PageHeader } from '#app/ui/page-header'
import { SubmitButton } from '#app/ui/submit-button'
import { SelectField, TextareaField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { FormMessage } from '#app/ui/form-message'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  revalidateUnlessFailed,
  withoutFailure,
} from '#app/ui/client-failure'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { hit } from '#app/platform/security/rate-limit.server'
import {
  isoWeek,
  MAX_BRAND_ALIASES,
  MAX_COMPETITOR_DOMAINS,
  PROMPT_LENGTH,
  SAMPLES,
} from '#app/features/visibility/visibility'
import {
  AI_SETTINGS_MESSAGES,
  aiSettingsSchema,
  PROMPT_MESSAGES,
  promptSchema,
  settingsFormValues,
} from '#app/features/visibility/settings'
import { getAiSettings, saveAiSettings } from '#app/features/visibility/settings.server'
import {
  acceptPrompt,
  addPrompt,
  listPrompts,
  removePrompt,
  suggestPrompts,
} from '#app/features/visibility/prompts.server'
import { aiVisibilityOverview } from '#app/features/visibility/read.server'
import { toPageSubject } from '#app/features/visibility/page-view'
import { AiSubject } from '#app/features/visibility/components/ai-subject'

export const meta: MetaFunction = () => [{ title: 'AI visibility · Rankwell' }, { name: 'robots', content: 'noindex' }]

/** Adding prompts: each one is sent to four assistants every day, so at most this many adds a minute. */
const ADDS_PER_MINUTE = 10

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const url = new URL(request.url)
  const page = Number(url.searchParams.get('page') ?? '1')
  const [overview, prompts, settings] = await Promise.all([
    aiVisibilityOverview(user.id, { page: Number.isInteger(page) && page > 0 ? page : 1 }),
    listPrompts(user.id),
    getAiSettings(user.id),
  ])
  return json(
    {
      // Only what the page shows (the API keeps every week's full figures): a compact trend per engine.
      overview: {
        ...overview,
        keywords: overview.keywords.map(toPageSubject),
        prompts: overview.prompts.map(toPageSubject),
      },
      suggested: prompts.suggested,
      promptLimit: prompts.limit,
      activePrompts: prompts.active.length,
      settings,
      currentWeek: isoWeek(new Date().toISOString().slice(0, 10)),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type Answer =
  | { intent: 'save-settings'; result: SubmissionResult<string[]> }
  | { intent: 'add-prompt'; result: SubmissionResult<string[]> }
  | { intent: 'prompt-list'; message: string }

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const done = (message: string) => toast().redirectWithSuccess('/rankings/ai', { message, duration: TOAST_MS })
  if (intent === 'save-settings') {
    const submission = parseSubmission(form, aiSettingsSchema)
    if (submission.status !== 'success') return json<Answer>({ intent, result: submission.reply() }, { status: 400 })
    await saveAiSettings(user.id, submission.value)
    return done(AI_SETTINGS_MESSAGES.saved)
  }
  if (intent === 'add-prompt') {
    const submission = parseSubmission(form, promptSchema)
    if (submission.status !== 'success') return json<Answer>({ intent, result: submission.reply() }, { status: 400 })
    // Counted once the prompt is valid (the same bucket as POST /api/ai-prompts).
    const limit = await hit(`ai-prompt:${user.id}`, { limit: ADDS_PER_MINUTE, windowSeconds: 60, failOpen: true })
    if (!limit.allowed) {
      const message = `Too many prompts added. Try again in ${limit.retryAfterSeconds} seconds.`
      return json<Answer>({ intent, result: submission.reply({ formErrors: [message] }) }, { status: 429 })
    }
    const added = await addPrompt(user.id, submission.value)
    if (!added.ok)
      return json<Answer>(
        { intent, result: submission.reply({ fieldErrors: { prompt: [added.message] } }) },
        { status: added.status },
      )
    return done(PROMPT_MESSAGES.added)
  }
  const id = String(form.get('promptId') ?? '')
  if (intent === 'remove-prompt' || intent === 'dismiss-prompt') {
    const removed = await removePrompt(user.id, id)
    if (!removed) return json<Answer>({ intent: 'prompt-list', message: 'Prompt not found.' }, { status: 404 })
    return done(intent === 'remove-prompt' ? PROMPT_MESSAGES.removed : PROMPT_MESSAGES.dismissed)
  }
  if (intent === 'accept-prompt') {
    const accepted = await acceptPrompt(user.id, id)
    if (!accepted.ok)
      return json<Answer>({ intent: 'prompt-list', message: accepted.message }, { status: accepted.status })
    return done(PROMPT_MESSAGES.accepted)
  }
  if (intent === 'suggest-prompts') {
    const suggested = await suggestPrompts(user.id)
    // The model unavailable or failing is no fault of the request: the page answers the message (200), not a 5xx,
    // and stays usable (prompts can be written by hand meanwhile).
    if (!suggested.ok)
      return json<Answer>(
        { intent: 'prompt-list', message: suggested.message },
        { status: suggested.status >= 500 ? 200 : suggested.status },
      )
    return done(
      suggested.added === 0
        ? 'No new suggestions this time.'
        : `${suggested.added} ${suggested.added === 1 ? 'suggestion' : 'suggestions'} below: add the ones that fit.`,
    )
  }
  return json<Answer>({ intent: 'prompt-list', message: 'Unknown action.' }, { status: 400 })
}

export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

export default function AiVisibilityPage() {
  const data = useLoaderData<typeof loader>()
  const raw = useActionData<typeof clientAction>()
  const failure = clientFailureOf(raw)
  const answer = withoutFailure(raw) as Answer | undefined
  const { overview } = data
  const overQuota = overview.usage.used >= overview.usage.limit
  const noSubjects = overview.trackedKeywords === 0 && overview.prompts.length === 0
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <PageHeader
        title="AI visibility"
        subtitle="Whether Google's AI answers and the AI assistants name your brand or cite your site. Answers vary from run to run, so every figure is a rate over several answers with its 95% range."
      />
      <p className="mb-6 text-sm text-slate-700">
        <Link to="/rankings" className="font-semibold text-brand-700 hover:underline">
          Rankings
        </Link>{' '}
        · AI checks this month:{' '}
        <span data-testid="ai-usage">
          {overview.usage.used} of {overview.usage.limit}
        </span>
      </p>

      <div data-testid="ai-state">
        {overQuota ? (
          <p role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
            This month's {overview.usage.limit} AI checks are used: checks resume on the 1st of next month. The figures
            below stop at the last check.
          </p>
        ) : null}
        {noSubjects ? (
          <p className="mb-6 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
            Nothing to check yet: track keywords on{' '}
            <Link to="/rankings" className="underline">
              Rankings
            </Link>{' '}
            or add a prompt below.
          </p>
        ) : !overview.anyChecks ? (
          <p className="mb-6 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
            No AI checks have run yet: the first answers come within a day, spread over the day.
          </p>
        ) : null}
      </div>

      <section className="mb-10" aria-labelledby="ai-keywords-heading">
        <h2 id="ai-keywords-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Your keywords in Google's AI answers
        </h2>
        {overview.trackedKeywords === 0 ? (
          <p className="text-sm text-slate-600">
            No tracked keywords. Track keywords on{' '}
            <Link to="/rankings" className="underline">
              Rankings
            </Link>
            .
          </p>
        ) : (
          <div className="space-y-4">
            {overview.keywords.map((k) => (
              <AiSubject key={k.id} subject={k} weeks={overview.weeks} current={data.currentWeek} />
            ))}
          </div>
        )}
        {overview.pageCount > 1 ? (
          <nav aria-label="Pages of tracked keywords" className="mt-3 flex gap-4 text-sm">
            {overview.page > 1 ? (
              <Link to={`/rankings/ai?page=${overview.page - 1}`} rel="prev" className="underline">
                Previous
              </Link>
            ) : null}
            <span className="text-slate-600">
              Page {overview.page} of {overview.pageCount}
            </span>
            {overview.page < overview.pageCount ? (
              <Link to={`/rankings/ai?page=${overview.page + 1}`} rel="next" className="underline">
                Next
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>

      <section className="mb-10" aria-labelledby="ai-prompts-heading">
        <h2 id="ai-prompts-heading" className="mb-1 text-lg font-semibold text-slate-900">
          Your prompts in AI assistants
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          Questions a buyer would ask ChatGPT, Perplexity, Gemini or Claude. {data.activePrompts} of {data.promptLimit}{' '}
          prompts.
        </p>
        {answer?.intent === 'prompt-list' ? <FormMessage message={answer.message} tone="error" /> : null}
        {overview.prompts.length === 0 ? (
          <p className="mb-4 text-sm text-slate-600" data-testid="ai-no-prompts">
            No prompts yet. Add one below, or ask for suggestions from your business and keywords.
          </p>
        ) : (
          <div className="mb-4 space-y-4">
            {overview.prompts.map((p) => (
              <AiSubject
                key={p.id}
                subject={p}
                weeks={overview.weeks}
                current={data.currentWeek}
                actions={
                  <Form method="post">
                    <input type="hidden" name="promptId" value={p.id} />
                    <SubmitButton
                      intent="remove-prompt"
                      className="btn-secondary text-sm"
                      aria-label={`Remove prompt: ${p.label}`}
                    >
                      Remove
                    </SubmitButton>
                  </Form>
                }
              />
            ))}
          </div>
        )}
        <PromptForm
          key={answer?.intent === 'add-prompt' ? 'answered' : `prompts-${data.activePrompts}`}
          lastResult={answer?.intent === 'add-prompt' ? answer.result : undefined}
          failed={failure ? failureMessage(failure, 'Failed to add the prompt.') : undefined}
        />
        <div className="mt-6">
          <h3 className="text-base font-semibold text-slate-900">Suggestions</h3>
          {data.suggested.length ? (
            <ul className="mt-2 space-y-2" data-testid="ai-suggestions">
              {data.suggested.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
                  <span className="min-w-0 flex-1 break-words">{s.text}</span>
                  <Form method="post" className="flex gap-2">
                    <input type="hidden" name="promptId" value={s.id} />
                    <SubmitButton
                      intent="accept-prompt"
                      className="btn-secondary text-sm"
                      aria-label={`Add suggestion: ${s.text}`}
                    >
                      Add
                    </SubmitButton>
                    <SubmitButton
                      intent="dismiss-prompt"
                      className="text-sm text-slate-600 underline"
                      aria-label={`Dismiss suggestion: ${s.text}`}
                    >
                      Dismiss
                    </SubmitButton>
                  </Form>
                </li>
              ))}
            </ul>
          ) : null}
          <Form method="post" className="mt-2">
            <SubmitButton intent="suggest-prompts" className="btn-secondary text-sm" pendingText="Thinking...">
              Suggest prompts from my business
            </SubmitButton>
          </Form>
        </div>
      </section>

      <SettingsForm
        key={data.settings.updatedAt ?? 'defaults'}
        values={settingsFormValues(data.settings)}
        lastResult={answer?.intent === 'save-settings' ? answer.result : undefined}
      />
    </div>
  )
}

function PromptForm({ lastResult, failed }: { lastResult: SubmissionResult<string[]> | undefined; failed?: string }) {
  const { fields, formProps, message } = useSchemaForm({ id: 'ai-prompt', schema: promptSchema, lastResult })
  return (
    <Form method="post" className="card space-y-3" aria-label="Add a prompt" {...formProps}>
      <FormMessage message={failed ?? (fields.prompt.errors ? undefined : message)} tone="error" />
      <TextareaField
        label="A question a buyer would ask"
        meta={fields.prompt}
        rows={2}
        maxLength={PROMPT_LENGTH.max}
        hint={`${PROMPT_LENGTH.min}–${PROMPT_LENGTH.max} characters, plain text. It is sent to ChatGPT, Perplexity, Gemini and Claude: no e-mail addresses, keys or passwords.`}
      />
      <SubmitButton intent="add-prompt" pendingText="Adding...">
        Add prompt
      </SubmitButton>
    </Form>
  )
}

function SettingsForm({
  values,
  lastResult,
}: {
  values: { brandAliases: string; competitorDomains: string; samples: string }
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { fields, formProps } = useSchemaForm({
    id: 'ai-settings',
    schema: aiSettingsSchema,
    lastResult,
    defaultValue: values,
  })
  return (
    <section aria-labelledby="ai-settings-heading">
      <h2 id="ai-settings-heading" className="mb-3 text-lg font-semibold text-slate-900">
        AI visibility settings
      </h2>
      <Form method="post" className="card space-y-4" aria-label="AI visibility settings" {...formProps}>
        <TextareaField
          label="Other names of your brand"
          meta={fields.brandAliases}
          rows={3}
          hint={`One per line, up to ${MAX_BRAND_ALIASES}. Your name from your website counts already.`}
        />
        <TextareaField
          label="Competitors' domains"
          meta={fields.competitorDomains}
          rows={3}
          hint={`One per line, up to ${MAX_COMPETITOR_DOMAINS}, like example.com.`}
        />
        <SelectField
          label="Answers per prompt and day"
          meta={fields.samples}
          options={Array.from({ length: SAMPLES.max - SAMPLES.min + 1 }, (_, i) => String(SAMPLES.min + i)).map(
            (n) => ({
              value: n,
              label: n,
            }),
          )}
          hint="Each prompt is asked this many times per assistant and day: more answers, narrower ranges, more checks."
        />
        <SubmitButton intent="save-settings" pendingText="Saving...">
          Save settings
        </SubmitButton>
      </Form>
    </section>
  )
}
