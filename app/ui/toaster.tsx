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

/**
 * Toasts at top-center for 8 seconds, just below the sticky navigation bar (4rem high) so that they never cover it.
 * Rendered on the server too, so they show without JavaScript (a CSS animation hides them); a `description` that
 * is a same-site path becomes a link. `global` also shows the toasts sent with `showToast`.
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
    <div className="pointer-events-none fixed inset-x-0 top-20 z-50 flex justify-center px-4">
      <div
        key={keyOf(visible)}
        role={visible.type === 'error' ? 'alert' : 'status'}
        data-toast={visible.type}
        className={`toast-auto pointer-events-auto flex max-w-lg items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-lg ${styles[visible.type]}`}
      >
        <p>
          {visible.message}
          {link ? (
            <>
              {' '}
              <Link to={link} className="font-semibold underline">
                Open {link.replace('/', '')}
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
