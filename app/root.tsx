import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'
import { Analytics } from '#app/features/marketing/components/analytics'
import { AppNav } from '#app/features/accounts/components/app-nav'
import { Footer } from '#app/ui/layout/footer'
import { useNonce } from '#app/ui/nonce'
import { OfflineBadge } from '#app/ui/offline-badge'
import { PastDueBanner } from '#app/features/billing/components/past-due-banner'
import { PublicNav } from '#app/ui/layout/public-nav'
import { VerifyEmailBanner } from '#app/features/accounts/components/verify-banner'
import { Toaster } from '#app/ui/toaster'
import { OUTAGE_MESSAGE } from '#app/platform/http/outage'
import { revalidateLayout } from '#app/ui/client-failure'
import { GlobalProgress } from '#app/ui/progress-bar'
import { StaticPageView } from '#app/features/marketing/components/static-page-view'
import { Stylesheet } from '#app/ui/stylesheet'
import { withoutScripts } from '#app/platform/http/cache'
import { getEnv, publicEnv } from '#app/platform/env.server'
import { billingBanner } from '#app/features/billing/billing.server'
import { getUser, sessionSubscriptionStatus } from '#app/features/accounts/session.server'
import { hasToastCookie, toast } from '#app/platform/http/toast.server'

// The stylesheet is rendered by <Stylesheet /> in the document's head: inline on public pages, linked elsewhere.
export const links: LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

/**
 * Only the error page has its title here (a route's own `meta` replaces this one): when a loader throws, the error
 * is rendered by the root's boundary, whose page would otherwise have no <title> at all.
 */
export const meta: MetaFunction = ({ error }) =>
  error
    ? [
        {
          title:
            isRouteErrorResponse(error) && error.status === 404
              ? 'Page not found | Rankwell'
              : 'Something went wrong | Rankwell',
        },
        { name: 'robots', content: 'noindex' },
      ]
    : []

export async function loader({ request }: LoaderFunctionArgs) {
  // The toast session is read (and its cookie rewritten) only when a toast cookie came with the request, so that
  // an ordinary page view sets no cookie and stays cacheable.
  const hasToast = hasToastCookie(request)
  const [user, { toast: flash, headers }] = await Promise.all([
    getUser(request),
    hasToast ? toast().getToast(request) : { toast: undefined, headers: new Headers() },
  ])
  // The banner's subscription status comes with the session lookup (no statement of its own on every page).
  const status = user ? sessionSubscriptionStatus(user) : undefined
  const billing = user
    ? status !== undefined
      ? { pastDue: status === 'past_due' }
      : await billingBanner(user.id)
    : null
  return json(
    {
      user: user
        ? {
            id: user.id,
            email: user.email,
            name: user.name,
            onboardingComplete: user.onboardingComplete,
            emailVerified: Boolean(user.emailVerifiedAt),
          }
        : null,
      toast: flash ?? null,
      billing,
      env: publicEnv(),
      supportEmail: getEnv().SUPPORT_EMAIL,
    },
    { headers },
  )
}

export type RootData = typeof loader

/**
 * After a submission that failed in the browser (issue 12), the layout is not reloaded either; nor when a page
 * refreshes its own data at the same address (decision 0120).
 */
export const shouldRevalidate = revalidateLayout

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  // A reading page (the blog, `readingPage`) is sent without the app's scripts: only its page view (an image).
  const staticPage = withoutScripts(useMatches())
  const data = useRouteLoaderData<RootData>('root')
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#254bea" />
        <Meta />
        <Links />
        <Stylesheet />
      </head>
      <body className="flex min-h-full flex-col">
        {children}
        {staticPage ? (
          <StaticPageView ga4Id={data?.env.ANALYTICS_GA4_ID} nonce={nonce} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  return <Document>{children}</Document>
}

function Chrome({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>('root')
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      {data?.user ? <AppNav email={data.user.email} /> : <PublicNav />}
      {data?.user && !data.user.emailVerified ? <VerifyEmailBanner email={data.user.email} /> : null}
      {data?.billing?.pastDue ? <PastDueBanner /> : null}
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer supportEmail={data?.supportEmail ?? 'support@rankwell.app'} />
      <OfflineBadge services={data?.env.OFFLINE_SERVICES ?? []} />
    </>
  )
}

/** Marks the document once React has hydrated it: until then a click is the browser's, not the app's. */
function useHydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
}

export default function App() {
  const data = useLoaderData<typeof loader>()
  useHydrationMark()
  return (
    <Chrome>
      <GlobalProgress />
      {/* First in <main>: below the navigation bar and the banners, above the page heading (issue 35). */}
      <Toaster toast={data.toast} global />
      <Outlet />
      <Analytics ga4Id={data.env.ANALYTICS_GA4_ID} />
    </Chrome>
  )
}

const REFUSAL_TITLES: Record<number, string> = {
  400: 'We could not read that request',
  403: 'Request refused',
  409: 'Already in progress',
  413: 'Request too large',
}

export function ErrorBoundary() {
  const error = useRouteError()
  useHydrationMark()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  // Postgres or Redis is down (outage.server.ts): say so, and offer to try again.
  const outage = isRouteErrorResponse(error) && error.status === 503
  if (!notFound && !outage) console.error(error)
  // A request the server refused with a message (a form it could not read, a body too large): say so.
  const refusal =
    isRouteErrorResponse(error) && error.status < 500 && typeof error.data?.message === 'string'
      ? { title: REFUSAL_TITLES[error.status] ?? 'Request refused', message: error.data.message as string }
      : null
  return (
    <Chrome>
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        {outage ? (
          <>
            <p className="text-sm font-semibold text-brand-700">503</p>
            <h1 className="mt-2 text-3xl font-bold">{OUTAGE_MESSAGE}</h1>
            <p className="mt-4 text-slate-600">Reload this page in a moment to carry on.</p>
          </>
        ) : notFound ? (
          <>
            <p className="text-sm font-semibold text-brand-700">404</p>
            <h1 className="mt-2 text-3xl font-bold">Page not found</h1>
            <p className="mt-4 text-slate-600">We couldn&apos;t find the page you were looking for.</p>
          </>
        ) : (
          <>
            <h1 className="text-3xl font-bold">{refusal ? refusal.title : 'Unexpected Application Error!'}</h1>
            <p className="mt-4 text-slate-600">
              {refusal
                ? refusal.message
                : isRouteErrorResponse(error)
                  ? `${error.status} ${error.statusText}`
                  : 'Something went wrong on our side. Please try again.'}
            </p>
          </>
        )}
        <Link to="/" className="btn-primary mt-8">
          Back to home
        </Link>
      </div>
    </Chrome>
  )
}
