import type { ComponentProps, InputHTMLAttributes, ReactNode } from 'react'
import { Field, SelectField } from '#app/ui/field'
import { COUNTRY_OPTIONS, LANGUAGE_OPTIONS } from '#app/platform/markets/markets'

/**
 * The business-details fields of onboarding and the profile edit (website, ideal customer, product/service,
 * country and language), given their form's fields (`useSchemaForm` of `onboardingFormSchema` or
 * `profileFormSchema`): name, kept value and errors come from there. Each page adds its own hints and placeholders
 * through `extra` props.
 */
type Meta = NonNullable<ComponentProps<typeof Field>['meta']>
type Extra = Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'defaultValue'> & { hint?: ReactNode }

export function WebsiteField({ meta, ...extra }: { meta: Meta } & Extra) {
  return (
    <Field label="Website" type="url" inputMode="url" {...extra} placeholder="https://yourcompany.com" meta={meta} />
  )
}

const CUSTOMER_FIELDS = [
  { label: 'Ideal Customer', name: 'marketSegment' },
  { label: 'Product/Service', name: 'productService' },
] as const

/** Ideal Customer (the market segment) and Product/Service: both required, at most 500 characters. */
export function CustomerFields({
  fields,
  marketSegment,
  productService,
}: {
  fields: { marketSegment: Meta; productService: Meta }
  marketSegment?: Extra
  productService?: Extra
}) {
  const extra = { marketSegment, productService }
  return (
    <>
      {CUSTOMER_FIELDS.map(({ label, name }) => (
        <Field key={name} label={label} required maxLength={500} {...extra[name]} meta={fields[name]} />
      ))}
    </>
  )
}

const MARKET_SELECTS = [
  { label: 'Country', name: 'countryCode', options: COUNTRY_OPTIONS, placeholder: 'Select country' },
  { label: 'Language', name: 'languageCode', options: LANGUAGE_OPTIONS, placeholder: 'Select language' },
] as const

/** Country and language, side by side: selects of codes, whose errors are their own (`countryCode`, `languageCode`). */
export function MarketSelects({ fields }: { fields: { countryCode: Meta; languageCode: Meta } }) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {MARKET_SELECTS.map(({ label, name, options, placeholder }) => (
        <SelectField key={name} label={label} options={options} placeholder={placeholder} meta={fields[name]} />
      ))}
    </div>
  )
}
