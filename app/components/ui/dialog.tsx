import { Link } from '@remix-run/react'
import { forwardRef, useEffect, useState, type ReactNode } from 'react'

/**
 * The frame every modal dialog shares: the dimmed backdrop and the panel with its title and message (wired to the
 * dialog by `aria-labelledby`/`aria-describedby`, with ids made from `id`), then `children`: the buttons.
 */
export function DialogPanel({
  id,
  role = 'dialog',
  title,
  titleClassName = 'text-lg font-semibold',
  message,
  messageClassName = 'mt-2 text-slate-700',
  messageTestId,
  testId,
  children,
}: {
  id: string
  role?: 'dialog' | 'alertdialog'
  title: ReactNode
  titleClassName?: string
  message: ReactNode
  messageClassName?: string
  messageTestId?: string
  testId?: string
  children: ReactNode
}) {
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4" role="presentation">
      <div
        role={role}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-message`}
        className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl"
        data-testid={testId}
      >
        <h2 id={`${id}-title`} className={titleClassName}>
          {title}
        </h2>
        <p id={`${id}-message`} className={messageClassName} data-testid={messageTestId}>
          {message}
        </p>
        {children}
      </div>
    </div>
  )
}

/**
 * A dialog's 'Close': a link back to `to`, so that it works without JavaScript; with `onClose`, a click closes the
 * dialog in place instead.
 */
export const DialogCloseLink = forwardRef<HTMLAnchorElement, { to: string; onClose?: () => void }>(
  function DialogCloseLink({ to, onClose }, ref) {
    return (
      <Link
        ref={ref}
        to={to}
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
    )
  },
)

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
    <DialogPanel
      id="message-dialog"
      title={title ?? 'Message'}
      titleClassName={title ? 'text-lg font-semibold' : 'sr-only'}
      message={message}
      messageTestId="dialog-message"
    >
      <div className="mt-6 flex justify-end gap-3">
        <DialogCloseLink
          to={closeHref}
          onClose={() => {
            setOpen(false)
            onClose?.()
          }}
        />
        {action ? (
          <Link to={action.to} className="btn-primary">
            {action.label}
          </Link>
        ) : null}
      </div>
    </DialogPanel>
  )
}
