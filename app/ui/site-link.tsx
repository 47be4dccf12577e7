import { useNavigate } from '@remix-run/react'
import { forwardRef, useCallback, type AnchorHTMLAttributes, type MouseEvent } from 'react'

/**
 * The layout's links to our own pages (navigation bar, mobile menu, footer, logo): on every signed-in page there are
 * eighteen of them, and Remix's `<Link>`/`<NavLink>` each run a set of router hooks while the page renders (issue 17:
 * ~10% of a signed-in page's server time). These are plain anchors that navigate client-side through one `navigate`
 * per component, with the same rules as Remix's links:
 *
 * - a plain left click on a link to a path of this site is a client-side navigation (a link to the current address
 *   replaces the history entry instead of adding one); a click with a modifier key, another button, a `target`, or
 *   one already handled is left to the browser;
 * - before hydration and without JavaScript the anchor is an ordinary link;
 * - `data-discover` lets Remix's route discovery load the target's route while the link is on screen, as `<Link>`'s
 *   does.
 */
export function useSiteLinkClick(after?: () => void) {
  const navigate = useNavigate()
  return useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.defaultPrevented || event.button !== 0) return
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
      const anchor = event.currentTarget
      const href = anchor.getAttribute('href') ?? ''
      if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return
      if (!href.startsWith('/') || href.startsWith('//')) return
      event.preventDefault()
      const { pathname, search, hash } = window.location
      navigate(href, { replace: href === `${pathname}${search}${hash}` })
      after?.()
    },
    [navigate, after],
  )
}

/** Whether `to` is the page at `pathname` or one of its sub-pages (`<NavLink>`'s rule). */
export function isCurrent(pathname: string, to: string) {
  const here = pathname.toLowerCase()
  const target = to.toLowerCase()
  return here === target || here.startsWith(`${target}/`)
}

type SiteLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string }

/** An anchor to a page of this site; pass the click handler of `useSiteLinkClick` as `onClick`. */
export const SiteLink = forwardRef<HTMLAnchorElement, SiteLinkProps>(function SiteLink({ to, ...props }, ref) {
  return <a ref={ref} href={to} data-discover="true" {...props} />
})
