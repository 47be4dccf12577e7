import { SiteLink, useSiteLinkClick } from '#app/ui/site-link'

export function Footer({ supportEmail }: { supportEmail: string }) {
  const follow = useSiteLinkClick()
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 md:flex-row md:items-center md:justify-between">
        <p>© {new Date().getFullYear()} Rankwell. All rights reserved.</p>
        <nav aria-label="Footer" className="flex flex-wrap gap-4">
          <SiteLink onClick={follow} to="/free-tools" className="hover:text-slate-900">
            Free SEO Tools
          </SiteLink>
          <SiteLink onClick={follow} to="/pricing" className="hover:text-slate-900">
            Pricing
          </SiteLink>
          <SiteLink onClick={follow} to="/seo-guide-ebook" className="hover:text-slate-900">
            Free SEO Ebook
          </SiteLink>
          <SiteLink onClick={follow} to="/developers" className="hover:text-slate-900">
            API for developers
          </SiteLink>
          <a href={`mailto:${supportEmail}`} className="hover:text-slate-900">
            Contact: {supportEmail}
          </a>
        </nav>
      </div>
    </footer>
  )
}
