import { useNavigation } from '@remix-run/react'
import type { ButtonHTMLAttributes, ReactNode } from 'react'

/**
 * A submit button that shows `pendingText` and disables itself while its form is submitting.
 * Pass `pending` when the form is a fetcher; otherwise the page navigation state is used
 * (matched by `intent` when several forms share a page).
 */
export function SubmitButton({
  children,
  pendingText,
  pending,
  intent,
  className = 'btn-primary',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { pendingText?: ReactNode; pending?: boolean; intent?: string }) {
  const navigation = useNavigation()
  const navPending =
    navigation.state === 'submitting' && (intent === undefined || navigation.formData?.get('intent') === intent)
  const busy = pending ?? navPending
  return (
    <button
      type="submit"
      name={intent ? 'intent' : rest.name}
      value={intent ?? rest.value}
      disabled={busy || rest.disabled}
      aria-busy={busy || undefined}
      className={className}
      {...rest}
    >
      {busy && pendingText ? pendingText : children}
    </button>
  )
}
