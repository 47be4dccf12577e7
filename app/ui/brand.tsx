import { SiteLink, useSiteLinkClick } from './site-link'

export function Brand({ to = '/' }: { to?: string }) {
  const follow = useSiteLinkClick()
  return (
    <SiteLink
      to={to}
      onClick={follow}
      className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900"
      aria-label="Rankwell home"
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path
          d="M8 22l6-7 4 4 6-9"
          fill="none"
          stroke="white"
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      Rankwell
    </SiteLink>
  )
}
