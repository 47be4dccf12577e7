import { Link, NavLink, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { Brand } from './brand'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'text-brand-700' : 'text-slate-700 hover:text-slate-900'}`

/**
 * The public navigation bar. The mobile menu is a <details> element, so it works without JavaScript; with it, the
 * menu closes itself after a navigation and on Escape.
 */
export function PublicNav() {
  const menu = useRef<HTMLDetailsElement>(null)
  const location = useLocation()
  useEffect(() => {
    if (menu.current) menu.current.open = false
  }, [location.key])
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
        <Brand />
        <div className="hidden items-center gap-1 md:flex">
          <NavLink to="/" end className={linkClass}>
            Home
          </NavLink>
          <NavLink to="/free-tools" className={linkClass}>
            Free Tools
          </NavLink>
          <a href="/blog/" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900">
            Blog
          </a>
          <NavLink to="/seo-guide-ebook" className={linkClass}>
            Free SEO Ebook
          </NavLink>
          <NavLink to="/signin" className={linkClass}>
            Sign In
          </NavLink>
          <Link to="/signup" className="btn-primary ml-2">
            Try Free
          </Link>
        </div>
        <details
          ref={menu}
          className="group relative md:hidden"
          data-mobile-menu
          onKeyDown={(event) => {
            if (event.key === 'Escape' && menu.current?.open) {
              menu.current.open = false
              menu.current.querySelector('summary')?.focus()
            }
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
          <div className="absolute right-0 mt-2 flex w-56 flex-col rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
            <NavLink to="/" end className={linkClass}>
              Home
            </NavLink>
            <NavLink to="/free-tools" className={linkClass}>
              Free Tools
            </NavLink>
            <a href="/blog/" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700">
              Blog
            </a>
            <NavLink to="/seo-guide-ebook" className={linkClass}>
              Free SEO Ebook
            </NavLink>
            <NavLink to="/signin" className={linkClass}>
              Sign In
            </NavLink>
            <Link to="/signup" className="btn-primary mt-1">
              Try Free
            </Link>
          </div>
        </details>
      </nav>
    </header>
  )
}
