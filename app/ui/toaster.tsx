import { Link } from '@remix-run/react'
import { useEffect, useState } from 'react'

export type Toast = {
  message: string
  type: 'info' | 'success' | 'error' | 'warning'
  description?: string
  duration?: number
}

const styles: Record<Toast['type'], string> = {
  success: 'border-green-200 bg-green-50 text-green-900',
  error: 'border-red-200 bg-red-50 text-red-900',
  info: 'border-slate-200 bg-white text-slate-900',
  warning: 'border-yellow-200 bg-yellow-50 text-yellow-900',
}

const listeners = new Set<(toast: Toast) => void>()

const keys = new WeakMap<Toast, number>()
let lastKey = 0
/**
 * One React key per toast shown, so that each toast is a new element whose CSS expiry (`toast-auto`) starts from
 * zero: a reused element keeps counting from the first toast, and a second toast shown within 8 seconds of it would
 * be hidden after only the rest of those 8 seconds (or at once).
 */
function keyOf(toast: Toast) {
  let key = keys.get(toast)
  if (key === undefined) {
    key = ++lastKey
    keys.set(toast, key)
  }
  return key
}

/**
 * Shows a toast from the browser (a failure that never reached the server, so no flash cookie can carry it).
 * The root layout's `<Toaster global>` shows it.
 */
export function showToast(toast: Toast) {
  for (const listener of listeners) listener(toast)
}

/** The words of a toast's link to a page (never the bare path: 'Open blogposts' read as a typo). */
const LINK_LABELS: Record<string, string> = {
  '/blogposts': 'Open Blog Posts',
  '/keywords': 'Open Keyword Ideas',
  '/autopilot': 'Open Auto Pilot',
  '/calendar': 'Open the calendar',
  '/profile': 'Open your profile',
  '/pricing': 'See the plans',
  '/rankings': 'Open Rankings',
}

export function toastLinkLabel(path: string) {
  return LINK_LABELS[path.split(/[?#]/)[0]!] ?? 'Open it'
}

/**
 * Toasts at top-center for 8 seconds. They take their own room in the page's flow, below the navigation bar and
 * any banner and above the page heading, and stick below the navigation bar (4rem high) while the page scrolls: they
 * never cover the bar, a banner or the heading (issue 35). Rendered on the server too, so they show without
 * JavaScript (a CSS animation folds them away); a `description` that is a same-site path becomes a link.
 * `global` also shows the toasts sent with `showToast`.
 */
export function Toaster({ toast, global = false }: { toast: Toast | null | undefined; global?: boolean }) {
  const [visible, setVisible] = useState<Toast | null>(toast ?? null)
  useEffect(() => setVisible(toast ?? null), [toast])
  useEffect(() => {
    if (!global) return
    const listener = (next: Toast) => setVisible({ ...next })
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }, [global])
  useEffect(() => {
    if (!visible) return
    const timer = setTimeout(() => setVisible(null), visible.duration ?? 8000)
    return () => clearTimeout(timer)
  }, [visible])
  if (!visible) return null
  const link = visible.description?.startsWith('/') ? visible.description : null
  return (
    <div
      key={keyOf(visible)}
      className="toast-auto pointer-events-none sticky top-16 z-50 flex justify-center px-4 pt-3"
      data-toast-region
    >
      <div
        role={visible.type === 'error' ? 'alert' : 'status'}
        data-toast={visible.type}
        className={`pointer-events-auto flex max-w-lg items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-lg ${styles[visible.type]}`}
      >
        <p>
          {visible.message}
          {link ? (
            <>
              {' '}
              <Link to={link} className="font-semibold underline">
                {toastLinkLabel(link)}
              </Link>
            </>
          ) : visible.description ? (
            <span className="block text-slate-700">{visible.description}</span>
          ) : null}
        </p>
        <button
          type="button"
          onClick={() => setVisible(null)}
          className="ml-2 text-slate-500 hover:text-slate-800"
          aria-label="Dismiss notification"
        >
          ×
        </button>
      </div>
    </div>
  )
}
