import type { ComponentProps } from 'react'
import { MIN_PASSWORD_LENGTH } from '#app/features/accounts/account-schemas'
import { Field } from '#app/ui/field'

type FieldProps = ComponentProps<typeof Field>

/** The account's e-mail address (sign-in, sign-up, forgot password). */
export function EmailField(props: Omit<FieldProps, 'label' | 'name' | 'type' | 'autoComplete'>) {
  return <Field label="Email" name="email" type="email" autoComplete="email" required {...props} />
}

/**
 * A password field. `current` is the password the account has (sign-in, confirmations); `new` is one being chosen,
 * so the browser offers to generate it and the form asks for the minimum length.
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
      name={name}
      type="password"
      autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
      required
      minLength={purpose === 'new' ? MIN_PASSWORD_LENGTH : undefined}
      {...props}
    />
  )
}
