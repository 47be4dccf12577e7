import { useId, type ReactNode } from 'react'

/**
 * A tooltip that works without JavaScript and with a keyboard or a screen reader: a button described by the
 * tooltip text (aria-describedby), which CSS shows on hover and on focus.
 */
export function InfoTip({
  label,
  text,
  children,
  className = '',
}: {
  /** Accessible name of the default (i) trigger, e.g. 'About Volume'. */
  label?: string
  text: string
  /** The visible trigger; an (i) icon by default. */
  children?: ReactNode
  className?: string
}) {
  const id = useId()
  return (
    <span className={`group relative inline-flex align-middle ${className}`}>
      <button
        type="button"
        aria-describedby={id}
        className="inline-flex items-center rounded-full text-slate-500 hover:text-slate-800 focus-visible:text-slate-800"
      >
        {children ?? (
          <>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path
                fillRule="evenodd"
                d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-7-4a1 1 0 1 1-2 0 1 1 0 0 1 2 0ZM9 9a1 1 0 0 0 0 2v3a1 1 0 0 0 1 1h1a1 1 0 1 0 0-2v-3a1 1 0 0 0-1-1H9Z"
                clipRule="evenodd"
              />
            </svg>
            <span className="sr-only">{label ?? 'More information'}</span>
          </>
        )}
      </button>
      <span
        id={id}
        role="tooltip"
        className="pointer-events-none absolute left-1/2 top-full z-20 mt-2 hidden w-64 -translate-x-1/2 rounded-lg bg-slate-900 px-3 py-2 text-left text-xs font-normal normal-case leading-snug tracking-normal text-white shadow-lg group-focus-within:block group-hover:block"
      >
        {text}
      </span>
    </span>
  )
}
