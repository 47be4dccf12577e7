import { useEffect, useRef, type ReactNode } from 'react'
import { DialogCloseLink, DialogPanel } from './dialog'

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
    <DialogPanel
      id="confirm-dialog"
      role="alertdialog"
      title={title}
      titleClassName="text-lg font-semibold text-slate-900"
      message={message}
      messageClassName="mt-2 break-words text-slate-700"
      testId="confirm-dialog"
    >
      <div className="mt-6 flex justify-end gap-3">
        <DialogCloseLink ref={closeRef} to={closeHref} onClose={onClose} />
        {action}
      </div>
    </DialogPanel>
  )
}
