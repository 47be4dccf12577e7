import { useEffect, type ComponentProps } from 'react'
import { MIN_PASSWORD_LENGTH } from '#app/features/accounts/account-schemas'
import { Field } from '#app/ui/field'

type FieldProps = ComponentProps<typeof Field>

/** The field's own name, unless the form's metadata (`meta`) names it. */
const nameUnlessMeta = (meta: FieldProps['meta'], name: string) => (meta ? {} : { name })

/** The account's e-mail address (sign-in, sign-up, forgot password). */
export function EmailField(props: Omit<FieldProps, 'label' | 'name' | 'type' | 'autoComplete'>) {
  return (
    <Field
      label="Email"
      {...nameUnlessMeta(props.meta, 'email')}
      type="email"
      autoComplete="email"
      required
      {...props}
    />
  )
}

/**
 * A password field. `current` is the password the account has (sign-in, confirmations); `new` is one being chosen,
 * so the browser offers to generate it and the form asks for the minimum length. A password is never shown again:
 * the action's reply hides it, and `useForgetPasswords` empties what the browser still holds.
 */
export function PasswordField({
  purpose,
  label = 'Password',
  name = 'password',
  ...props
}: Omit<FieldProps, 'label' | 'type' | 'autoComplete' | 'minLength'> & {
  purpose: 'current' | 'new'
  label?: FieldProps['label']
}) {
  return (
    <Field
      label={label}
      {...nameUnlessMeta(props.meta, name)}
      type="password"
      autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
      required
      minLength={purpose === 'new' ? MIN_PASSWORD_LENGTH : undefined}
      {...props}
    />
  )
}

/**
 * Passwords are never kept: after every answer of the action (`result` changes), the password inputs of the form
 * `formId` are emptied. Without JavaScript the server's page has them empty already; with it, the inputs would
 * otherwise still hold what was typed.
 */
export function useForgetPasswords(formId: string, result: unknown) {
  useEffect(() => {
    if (!result) return
    const form = document.getElementById(formId)
    if (!(form instanceof HTMLFormElement)) return
    for (const input of form.querySelectorAll<HTMLInputElement>('input[type="password"]')) input.value = ''
  }, [formId, result])
}
