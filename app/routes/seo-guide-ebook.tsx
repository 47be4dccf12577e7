import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useFetcher, type ClientActionFunctionArgs } from '@remix-run/react'
import {
  clientFailureOf,
  guardServerAction,
  isClientFailure,
  revalidateUnlessFailed,
  withoutFailure,
} from '#app/ui/client-failure'
import { Honeypot } from '#app/ui/honeypot'
import { Icon } from '#app/features/marketing/components/icons'
import { Field } from '#app/ui/field'
import { SubmitButton } from '#app/ui/submit-button'
import { seoMeta } from '#app/features/marketing/seo'
import { SEO_GUIDE } from '#app/features/marketing/seo-guide'
import { LEAD_MESSAGES, leadInput } from '#app/features/marketing/leads'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { useSchemaForm } from '#app/ui/form'
import { captureLead } from '#app/features/marketing/leads.server'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Free SEO Ebook: The Founder’s Guide to SEO',
    description:
      'Get our free SEO ebook by email: how to choose keywords you can win, match search intent, write content that ranks, and measure results.',
    path: '/seo-guide-ebook',
    matches,
  })

type Placement = 'top' | 'bottom'
/** Conform's reply to the form that was sent (`placement`), and the success message once the ebook is on its way. */
type LeadData = { placement: Placement; result: SubmissionResult<string[]>; sent?: string }

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request)
  const placement: Placement = form.get('intent') === 'bottom' ? 'bottom' : 'top'
  const submission = parseSubmission(form, leadInput)
  if (submission.status !== 'success') return json<LeadData>({ placement, result: submission.reply() }, { status: 400 })
  try {
    const outcome = await captureLead(submission.value, request)
    if (outcome.ok)
      return json<LeadData>({ placement, result: submission.reply({ resetForm: true }), sent: outcome.message })
    return json<LeadData>(
      { placement, result: submission.reply({ formErrors: [LEAD_MESSAGES.failed] }) },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : {},
      },
    )
  } catch (error) {
    console.error('[leads] could not store the lead', error)
    return json<LeadData>(
      { placement, result: submission.reply({ formErrors: [LEAD_MESSAGES.thrown] }) },
      { status: 503 },
    )
  }
}

/** With JavaScript, a request that fails in the browser shows the spec's 'thrown error' message (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

/**
 * One of the page's two ebook forms, checked by `leadInput` (Conform, decision 0311). With JavaScript a fetcher form
 * (its own answer); without, a plain POST whose answer the page renders in the form that was sent. The address's
 * error sits next to it; the form's outcome (sent, refused, or the request failed in the browser) below.
 */
function EbookForm({ placement }: { placement: Placement }) {
  const fetcher = useFetcher<typeof clientAction>()
  const actionData = useActionData<typeof clientAction>()
  const busy = fetcher.state !== 'idle'
  const fromPage =
    actionData && !isClientFailure(actionData) && actionData.placement === placement ? actionData : undefined
  const latest = fetcher.data ?? fromPage
  const failure = clientFailureOf(latest)
  const answer = withoutFailure(latest)
  const { form, fields, formProps } = useSchemaForm({
    id: `ebook-${placement}`,
    schema: leadInput,
    lastResult: answer?.result,
  })
  const sent = !busy && !failure ? answer?.sent : undefined
  const error = busy ? undefined : failure ? LEAD_MESSAGES.thrown : form.errors?.[0]
  return (
    <fetcher.Form
      method="post"
      className="w-full max-w-lg"
      aria-label={placement === 'top' ? 'Get the ebook' : 'Get the ebook (bottom of page)'}
      {...formProps}
    >
      <input type="hidden" name="intent" value={placement} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Field
          className="flex-1 text-left [&_label]:sr-only"
          label="Email address"
          type="email"
          meta={fields.email}
          required
          autoComplete="email"
          placeholder="you@company.com"
        />
        <Honeypot />
        <SubmitButton pending={busy} pendingText="Sending..." className="btn-primary whitespace-nowrap py-2.5">
          Get My Free Ebook
        </SubmitButton>
      </div>
      <div aria-live="polite">
        {sent || error ? (
          <p
            id={error && !failure ? form.errorId : undefined}
            role={sent ? 'status' : 'alert'}
            data-testid="ebook-message"
            className={`mt-3 rounded-lg px-3 py-2 text-sm font-medium ${sent ? 'bg-green-50 text-green-800' : 'bg-red-50 text-red-800'}`}
          >
            {sent ?? error}
          </p>
        ) : null}
      </div>
    </fetcher.Form>
  )
}

function Cover() {
  return (
    <div
      aria-hidden="true"
      className="mx-auto w-56 rotate-2 rounded-l-md rounded-r-2xl bg-gradient-to-br from-brand-600 to-brand-900 p-6 text-white shadow-2xl sm:w-64"
    >
      <p className="text-xs font-semibold uppercase tracking-widest text-brand-100">Free ebook</p>
      <p className="mt-6 text-2xl font-extrabold leading-tight">{SEO_GUIDE.title}</p>
      <p className="mt-3 text-sm text-brand-100">
        Keywords, content, links and patience: the playbook for small teams.
      </p>
      <div className="mt-10 flex items-center gap-2 text-sm font-semibold">
        <Icon name="trend" className="h-5 w-5" /> Rankwell
      </div>
    </div>
  )
}

export default function SeoGuideEbook() {
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-14 sm:py-20">
        <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Free SEO Ebook</p>
            <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
              {SEO_GUIDE.title}
            </h1>
            <p className="mt-5 text-lg text-slate-600">{SEO_GUIDE.subtitle}</p>
            <p className="mt-3 text-slate-600">
              Enter your email and we’ll send you the link right away. Free, no strings attached.
            </p>
            <div className="mt-6">
              <EbookForm placement="top" />
            </div>
          </div>
          <Cover />
        </div>
      </section>

      <section aria-labelledby="inside-title" className="px-4 py-16">
        <div className="mx-auto max-w-5xl">
          <h2 id="inside-title" className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            What’s inside
          </h2>
          <ol className="mt-10 grid gap-5 md:grid-cols-3">
            {SEO_GUIDE.chapters.map((chapter, i) => (
              <li key={chapter.id} className="card">
                <p className="text-sm font-semibold text-brand-700">Chapter {i + 1}</p>
                <h3 className="mt-1 font-semibold text-slate-900">{chapter.title}</h3>
                <p className="mt-2 text-sm text-slate-600">{chapter.summary}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="ebook-bottom-title" className="px-4 pb-20">
        <div className="mx-auto flex max-w-4xl flex-col items-center gap-5 rounded-3xl bg-brand-700 px-6 py-10 text-center text-white sm:px-12">
          <h2 id="ebook-bottom-title" className="text-2xl font-bold sm:text-3xl">
            Get the guide in your inbox
          </h2>
          <p className="max-w-2xl text-brand-50">
            Read it in your browser or save it as a PDF. Then put it into practice with our free SEO tools.
          </p>
          <div className="w-full max-w-lg rounded-2xl bg-white p-4 text-slate-900">
            <EbookForm placement="bottom" />
          </div>
        </div>
      </section>
    </>
  )
}
