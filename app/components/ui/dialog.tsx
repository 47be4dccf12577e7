import { Link } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'

/**
 * The generic message dialog: a message, a 'Close' button and an optional action button with custom text.
 * Rendered by the server too, so it works without JavaScript: 'Close' is then a link back to `closeHref`.
 */
export function MessageDialog({
  message,
  closeHref,
  action,
  title,
  onClose,
}: {
  message: ReactNode | null | undefined
  closeHref: string
  action?: { label: string; to: string }
  title?: string
  onClose?: () => void
}) {
  const [open, setOpen] = useState(Boolean(message))
  useEffect(() => setOpen(Boolean(message)), [message])
  if (!message || !open) return null
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4" role="presentation">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="message-dialog-title"
        className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl"
      >
        <h2 id="message-dialog-title" className={title ? 'text-lg font-semibold' : 'sr-only'}>
          {title ?? 'Message'}
        </h2>
        <p className="mt-2 text-slate-700" data-testid="dialog-message">
          {message}
        </p>
        <div className="mt-6 flex justify-end gap-3">
          <Link
            to={closeHref}
            replace
            preventScrollReset
            className="btn-secondary"
            onClick={(e) => {
              e.preventDefault()
              setOpen(false)
              onClose?.()
            }}
          >
            Close
          </Link>
          {action ? (
            <Link to={action.to} className="btn-primary">
              {action.label}
            </Link>
          ) : null}
        </div>
      </div>
    </div>
  )
}
