import { Link, NavLink, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { Brand } from '#app/ui/brand'
import { MobileMenu } from '#app/ui/mobile-menu'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'text-brand-700' : 'text-slate-700 hover:text-slate-900'}`

/** The public site's links, in the bar on wide screens and in the menu on small ones. */
function PublicLinks({ trialClassName }: { trialClassName: string }) {
  return (
    <>
      <NavLink to="/" end className={linkClass}>
        Home
      </NavLink>
      <NavLink to="/free-tools" className={linkClass}>
        Free Tools
      </NavLink>
      <a href="/blog/" className={linkClass({ isActive: false })}>
        Blog
      </a>
      <NavLink to="/seo-guide-ebook" className={linkClass}>
        Free SEO Ebook
      </NavLink>
      <NavLink to="/signin" className={linkClass}>
        Sign In
      </NavLink>
      <Link to="/signup" className={trialClassName}>
        Try Free
      </Link>
    </>
  )
}

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
          <PublicLinks trialClassName="btn-primary ml-2" />
        </div>
        <MobileMenu
          ref={menu}
          className="md:hidden"
          width="w-56"
          onKeyDown={(event) => {
            if (event.key === 'Escape' && menu.current?.open) {
              menu.current.open = false
              menu.current.querySelector('summary')?.focus()
            }
          }}
        >
          <PublicLinks trialClassName="btn-primary mt-1" />
        </MobileMenu>
      </nav>
    </header>
  )
}
