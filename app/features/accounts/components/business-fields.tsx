import type { InputHTMLAttributes, ReactNode } from 'react'
import { Field, SelectField } from '#app/ui/field'
import type { FieldErrors } from '#app/platform/forms/field-errors'
import type { BusinessValues } from '#app/features/accounts/account-schemas'
import { COUNTRY_OPTIONS, LANGUAGE_OPTIONS } from '#app/platform/markets/markets'

/**
 * The business-details fields of onboarding and the profile edit (website, ideal customer, product/service,
 * country and language). Each page adds its own hints and placeholders through `extra` props.
 */
type Extra = Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'defaultValue'> & { hint?: ReactNode }
type Props = { values: BusinessValues; errors: FieldErrors }

export function WebsiteField({ values, errors, ...extra }: Props & Extra) {
  return (
    <Field
      label="Website"
      name="website"
      type="url"
      inputMode="url"
      {...extra}
      placeholder="https://yourcompany.com"
      defaultValue={values.website}
      error={errors.website}
    />
  )
}

const CUSTOMER_FIELDS = [
  { label: 'Ideal Customer', name: 'marketSegment' },
  { label: 'Product/Service', name: 'productService' },
] as const

/** Ideal Customer (the market segment) and Product/Service: both required, at most 500 characters. */
export function CustomerFields({
  values,
  errors,
  marketSegment,
  productService,
}: Props & { marketSegment?: Extra; productService?: Extra }) {
  const extra = { marketSegment, productService }
  return (
    <>
      {CUSTOMER_FIELDS.map(({ label, name }) => (
        <Field
          key={name}
          label={label}
          name={name}
          required
          maxLength={500}
          {...extra[name]}
          defaultValue={values[name]}
          error={errors[name]}
        />
      ))}
    </>
  )
}

const MARKET_SELECTS = [
  { label: 'Country', name: 'countryCode', options: COUNTRY_OPTIONS, placeholder: 'Select country', error: 'country' },
  {
    label: 'Language',
    name: 'languageCode',
    options: LANGUAGE_OPTIONS,
    placeholder: 'Select language',
    error: 'language',
  },
] as const

/** Country and language, side by side; their errors are keyed `country` and `language` (the schema's names). */
export function MarketSelects({ values, errors }: Props) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {MARKET_SELECTS.map(({ label, name, options, placeholder, error }) => (
        <SelectField
          key={name}
          label={label}
          name={name}
          options={options}
          placeholder={placeholder}
          defaultValue={values[name]}
          error={errors[error]}
        />
      ))}
    </div>
  )
}
