import crypto from 'node:crypto'
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { renderToString } from 'react-dom/server'
import { NonceProvider } from '#app/ui/nonce'
import { InlineCssProvider } from '#app/ui/stylesheet'
import { OUTAGE_RETRY_AFTER_SECONDS } from '#app/platform/http/outage'
import { defaultNoStore, finishDocument, isPublicDocument } from '#app/platform/http/http-cache.server'
import { rememberPage } from '#app/platform/http/page-cache.server'
import { routeLabel } from '#app/platform/observability/metrics.server'
import { reportError } from '#app/platform/observability/sentry.server'
import inlineCss from '#app/tailwind.css?inline'

const ABORT_DELAY = 5_000

/**
 * A public page carries the stylesheet inline (53 KB). React renders a marker in its place and finishDocument puts the
 * CSS's bytes there, encoded once per process (issue 39: encoding the CSS into every rendered page, as one string with
 * the rest, was a tenth of a public page's time). The marker has a random part: no page text can contain it.
 */
const inlineStylesheet = {
  marker: `/*rankwell-inline-css-${crypto.randomUUID()}*/`,
  bytes: Buffer.from(inlineCss, 'utf8'),
}

/**
 * Documents are rendered completely (renderToString) and sent as one buffer: one compressed piece instead of the many
 * small flushes of a streamed shell, and the whole body known before the headers, so a public page gets its ETag
 * and a CSP made of its inline scripts' hashes (see http-cache.server.ts). Client navigations fetch data through
 * data requests, which stream any deferred data as before.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A 503 document is the outage page (a loader threw outage.server's response): tell clients when to come back.
  if (responseStatusCode === 503 && !responseHeaders.has('Retry-After'))
    responseHeaders.set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS))
  const isPublic = isPublicDocument(request, responseStatusCode, responseHeaders, remixContext)
  // A public page must not depend on the request, so it carries no nonce: its scripts are allowed by hash.
  const nonce = !isPublic && typeof loadContext.cspNonce === 'string' ? loadContext.cspNonce : undefined
  const policy = typeof loadContext.cspPolicy === 'string' ? loadContext.cspPolicy : undefined
  // server.ts hands a page-cache key to a GET without cookies or credentials: a public page rendered for it is kept.
  const cacheKey = typeof loadContext.pageCacheKey === 'string' ? loadContext.pageCacheKey : undefined
  const remember =
    cacheKey && request.method === 'GET'
      ? (page: Parameters<typeof rememberPage>[1]) => rememberPage(cacheKey, page)
      : undefined
  // Every loader has finished before rendering starts, and no document suspends (a deferred value is resolved for
  // a document request), so the page is rendered in one synchronous pass: no stream, no chunks to join. A render
  // error throws here and Remix renders the error boundary instead.
  const html = renderToString(
    <NonceProvider value={nonce}>
      <InlineCssProvider value={isPublic ? inlineStylesheet.marker : null}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
      </InlineCssProvider>
    </NonceProvider>,
  )
  return finishDocument(request, `<!DOCTYPE html>${html}`, {
    status: responseStatusCode,
    headers: responseHeaders,
    isPublic: isPublic && responseStatusCode === 200,
    policy,
    remember,
    splice: isPublic ? inlineStylesheet : undefined,
  })
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  defaultNoStore(response.headers)
  return response
}

/** Unexpected errors of loaders, actions and rendering: logged (with the request id) and reported to Sentry. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  console.error(error)
  const url = new URL(request.url)
  reportError(error, { route: routeLabel({ path: url.pathname, status: 500 }), method: request.method })
}
