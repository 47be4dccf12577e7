import { createReadableStreamFromReadable, createRequestHandler, type ServerBuild } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/server-runtime'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'

/**
 * Remix behind Express, as `@remix-run/express` does it, with a shorter path for whole documents (issue 17).
 *
 * entry.server.tsx renders a document completely and hands its bytes to `Response`; it also marks that Response with
 * the same bytes (`wholeResponse`). Sending such a response is one `res.end(bytes)`: no web-stream reader, no
 * chunk-by-chunk write and flush through the compression middleware (~7% of a signed-in page's CPU). Every other
 * response (data requests, deferred data, resource routes, redirects, HEAD) is streamed as the stock adapter does,
 * flushing after each chunk so that deferred data and event streams reach the client as they are produced.
 *
 * The request is built as the stock adapter builds it: the URL from `req.protocol`, `req.hostname` (which honours
 * 'trust proxy') and the port of X-Forwarded-Host or Host, the headers as sent, the body as a stream for methods
 * that have one, and a signal that aborts loaders and actions when the client goes away before the answer is sent.
 */
const DOCUMENT_BODY = Symbol.for('rankwell.documentBody')

type MarkedResponse = Response & { [DOCUMENT_BODY]?: Uint8Array }

/**
 * A Response whose body is exactly `body` (all of it, known in advance), marked so that the handler sends it in one
 * write. The body stream hands out the same bytes when something reads it (no copy, unlike `new Response(bytes)`).
 */
export function wholeResponse(body: Uint8Array, init: ResponseInit): Response {
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(body)
      controller.close()
    },
  })
  const response = new Response(stream, init)
  Object.defineProperty(response, DOCUMENT_BODY, { value: body })
  return response
}

/**
 * A JSON response sent in one write (a large API page: 500 posts are ~3 MB). Remix's `json()` hands the string to
 * `Response`, which measures it, encodes it again as the body is read, and the handler writes it chunk by chunk;
 * this encodes it once (`jsonBytes`) into the bytes it sends. Same headers as `json()` otherwise.
 */
export function wholeJson(data: Record<string, unknown>, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers)
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json; charset=utf-8')
  return wholeResponse(jsonBytes(data), { ...init, headers })
}

/**
 * The bytes of `JSON.stringify(data)` for an object, with its arrays encoded item by item into one buffer. V8 returns
 * a large JSON text as a tree of pieces that must be flattened before it can be encoded: for 500 posts (3 MB) that
 * cost twice the stringify itself (~15 ms against ~6 ms this way, measured on Node 20).
 */
export function jsonBytes(data: Record<string, unknown>): Buffer {
  const pieces: string[] = []
  for (const [key, value] of Object.entries(data)) {
    const prefix = `${pieces.length === 0 ? '{' : ','}${JSON.stringify(key)}:`
    if (Array.isArray(value)) {
      pieces.push(`${prefix}[`)
      value.forEach((item: unknown, i) => {
        // As JSON.stringify writes an array's undefined, function or symbol item.
        const text = JSON.stringify(item) ?? 'null'
        pieces.push(i > 0 ? `,${text}` : text)
      })
      pieces.push(']')
    } else {
      const text = JSON.stringify(value)
      // As JSON.stringify leaves out a property whose value it cannot write.
      if (text !== undefined) pieces.push(prefix + text)
    }
  }
  pieces.push(pieces.length === 0 ? '{}' : '}')
  let length = 0
  for (const piece of pieces) length += Buffer.byteLength(piece)
  const bytes = Buffer.allocUnsafe(length)
  let at = 0
  for (const piece of pieces) at += bytes.write(piece, at)
  return bytes
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
