import { Link } from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'

/**
 * The spec's generic confirm dialog: a message, a 'Close' button and an action button with custom text (`action`,
 * usually a form's submit button, so that it works without JavaScript). Rendered by the server too: without
 * JavaScript 'Close' is a link to `closeHref`; with it, `onClose` closes it in place (and Escape does too).
 */
export function ConfirmDialog({
  title,
  message,
  closeHref,
  onClose,
  action,
}: {
  title: string
  message: ReactNode
  closeHref: string
  onClose?: () => void
  action: ReactNode
}) {
  const closeRef = useRef<HTMLAnchorElement>(null)
  useEffect(() => {
    closeRef.current?.focus()
    if (!onClose) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4" role="presentation">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-dialog-title"
        aria-describedby="confirm-dialog-message"
        className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl"
        data-testid="confirm-dialog"
      >
        <h2 id="confirm-dialog-title" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <p id="confirm-dialog-message" className="mt-2 break-words text-slate-700">
          {message}
        </p>
        <div className="mt-6 flex justify-end gap-3">
          <Link
            ref={closeRef}
            to={closeHref}
            replace
            preventScrollReset
            className="btn-secondary"
            onClick={(e) => {
              if (!onClose) return
              e.preventDefault()
              onClose()
            }}
          >
            Close
          </Link>
          {action}
        </div>
      </div>
    </div>
  )
}
