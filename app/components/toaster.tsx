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
 * Toasts at top-center for 8 seconds, just below the sticky navigation bar (4rem high) so that they never cover it.
 * Rendered on the server too, so they show without JavaScript (a CSS animation hides them); a `description` that
 * is a same-site path becomes a link.
 */
export function Toaster({ toast }: { toast: Toast | null | undefined }) {
  const [visible, setVisible] = useState<Toast | null>(toast ?? null)
  useEffect(() => {
    setVisible(toast ?? null)
    if (!toast) return
    const timer = setTimeout(() => setVisible(null), toast.duration ?? 8000)
    return () => clearTimeout(timer)
  }, [toast])
  if (!visible) return null
  const link = visible.description?.startsWith('/') ? visible.description : null
  return (
    <div className="pointer-events-none fixed inset-x-0 top-20 z-50 flex justify-center px-4">
      <div
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
