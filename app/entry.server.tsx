import { Writable } from 'node:stream'
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { renderToPipeableStream } from 'react-dom/server'
import { NonceProvider } from '#app/components/nonce'
import { OUTAGE_RETRY_AFTER_SECONDS } from '#app/lib/outage'
import { defaultNoStore, finishDocument, isPublicDocument } from '#app/server/http-cache.server'
import { rememberPage } from '#app/server/page-cache.server'
import { routeLabel } from '#app/server/metrics.server'
import { reportError } from '#app/server/sentry.server'

const ABORT_DELAY = 5_000

/**
 * Documents are rendered completely (onAllReady) and sent as one buffer: one compressed piece instead of the many
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
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = []
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
        callback()
      },
      final(callback) {
        const html = Buffer.concat(chunks).toString('utf8')
        resolve(
          finishDocument(request, html, {
            status: responseStatusCode,
            headers: responseHeaders,
            isPublic: isPublic && responseStatusCode === 200,
            policy,
            remember,
          }),
        )
        callback()
      },
    })
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true
          pipe(sink)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, ABORT_DELAY).unref()
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
  reportError(error, { route: routeLabel(url.pathname, 500), method: request.method })
}
