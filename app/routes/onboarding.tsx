import { readForm } from '#app/platform/http/body.server'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { FormMessage } from '#app/ui/form-message'
import { CustomerFields, MarketSelects, WebsiteField } from '#app/features/accounts/components/business-fields'
import { SubmitButton } from '#app/ui/submit-button'
import { parseSubmission } from '#app/platform/forms/submission'
import { useSchemaForm } from '#app/ui/form'
import { businessValues, onboardingFormSchema } from '#app/features/accounts/account-schemas'
import { firstSearchPath } from '#app/features/accounts/account-routing'
import { completeOnboarding, profileFields } from '#app/features/accounts/profile.server'
import { requireUser } from '#app/features/accounts/session.server'

export const meta: MetaFunction = () => [
  { title: 'Set up your business | Rankwell' },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  return json({ values: businessValues(profileFields(user)) })
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const submission = parseSubmission(await readForm(request), onboardingFormSchema)
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  await completeOnboarding(user.id, submission.value)
  // The keywords screen runs this first search at once (run=1).
  return redirect(firstSearchPath(submission.value))
}

export default function Onboarding() {
  const { values } = useLoaderData<typeof loader>()
  const data = useActionData<typeof action>()
  const { form, fields, formProps, message } = useSchemaForm({
    id: 'onboarding',
    schema: onboardingFormSchema,
    lastResult: data?.result,
    defaultValue: values,
  })
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <div className="mb-8 text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Welcome to Rankwell</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Tell us about your business</h1>
        <p className="mt-2 text-slate-600">
          We use this to find the keywords your customers search for, and Auto Pilot uses it to pick topics.
        </p>
      </div>
      <div className="card">
        {/* Once the form was sent (or stopped before sending) with errors, for as long as one is left. */}
        <FormMessage
          message={form.status === 'error' && message ? 'Please check the highlighted fields.' : null}
          tone="error"
        />
        <Form method="post" className="space-y-5" {...formProps}>
          <WebsiteField meta={fields.website} autoComplete="url" hint="Optional." />
          <CustomerFields
            fields={fields}
            marketSegment={{ placeholder: 'e.g. Owners of small online shops' }}
            productService={{
              placeholder: 'e.g. email marketing software',
              hint: 'Your first keyword search starts from this.',
            }}
          />
          <MarketSelects fields={fields} />
          <SubmitButton className="btn-primary w-full py-3 text-base" pendingText="Saving...">
            Continue to SEO Setup
          </SubmitButton>
        </Form>
      </div>
    </div>
  )
}
