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

/**
 * Toasts at top-center for 8 seconds. Rendered on the server too, so they show without JavaScript
 * (a CSS animation hides them); a `description` that is a same-site path becomes a link.
 */
export function Toaster({ toast }: { toast: Toast | null | undefined }) {
  // Each toast gets its own element (keyed by `seq`), so the CSS expiry of an earlier toast never hides a newer one.
  const [shown, setShown] = useState<{ toast: Toast; seq: number } | null>(toast ? { toast, seq: 0 } : null)
  useEffect(() => {
    setShown((prev) => (toast ? { toast, seq: (prev?.seq ?? 0) + (prev?.toast === toast ? 0 : 1) } : null))
    if (!toast) return
    const timer = setTimeout(() => setShown(null), toast.duration ?? 8000)
    return () => clearTimeout(timer)
  }, [toast])
  if (!shown) return null
  const visible = shown.toast
  const link = visible.description?.startsWith('/') ? visible.description : null
  return (
    <div className="pointer-events-none fixed inset-x-0 top-4 z-50 flex justify-center px-4">
      <div
        key={shown.seq}
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
          onClick={() => setShown(null)}
          className="ml-2 text-slate-500 hover:text-slate-800"
          aria-label="Dismiss notification"
        >
          ×
        </button>
      </div>
    </div>
  )
}
