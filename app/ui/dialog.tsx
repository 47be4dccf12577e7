import { Link } from '@remix-run/react'
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])'

/** The elements of `root` that Tab stops at, in order (visible ones only). */
function tabStops(root: HTMLElement) {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((e) => e.getClientRects().length > 0)
}

/**
 * The element outside any dialog that last had the focus. A dialog that opens after a form submission finds the
 * focus on the page's body (the submit button disabled itself while busy, which drops its focus); that button is
 * still where the focus should return when the dialog closes.
 */
let lastFocused: HTMLElement | null = null
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (e) => {
      if (e.target instanceof HTMLElement && !e.target.closest('dialog')) lastFocused = e.target
    },
    true,
  )
}

/** The element a dialog opening now returns the focus to when it closes. */
function openerNow(dialog: HTMLElement) {
  const active = document.activeElement
  if (active instanceof HTMLElement && active !== document.body && !dialog.contains(active)) return active
  return lastFocused?.isConnected && !dialog.contains(lastFocused) ? lastFocused : null
}

/**
 * The one accessible dialog of the app: a native `<dialog>` opened with `showModal()`, so that the page behind is
 * inert and Escape closes it. It moves the focus inside (to the element marked `data-autofocus`, else to the first
 * control), keeps Tab and Shift+Tab inside, and gives the focus back to the element that opened it when it closes.
 *
 * It is rendered by the server too: a dialog that is `open` on the first render comes with the `open` attribute and
 * shows without JavaScript (as a non-modal dialog dressed as a modal one); once JavaScript runs it becomes modal.
 * `onClose` is called when the user closes it (Escape, a click on the backdrop); the parent then sets `open` to
 * false or stops rendering it.
 */
export function Dialog({
  open,
  onClose,
  role = 'dialog',
  labelledBy,
  describedBy,
  className = 'max-w-md',
  testId,
  children,
}: {
  open: boolean
  onClose?: () => void
  role?: 'dialog' | 'alertdialog'
  labelledBy: string
  describedBy?: string
  /** Width classes of the dialog box. */
  className?: string
  testId?: string
  children: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  // Only the first render sets the `open` attribute (the server's HTML); afterwards showModal()/close() own it.
  const [openOnServer] = useState(open)
  const opener = useRef<HTMLElement | null>(null)
  const closeRef = useRef(onClose)
  useEffect(() => {
    closeRef.current = onClose
  }, [onClose])

  useEffect(() => {
    const el = ref.current
    if (!el) return
    if (open && !el.matches(':modal')) {
      opener.current = openerNow(el)
      if (el.open) el.close() // the server's non-modal dialog: reopened as a modal one (its close event is ignored)
      el.showModal()
      const first = el.querySelector<HTMLElement>('[data-autofocus]') ?? tabStops(el)[0]
      first?.focus()
    } else if (!open && el.open) {
      el.close()
      restoreFocus(opener)
    }
  }, [open])
  // Unmounted while open (the parent stopped rendering it): the focus goes back too.
  useEffect(() => () => restoreFocus(opener), [])

  return (
    <dialog
      ref={ref}
      open={openOnServer || undefined}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-testid={testId}
      onClose={() => {
        // Closed by the browser after all (an Escape whose cancel it did not let us prevent) or by the effect above:
        // tell the parent (a no-op when it already closed it). A dialog reopened as modal is open again: ignore.
        if (ref.current?.open) return
        restoreFocus(opener)
        closeRef.current?.()
      }}
      onCancel={(e) => {
        // Escape: the parent closes it (through `open`), never the browser behind the parent's back. A close by the
        // browser gives the focus back to the opener at once but tells the parent only with the later `close`
        // event: an Enter on the opener in between would reopen a dialog whose `open` is still true, and nothing
        // would show.
        e.preventDefault()
        closeRef.current?.()
      }}
      onClick={(e) => {
        if (e.target === ref.current) closeRef.current?.() // a click on the backdrop
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Tab' || !ref.current) return
        const stops = tabStops(ref.current)
        const first = stops[0]
        const last = stops[stops.length - 1]
        if (!first || !last) return e.preventDefault()
        const active = document.activeElement
        if (e.shiftKey && (active === first || !ref.current.contains(active))) {
          e.preventDefault()
          last.focus()
        } else if (!e.shiftKey && (active === last || !ref.current.contains(active))) {
          e.preventDefault()
          first.focus()
        }
      }}
      className={`fixed inset-0 z-50 m-auto h-fit max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] overflow-y-auto rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50 [&:not(:modal)]:shadow-[0_0_0_100vmax_rgb(15_23_42/0.5)] ${className}`}
    >
      {children}
    </dialog>
  )
}

/**
 * Focuses `target` now, and again a moment later if the focus was lost meanwhile (it is on the body): the browser's
 * own clean-up of a modal dialog that just left the page (the rest of the page stops being inert at its next
 * rendering step) can drop a focus given back too early, as happened under load.
 */
function focusSoon(target: HTMLElement) {
  target.focus()
  setTimeout(() => {
    const active = document.activeElement
    if (target.isConnected && !target.matches(':disabled') && (!active || active === document.body)) target.focus()
  }, 50)
}

/** Gives the focus back to the element that opened a dialog (`opener`), once it can take it. */
export function restoreFocus(opener: { current: HTMLElement | null }) {
  const target = opener.current
  opener.current = null
  if (!target?.isConnected) return
  if (!target.matches(':disabled')) return focusSoon(target)
  // A submit button that disabled itself while its form is busy: the submission that opened the dialog may still be
  // revalidating the page when the dialog is closed (a quick Enter on 'Close'), and a disabled button takes no focus.
  // Focus it once it is enabled again, unless the focus went somewhere else meanwhile.
  const observer = new MutationObserver(() => {
    if (!target.isConnected || target.matches(':disabled')) return
    observer.disconnect()
    const active = document.activeElement
    if (!active || active === document.body) focusSoon(target)
  })
  observer.observe(target, { attributes: true, attributeFilter: ['disabled'] })
  setTimeout(() => observer.disconnect(), 30_000)
}

/**
 * A dialog's 'Close' button. Without JavaScript it is the submit button of a GET form to `href` (its query string
 * becomes hidden fields), so that it works as a link would; with JavaScript (`onClose`), it closes in place.
 */
export function CloseButton({
  href,
  onClose,
  className = 'btn-secondary',
  children = 'Close',
}: {
  href: string
  onClose?: () => void
  className?: string
  children?: ReactNode
}) {
  const url = new URL(href, 'http://localhost')
  return (
    <form method="get" action={url.pathname}>
      {Array.from(url.searchParams, ([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className={className}
        onClick={(e: MouseEvent) => {
          if (!onClose) return
          e.preventDefault()
          onClose()
        }}
      >
        {children}
      </button>
    </form>
  )
}

/**
 * The generic message dialog: a message, a 'Close' button and an optional action button with custom text.
 * Rendered by the server too, so it works without JavaScript: 'Close' then goes back to `closeHref`.
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
  const close = () => {
    setOpen(false)
    onClose?.()
  }
  return (
    <Dialog open onClose={close} labelledBy="message-dialog-title" describedBy="message-dialog-message">
      <div className="p-6">
        <h2 id="message-dialog-title" className={title ? 'text-lg font-semibold' : 'sr-only'}>
          {title ?? 'Message'}
        </h2>
        <p id="message-dialog-message" className="mt-2 text-slate-700" data-testid="dialog-message">
          {message}
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <CloseButton href={closeHref} onClose={close} />
          {action ? (
            <Link to={action.to} className="btn-primary">
              {action.label}
            </Link>
          ) : null}
        </div>
      </div>
    </Dialog>
  )
}
