import { useLocation } from '@remix-run/react'
import { sanitizePath } from '#app/features/marketing/analytics'

/** GA4's page view of `path` (already sanitised on the server), as `<Analytics>` sends it, in a few inline lines. */
export function ga4PageViewScript(ga4Id: string, path: string): string {
  const literal = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c')
  return (
    `(function(){var path=${literal(path)};` +
    `window.dataLayer=window.dataLayer||[];window.gtag=function(){dataLayer.push(arguments)};gtag("js",new Date);` +
    `gtag("config",${literal(ga4Id)},{send_page_view:false});` +
    `gtag("event","page_view",{page_path:path,page_location:location.origin+path,page_title:document.title})})()`
  )
}

/**
 * The page view of a page sent without the app's JavaScript (`readingPage`, the blog). With our own analytics (no
 * ANALYTICS_GA4_ID) it is an image, GET /api/events/view: no script runs on the page at all (a phone spends no time
 * starting JavaScript for it), and the view is counted with JavaScript off too. With GA4 it is Google's script and a
 * few inline lines, which a public page's CSP allows by their hash (http-cache.server.ts), any other by the nonce.
 * Rendered by the server only.
 */
export function StaticPageView({ ga4Id, nonce }: { ga4Id: string | null | undefined; nonce: string | undefined }) {
  const location = useLocation()
  // Reached by a client-side navigation, the app is running (root.tsx marked the document hydrated): `<Analytics>`
  // counts this view already. The server, and a page that never hydrates, always render it.
  if (typeof document !== 'undefined' && document.documentElement.dataset.hydrated === 'true') return null
  const path = sanitizePath(location.pathname + location.search)
  if (ga4Id)
    return (
      <>
        <script async nonce={nonce} src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(ga4Id)}`} />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ga4PageViewScript(ga4Id, path) }} />
      </>
    )
  return (
    <img
      src={`/api/events/view?${new URLSearchParams({ path })}`}
      alt=""
      aria-hidden="true"
      width={1}
      height={1}
      className="pointer-events-none absolute bottom-0 left-0 opacity-0"
    />
  )
}
