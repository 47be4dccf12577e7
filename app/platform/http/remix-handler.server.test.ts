import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import compression from 'compression'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonBytes, remixRequest, sendRemixResponse, wholeJson, wholeResponse } from './remix-handler.server'

// The adapter between Express and Remix (issue 17), on a loopback Express app whose one route builds the Request as
// Remix would get it and sends the Response the route's test hands it.
let server: http.Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

function serve(answer: (request: Request) => Response | Promise<Response>) {
  const app = express()
  app.set('trust proxy', true)
  // As in server.ts: the compression middleware in front.
  app.use(compression())
  app.all('*', async (req, res, next) => {
    try {
      await sendRemixResponse(res, await answer(remixRequest(req, res)))
    } catch (error) {
      next(error)
    }
  })
  return new Promise<string>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`))
  })
}

/** A raw GET: status, headers and body chunks with the time each arrived. */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{
    status: number
    headers: http.IncomingHttpHeaders
    chunks: Array<{ at: number; text: string }>
  }>((resolve, reject) => {
    const started = Date.now()
    http
      .get(url, { headers }, (res) => {
        const chunks: Array<{ at: number; text: string }> = []
        res.on('data', (c: Buffer) => chunks.push({ at: Date.now() - started, text: c.toString() }))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, chunks }))
      })
      .on('error', reject)
  })
}

describe('remixRequest', () => {
  it('builds the URL from the forwarded host and its port, with the path and query, and keeps the headers', async () => {
    let seen: Request | undefined
    const base = await serve((request) => {
      seen = request
      return new Response('ok')
    })
    await get(`${base}/keywords?q=a%20b`, { 'X-Forwarded-Host': 'app.example.com:8443', 'X-Test': 'one' })
    expect(seen!.url).toBe('http://app.example.com:8443/keywords?q=a%20b')
    expect(seen!.method).toBe('GET')
    expect(seen!.headers.get('x-test')).toBe('one')
    expect(seen!.signal.aborted).toBe(false)
  })

  it('reads the body of a POST as a stream', async () => {
    const base = await serve(async (request) => new Response(`got ${await request.text()}`))
    const res = await fetch(`${base}/x`, { method: 'POST', body: 'a=1&b=2' })
    expect(await res.text()).toBe('got a=1&b=2')
  })

  it('aborts the request signal when the client goes away before the answer', async () => {
    let aborted: Promise<boolean> | undefined
    const base = await serve((request) => {
      aborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(true)))
      return new Promise(() => {}) // never answers
    })
    const req = http.get(`${base}/slow`).on('error', () => {})
    await new Promise((r) => setTimeout(r, 100))
    req.destroy()
    expect(await aborted).toBe(true)
  })
})

describe('sendRemixResponse', () => {
  it('sends a marked document in one write, with its length, status and every header (each Set-Cookie)', async () => {
    const html = Buffer.from(`<!DOCTYPE html><p>${'é'.repeat(5000)}</p>`)
    const base = await serve(() => {
      const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8' })
      headers.append('Set-Cookie', 'a=1; Path=/')
      headers.append('Set-Cookie', 'b=2; Path=/')
      return wholeResponse(html, { status: 201, headers })
    })
    const res = await get(`${base}/`)
    expect(res.status).toBe(201)
    expect(res.headers['content-length']).toBe(String(html.length))
    expect(res.headers['transfer-encoding']).toBeUndefined()
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/'])
    expect(res.chunks.map((c) => c.text).join('')).toBe(html.toString())
  })

  it('lets the compression middleware compress a marked document (no stale length)', async () => {
    const html = Buffer.from(`<!DOCTYPE html><p>${'words again '.repeat(2000)}</p>`)
    const base = await serve(() => wholeResponse(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }))
    const body = await new Promise<{ encoding?: string; length?: string; bytes: Buffer }>((resolve, reject) => {
      http
        .get(`${base}/`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({
              encoding: res.headers['content-encoding'],
              length: res.headers['content-length'],
              bytes: Buffer.concat(chunks),
            }),
          )
        })
        .on('error', reject)
    })
    expect(body.encoding).toBe('gzip')
    expect(body.length).toBeUndefined()
    expect(zlib.gunzipSync(body.bytes).equals(html)).toBe(true)
  })

  it('streams any other body chunk by chunk as it is produced (deferred data)', async () => {
    const base = await serve(() => {
      const encoder = new TextEncoder()
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode('first;'))
          await new Promise((r) => setTimeout(r, 400))
          controller.enqueue(encoder.encode('second'))
          controller.close()
        },
      })
      return new Response(body, { headers: { 'Content-Type': 'text/remix-deferred' } })
    })
    const res = await get(`${base}/data`)
    expect(res.chunks.map((c) => c.text).join('')).toBe('first;second')
    // The first part arrived well before the second was produced.
    expect(res.chunks[0]!.text).toBe('first;')
    expect(res.chunks[res.chunks.length - 1]!.at - res.chunks[0]!.at).toBeGreaterThanOrEqual(300)
  })

  it('answers a response without a body (a redirect) with its headers only', async () => {
    const base = await serve(() => new Response(null, { status: 302, headers: { Location: '/signin' } }))
    const res = await get(`${base}/keywords`)
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('/signin')
    expect(res.chunks).toEqual([])
  })
})

describe('JSON sent whole', () => {
  it('encodes exactly what JSON.stringify writes, arrays item by item', () => {
    const cases: Array<Record<string, unknown>> = [
      {},
      { data: [] },
      {
        data: [
          { id: 1, text: 'line\nbreak "quoted" </script> \u2028 emoji 😀 ünïcode', at: new Date(Date.UTC(2026, 0, 2)) },
          undefined,
          null,
          () => 1,
          [1, [2, { deep: true }]],
        ],
        total: 5,
        nextCursor: null,
        skipped: undefined,
        fn: () => 1,
        'odd "key"': 'value',
      },
      { first: undefined, second: 2 },
    ]
    for (const value of cases) {
      const bytes = jsonBytes(value)
      expect(bytes.toString('utf8')).toBe(JSON.stringify(value))
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(value)))
    }
  })

  it('still hands out its bytes to a reader of the Response (a loader called directly)', async () => {
    const data = { data: [{ title: 'Ünïcode 😀' }], total: 1, nextCursor: null }
    const response = wholeJson(data)
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual(data)
  })

  it('sends a JSON page in one write with its length, its status and headers, compressed when asked', async () => {
    const data = { data: Array.from({ length: 300 }, (_, i) => ({ i, text: `post ${i} `.repeat(100) })), total: 300 }
    const base = await serve(() => wholeJson(data, { status: 201, headers: { 'Cache-Control': 'private, no-store' } }))
    const plain = await get(`${base}/api/blogposts`)
    expect(plain.status).toBe(201)
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(plain.headers['cache-control']).toBe('private, no-store')
    const text = plain.chunks.map((c) => c.text).join('')
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(text)))
    expect(JSON.parse(text)).toEqual(data)

    const zipped = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}/api/blogposts`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
          const parts: Buffer[] = []
          res.on('data', (c: Buffer) => parts.push(c))
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }))
        })
        .on('error', reject)
    })
    expect(zipped.encoding).toBe('gzip')
    expect(JSON.parse(zlib.gunzipSync(zipped.body).toString('utf8'))).toEqual(data)
  })
})
