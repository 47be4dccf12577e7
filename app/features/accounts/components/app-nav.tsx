import { useLocation } from '@remix-run/react'
import { useCallback, useRef, useState, type MouseEvent } from 'react'
import { Brand } from '#app/ui/brand'
import { HelpDialog } from './help-dialog'
import { closeOnEscape, MobileMenu } from '#app/ui/mobile-menu'
import { isCurrent, SiteLink, useSiteLinkClick } from '#app/ui/site-link'

const linkClass = (isActive: boolean) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:text-slate-900'}`

export const APP_LINKS = [
  { to: '/autopilot', label: 'Auto Pilot' },
  { to: '/keywords', label: 'Keyword Ideas' },
  { to: '/blogposts', label: 'Blog Posts' },
  { to: '/rankings', label: 'Rankings' },
  { to: '/how-grow', label: 'Learn SEO' },
  { to: '/profile', label: 'Profile' },
] as const

/** Issue 35: the Settings menu of the signed-in bar (and a group of the phone menu). */
export const SETTINGS_LINKS = [
  { to: '/settings/content', label: 'Content settings' },
  { to: '/settings/publishing', label: 'Publishing' },
  { to: '/calendar', label: 'Calendar' },
] as const

/**
 * The signed-in navigation bar. The mobile menu and the Settings menu are <details> elements and Help is a link to
 * the /help page, so everything works without JavaScript; with it, Help opens the 'How can we help?' modal instead,
 * Escape closes an open menu (focus back on its button) and following a link closes the menu it was in.
 */
export function AppNav({ email }: { email: string }) {
  const location = useLocation()
  const [helpOpen, setHelpOpen] = useState(false)
  const menu = useRef<HTMLDetailsElement>(null)
  const here = `${location.pathname}${location.search}`
  const helpHref =
    location.pathname === '/help'
      ? location.pathname + location.search
      : `/help?${new URLSearchParams({ redirectTo: here })}`
  const openHelp = (e: MouseEvent) => {
    e.preventDefault()
    if (menu.current) menu.current.open = false
    setHelpOpen(true)
  }
  const closeHelp = useCallback(() => setHelpOpen(false), [])
  const settings = useRef<HTMLDetailsElement>(null)
  const closeMenu = useCallback(() => {
    if (menu.current) menu.current.open = false
  }, [])
  const closeSettings = useCallback(() => {
    if (settings.current) settings.current.open = false
  }, [])
  const follow = useSiteLinkClick()
  const followAndClose = useSiteLinkClick(closeMenu)
  const followAndCloseSettings = useSiteLinkClick(closeSettings)
  const settingsActive = SETTINGS_LINKS.some((l) => isCurrent(location.pathname, l.to))
  const settingsLinks = (onClick: typeof follow, className: (active: boolean) => string) =>
    SETTINGS_LINKS.map((l) => {
      const active = isCurrent(location.pathname, l.to)
      return (
        <SiteLink
          key={l.to}
          to={l.to}
          className={className(active)}
          aria-current={active ? 'page' : undefined}
          onClick={onClick}
        >
          {l.label}
        </SiteLink>
      )
    })
  const navLinks = (onClick: typeof follow) =>
    APP_LINKS.map((l) => {
      const active = isCurrent(location.pathname, l.to)
      return (
        <SiteLink
          key={l.to}
          to={l.to}
          className={linkClass(active)}
          aria-current={active ? 'page' : undefined}
          onClick={onClick}
        >
          {l.label}
        </SiteLink>
      )
    })
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Brand to="/keywords" />
        <div className="hidden items-center gap-1 lg:flex">
          {navLinks(follow)}
          <details ref={settings} className="relative" data-settings-menu onKeyDown={closeOnEscape}>
            <summary
              className={`${linkClass(settingsActive)} flex cursor-pointer list-none items-center gap-1 [&::-webkit-details-marker]:hidden`}
            >
              Settings
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
              </svg>
            </summary>
            <div className="absolute right-0 z-40 mt-2 flex w-52 flex-col rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
              {settingsLinks(followAndCloseSettings, linkClass)}
            </div>
          </details>
          <SiteLink to={helpHref} onClick={openHelp} className="btn-secondary ml-2 py-2" data-help-link>
            Help
          </SiteLink>
          <span
            className="ml-3 hidden max-w-[12rem] truncate text-sm text-slate-600 xl:inline"
            data-testid="nav-email"
            title={email}
          >
            {email}
          </span>
        </div>
        <MobileMenu ref={menu} className="lg:hidden" width="w-64">
          <span className="truncate px-3 py-2 text-xs text-slate-600" title={email}>
            {email}
          </span>
          {navLinks(followAndClose)}
          <div
            role="group"
            aria-labelledby="phone-settings-label"
            className="mt-1 flex flex-col border-t border-slate-100 pt-1"
          >
            <span
              id="phone-settings-label"
              className="px-3 py-1 text-xs font-semibold uppercase tracking-wide text-slate-600"
            >
              Settings
            </span>
            {settingsLinks(followAndClose, (active) => `${linkClass(active)} pl-5`)}
          </div>
          <SiteLink to={helpHref} onClick={openHelp} className="btn-secondary mt-1">
            Help
          </SiteLink>
        </MobileMenu>
      </nav>
      <HelpDialog open={helpOpen} onClose={closeHelp} redirectTo={here} />
    </header>
  )
}
