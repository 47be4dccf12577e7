import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import { HelpForm, helpAnswer, type HelpActionData } from '#app/features/accounts/components/help-form'
import { guardServerAction, revalidateUnlessFailed } from '#app/ui/client-failure'
import { parseSubmission } from '#app/platform/forms/submission'
import { helpSchema } from '#app/features/accounts/account-schemas'
import { safeRedirect } from '#app/platform/security/redirect'
import { HELP_MESSAGES, submitHelpRequest } from '#app/features/accounts/help-requests.server'
import { requireUser } from '#app/features/accounts/session.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Help | Rankwell' }, { name: 'robots', content: 'noindex' }]

/** Where to go back to after sending: a same-site page, never /help itself. */
function backTo(value: FormDataEntryValue | string | null) {
  const to = safeRedirect(value, '/keywords')
  return to.startsWith('/help') ? '/keywords' : to
}

/** The help form as a page: what the nav's Help link opens without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  return json({ redirectTo: backTo(new URL(request.url).searchParams.get('redirectTo')) })
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await readForm(request)
  const submission = parseSubmission(form, helpSchema)
  if (submission.status !== 'success')
    return json<HelpActionData>({ ok: false, result: submission.reply() }, { status: 400 })
  const result = await submitHelpRequest(user, submission.value)
  if (!result.ok)
    return json<HelpActionData>(
      { ok: false, result: submission.reply({ formErrors: [result.message] }) },
      { status: result.status },
    )
  const sent = { message: HELP_MESSAGES.sent, duration: TOAST_MS }
  // The modal (a fetcher) wants an answer it can close on; the page goes back where the person came from.
  if (form.get('mode') === 'modal') return toast().jsonWithSuccess<HelpActionData>({ ok: true }, sent)
  return toast().redirectWithSuccess(backTo(form.get('redirectTo')), sent)
}

/** With JavaScript, a question whose request fails keeps the form (and the modal) open with the text (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

export default function Help() {
  const { redirectTo } = useLoaderData<typeof loader>()
  const answer = helpAnswer(useActionData<typeof clientAction>())
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <div className="card">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">How can we help?</h1>
        <p className="mb-6 mt-1 text-slate-600">We&apos;ll respond within 24 hours</p>
        <HelpForm redirectTo={redirectTo} answer={answer} />
        <p className="mt-4 text-sm">
          <Link to={redirectTo} className="text-brand-700 hover:underline">
            Close and go back
          </Link>
        </p>
      </div>
    </div>
  )
}
