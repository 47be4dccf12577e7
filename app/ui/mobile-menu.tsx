import { forwardRef, type KeyboardEvent, type KeyboardEventHandler, type ReactNode } from 'react'

/**
 * Escape closes an open <details> menu (this one, the signed-in bar's Settings menu) and puts the focus back on its
 * button, so that the keyboard user is where they opened it. Without JavaScript the menu stays open until its button
 * is pressed again.
 */
export function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  const details = event.currentTarget
  if (event.key !== 'Escape' || !details.open) return
  event.preventDefault()
  event.stopPropagation()
  details.open = false
  details.querySelector<HTMLElement>(':scope > summary')?.focus()
}

/**
 * A navigation bar's menu on small screens: a <details> element behind a hamburger button, so it opens without
 * JavaScript. `className` hides it from the breakpoint where the full bar shows; `width` sizes the panel. Escape closes
 * it (`closeOnEscape`).
 */
export const MobileMenu = forwardRef<
  HTMLDetailsElement,
  { className: string; width: string; onKeyDown?: KeyboardEventHandler<HTMLDetailsElement>; children: ReactNode }
>(function MobileMenu({ className, width, onKeyDown, children }, ref) {
  return (
    <details
      ref={ref}
      className={`group relative ${className}`}
      data-mobile-menu
      onKeyDown={(event) => {
        onKeyDown?.(event)
        if (!event.defaultPrevented) closeOnEscape(event)
      }}
    >
      <summary
        className="flex cursor-pointer list-none items-center rounded-md p-2 text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        aria-label="Open menu"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-6 w-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
        </svg>
        <span className="sr-only">Menu</span>
      </summary>
      <div
        className={`absolute right-0 mt-2 flex ${width} flex-col rounded-xl border border-slate-200 bg-white p-2 shadow-lg`}
      >
        {children}
      </div>
    </details>
  )
})
