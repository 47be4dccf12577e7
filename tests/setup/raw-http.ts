/**
 * A raw HTTP request for hostile-input tests: a body streamed in chunks (with or without Content-Length), and an
 * answer read as soon as the server sends it, even when the server answers early (a 413) while the body is still
 * being sent. The body is written one chunk at a time, giving the event loop a turn between chunks, so an early
 * answer is parsed before the next write, and sending stops as soon as it has come. A write that fails after the
 * answer arrived (the server closed its side) does not count; one that fails before is the error.
 */
import http from 'node:http'
import { setImmediate as nextTurn } from 'node:timers/promises'

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; text: string; sentBytes: number }

export function rawRequest(
  baseUrl: string,
  opts: {
    method?: string
    path: string
    headers?: Record<string, string>
    /** Total body size, sent as `chunkSize` pieces of 'a' (or `body` when given). */
    size?: number
    chunkSize?: number
    body?: string | Buffer
    /** Send Content-Length (default) or Transfer-Encoding: chunked. */
    chunked?: boolean
    timeoutMs?: number
  },
): Promise<RawAnswer> {
  const url = new URL(opts.path, baseUrl)
  const body = opts.body === undefined ? null : Buffer.from(opts.body)
  const size = body ? body.length : (opts.size ?? 0)
  const chunkSize = opts.chunkSize ?? 64 * 1024
  const timeoutMs = opts.timeoutMs ?? 20_000
  const headers: Record<string, string> = { ...opts.headers }
  if (!opts.chunked) headers['Content-Length'] = String(size)
  return new Promise((resolve, reject) => {
    let sentBytes = 0
    let answered = false
    let settled = false
    const finish = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      outcome()
    }
    const req = http.request(url, { method: opts.method ?? 'POST', headers, agent: false }, (res) => {
      answered = true
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      const done = () => {
        finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, sentBytes }))
        req.destroy()
      }
      res.on('end', done)
      res.on('close', done)
      res.on('error', done)
    })
    const timer = setTimeout(() => {
      finish(() => reject(new Error(`no answer from ${opts.path} within ${timeoutMs} ms (sent ${sentBytes} bytes)`)))
      req.destroy()
    }, timeoutMs)
    req.on('error', (error: NodeJS.ErrnoException) => {
      // After the answer came, a failed write is the server closing its side: the answer counts.
      if (!answered) finish(() => reject(error))
    })
    const piece = Buffer.alloc(chunkSize, 'a')
    const pump = async () => {
      while (sentBytes < size && !answered && !req.destroyed) {
        const chunk = body
          ? body.subarray(sentBytes, sentBytes + chunkSize)
          : piece.subarray(0, Math.min(chunkSize, size - sentBytes))
        sentBytes += chunk.length
        if (!req.write(chunk))
          await new Promise<void>((resolve) => {
            const go = () => {
              req.off('drain', go).off('close', go)
              resolve()
            }
            req.on('drain', go).on('close', go)
          })
        await nextTurn()
      }
      if (!answered && !req.destroyed) req.end()
    }
    void pump()
  })
}
