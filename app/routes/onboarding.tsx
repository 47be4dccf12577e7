import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { FormMessage } from '#app/components/auth-layout'
import { Field, SelectField } from '#app/components/ui/field'
import { SubmitButton } from '#app/components/ui/submit-button'
import { describeErrors, marketFieldsFromForm, onboardingSchema, type FieldErrors } from '#app/lib/account-schemas'
import { firstSearchPath } from '#app/lib/account-routing'
import { COUNTRY_OPTIONS, LANGUAGE_OPTIONS } from '#app/lib/markets'
import { completeOnboarding } from '#app/server/account.server'
import { requireUser } from '#app/server/session.server'

export const meta: MetaFunction = () => [{ title: 'Set up your business | Rankwell' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  return json({
    values: {
      website: user.website ?? '',
      marketSegment: user.marketSegment ?? '',
      productService: user.productService ?? '',
      countryCode: user.countryCode ?? '',
      languageCode: user.languageCode ?? '',
    },
  })
}

type Values = { website: string; marketSegment: string; productService: string; countryCode: string; languageCode: string }

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await request.formData()
  const raw = marketFieldsFromForm(form)
  const parsed = onboardingSchema.safeParse(raw)
  if (!parsed.success) {
    const values: Values = {
      website: raw.website ?? '',
      marketSegment: raw.marketSegment ?? '',
      productService: raw.productService ?? '',
      countryCode: raw.country?.code ?? '',
      languageCode: raw.language?.code ?? '',
    }
    return json({ ...describeErrors(parsed.error), values }, { status: 400 })
  }
  await completeOnboarding(user.id, parsed.data)
  // The keywords screen runs this first search at once (run=1).
  return redirect(firstSearchPath(parsed.data))
}

export default function Onboarding() {
  const { values: saved } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const values = actionData?.values ?? saved
  const errors: FieldErrors = actionData?.errors ?? {}
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
        <FormMessage message={actionData ? 'Please check the highlighted fields.' : null} tone="error" />
        <Form method="post" className="space-y-5" key={actionData ? 'retry' : 'first'}>
          <Field
            label="Website"
            name="website"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://yourcompany.com"
            hint="Optional."
            defaultValue={values.website}
            error={errors.website}
          />
          <Field
            label="Ideal Customer"
            name="marketSegment"
            required
            maxLength={500}
            placeholder="e.g. Owners of small online shops"
            defaultValue={values.marketSegment}
            error={errors.marketSegment}
          />
          <Field
            label="Product/Service"
            name="productService"
            required
            maxLength={500}
            placeholder="e.g. email marketing software"
            hint="Your first keyword search starts from this."
            defaultValue={values.productService}
            error={errors.productService}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <SelectField
              label="Country"
              name="countryCode"
              options={COUNTRY_OPTIONS}
              placeholder="Select country"
              defaultValue={values.countryCode}
              error={errors.country}
            />
            <SelectField
              label="Language"
              name="languageCode"
              options={LANGUAGE_OPTIONS}
              placeholder="Select language"
              defaultValue={values.languageCode}
              error={errors.language}
            />
          </div>
          <SubmitButton className="btn-primary w-full py-3 text-base" pendingText="Saving...">
            Continue to SEO Setup
          </SubmitButton>
        </Form>
      </div>
    </div>
  )
}
