/**
 * A raw HTTP request for hostile-input tests: a body streamed in chunks (with or without Content-Length), and an
 * answer read as soon as the server sends it, even when the server answers early and cuts the connection while the
 * body is still being sent (the EPIPE/ECONNRESET that follows the status is expected, not a failure).
 */
import http from 'node:http'

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
  const headers: Record<string, string> = { ...opts.headers }
  if (!opts.chunked) headers['Content-Length'] = String(size)
  return new Promise((resolve, reject) => {
    let sentBytes = 0
    let answered = false
    const timer = setTimeout(() => {
      req.destroy()
      reject(new Error(`no answer from ${opts.path} within ${opts.timeoutMs ?? 20_000} ms`))
    }, opts.timeoutMs ?? 20_000)
    const req = http.request(url, { method: opts.method ?? 'POST', headers, agent: false }, (res) => {
      answered = true
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      const done = () => {
        clearTimeout(timer)
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, sentBytes })
        req.destroy()
      }
      res.on('end', done)
      res.on('error', done)
      res.on('aborted', done)
    })
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The server answered and closed while we were still sending: the answer counts.
      if (answered && ['EPIPE', 'ECONNRESET'].includes(error.code ?? '')) return
      clearTimeout(timer)
      if (!answered) reject(error)
    })
    const piece = Buffer.alloc(chunkSize, 'a')
    const pump = () => {
      while (sentBytes < size && !answered && !req.destroyed) {
        const chunk = body
          ? body.subarray(sentBytes, sentBytes + chunkSize)
          : piece.subarray(0, Math.min(chunkSize, size - sentBytes))
        sentBytes += chunk.length
        if (!req.write(chunk)) {
          req.once('drain', pump)
          return
        }
      }
      if (!answered && !req.destroyed) req.end()
    }
    pump()
  })
}
