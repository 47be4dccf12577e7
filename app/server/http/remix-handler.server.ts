import { createReadableStreamFromReadable, createRequestHandler, type ServerBuild } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/server-runtime'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'

/**
 * Remix behind Express, as `@remix-run/express` does it, with a shorter path for whole documents (issue 17).
 *
 * entry.server.tsx renders a document completely and hands its bytes to `Response`; it also marks that Response with
 * the same bytes (`markDocumentBody`). Sending such a response is one `res.end(bytes)`: no web-stream reader, no
 * chunk-by-chunk write and flush through the compression middleware (~7% of a signed-in page's CPU). Every other
 * response (data requests, deferred data, resource routes, redirects, HEAD) is streamed as the stock adapter does,
 * flushing after each chunk so that deferred data and event streams reach the client as they are produced.
 *
 * The request is built as the stock adapter builds it: the URL from `req.protocol`, `req.hostname` (which honours
 * 'trust proxy') and the port of X-Forwarded-Host or Host, the headers as sent, the body as a stream for methods
 * that have one, and a signal that aborts loaders and actions when the client goes away before the answer is sent.
 */
const DOCUMENT_BODY = Symbol.for('rankwell.documentBody')

type MarkedResponse = Response & { [DOCUMENT_BODY]?: Buffer }

/** Marks a Response whose body is exactly `body` (all of it, known in advance), so that it is sent in one write. */
export function markDocumentBody(response: Response, body: Buffer): Response {
  Object.defineProperty(response, DOCUMENT_BODY, { value: body })
  return response
}

function portOf(host: string | undefined) {
  if (!host) return undefined
  const port = Number.parseInt(host.split(':')[1] ?? '', 10)
  return Number.isSafeInteger(port) ? port : undefined
}

export function remixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const port = portOf(req.get('X-Forwarded-Host')) ?? portOf(req.get('host'))
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ''}${req.originalUrl}`
  // The raw header list keeps repeated headers; Headers joins them as the stock adapter's append does.
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  let controller: AbortController | null = new AbortController()
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req)
    init.duplex = 'half'
  }
  res.on('finish', () => (controller = null))
  res.on('close', () => controller?.abort())
  return new Request(new URL(url).href, init)
}

export async function sendRemixResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [name, value] of response.headers.entries()) res.append(name, value)
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders()
  const whole = (response as MarkedResponse)[DOCUMENT_BODY]
  if (whole && response.body && !response.bodyUsed) {
    // The stream holds the same bytes from memory: it is dropped unread. The length is known, so it is sent (the
    // compression middleware removes it when it compresses the body).
    res.setHeader('Content-Length', whole.length)
    res.end(whole)
    return
  }
  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  const flushable = res as ExpressResponse & { flush?: () => void }
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      res.write(value)
      flushable.flush?.()
    }
    res.end()
  } catch (error) {
    res.destroy(error as Error)
    throw error
  }
}

export function remixHandler(opts: {
  build: ServerBuild | (() => Promise<ServerBuild>)
  mode?: string
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext
}) {
  const handle = createRequestHandler(opts.build, opts.mode)
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const response = await handle(remixRequest(req, res), opts.getLoadContext(req, res))
      await sendRemixResponse(res, response)
    } catch (error) {
      next(error)
    }
  }
}
