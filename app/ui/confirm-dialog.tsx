import type { ReactNode } from 'react'
import { CloseButton, Dialog } from './dialog'

/**
 * The spec's generic confirm dialog: a message, a 'Close' button and an action button with custom text (`action`,
 * usually a form's submit button, so that it works without JavaScript). Rendered by the server too: without
 * JavaScript 'Close' goes to `closeHref`; with it, `onClose` closes it in place (and Escape does too). The focus
 * starts on 'Close', the safe choice.
 */
export function ConfirmDialog({
  title,
  message,
  closeHref,
  onClose,
  action,
  children,
}: {
  title: string
  message: ReactNode
  closeHref: string
  onClose?: () => void
  action: ReactNode
  /** More of the dialog between the message and the buttons (fields of the action's form, by their `form` id). */
  children?: ReactNode
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      role="alertdialog"
      labelledBy="confirm-dialog-title"
      describedBy="confirm-dialog-message"
      testId="confirm-dialog"
    >
      <div className="p-6">
        <h2 id="confirm-dialog-title" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <p id="confirm-dialog-message" className="mt-2 break-words text-slate-700">
          {message}
        </p>
        {children}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <CloseButton href={closeHref} onClose={onClose} />
          {action}
        </div>
      </div>
    </Dialog>
  )
}
