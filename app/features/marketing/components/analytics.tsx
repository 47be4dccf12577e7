import { useLocation } from '@remix-run/react'
import { useEffect } from 'react'
import { sanitizePath, type AnalyticsEvent } from '#app/features/marketing/analytics'

/**
 * Page views on every location change (path plus query string) and web-vitals metrics: to GA4 when
 * ANALYTICS_GA4_ID is set (gtag.js loaded with the page's CSP nonce), otherwise to our own POST /api/events
 * (navigator.sendBeacon, no cookies needed). Nothing from a third party loads unless GA4 is configured,
 * and without JavaScript nothing is sent.
 */
declare global {
  interface Window {
    dataLayer?: unknown[]
    gtag?: (...args: unknown[]) => void
  }
}

function sendEvent(event: AnalyticsEvent) {
  const body = JSON.stringify(event)
  try {
    if (navigator.sendBeacon?.('/api/events', new Blob([body], { type: 'application/json' }))) return
  } catch {
    /* fall back to fetch */
  }
  void fetch('/api/events', {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json' },
    keepalive: true,
  }).catch(() => {})
}

function loadGtag(measurementId: string) {
  if (window.gtag) return
  window.dataLayer = window.dataLayer ?? []
  window.gtag = function gtag() {
    // gtag.js expects the Arguments object itself, not an array.
    // eslint-disable-next-line prefer-rest-params
    window.dataLayer!.push(arguments)
  }
  window.gtag('js', new Date())
  window.gtag('config', measurementId, { send_page_view: false })
  const script = document.createElement('script')
  script.async = true
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`
  // The nonce of our own scripts (readable as a property only), so the CSP allows this one too.
  const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce
  if (nonce) script.nonce = nonce
  document.head.appendChild(script)
}

export function Analytics({ ga4Id }: { ga4Id: string | null | undefined }) {
  const location = useLocation()

  useEffect(() => {
    if (ga4Id) loadGtag(ga4Id)
    let cancelled = false
    // Web vitals describe the page as it was loaded (not later client-side navigations): report them for that path.
    const loadPath = sanitizePath(window.location.pathname + window.location.search)
    void import('web-vitals').then(({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
      if (cancelled) return
      const report = (metric: { name: 'CLS' | 'FCP' | 'INP' | 'LCP' | 'TTFB'; value: number; id: string }) => {
        const path = loadPath
        if (ga4Id) {
          window.gtag?.('event', metric.name, {
            value: Math.round(metric.name === 'CLS' ? metric.value * 1000 : metric.value),
            metric_id: metric.id,
            metric_value: metric.value,
            page_path: path,
            non_interaction: true,
          })
        } else {
          sendEvent({ type: 'web-vital', path, name: metric.name, value: Math.max(0, metric.value) })
        }
      }
      onCLS(report)
      onFCP(report)
      onINP(report)
      onLCP(report)
      onTTFB(report)
    })
    return () => {
      cancelled = true
    }
  }, [ga4Id])

  useEffect(() => {
    const path = sanitizePath(location.pathname + location.search)
    if (ga4Id) {
      window.gtag?.('event', 'page_view', {
        page_path: path,
        page_location: `${window.location.origin}${path}`,
        page_title: document.title,
      })
    } else {
      sendEvent({ type: 'pageview', path })
    }
  }, [ga4Id, location.pathname, location.search])

  return null
}
