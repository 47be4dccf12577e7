/**
 * Shared plumbing for the loopback fakes: body parsing (JSON and form-encoded with
 * bracket notation), request recording, the `/__control/*` API (requests, mark, reset,
 * enqueue, latency, stall), and small send helpers. Only node:http is used.
 *
 * Every recorded request has a sequence number of its fake (never reused, not even after a reset):
 * `GET /__control/mark` says the last one, `GET /__control/requests?since=N` lists those after it,
 * so that a test counts the requests of its own span, whatever came before.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { type AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'

export interface FakeOptions {
  port?: number
  host?: string
}

export interface RecordedRequest {
  /** This fake's sequence number of the request (1, 2, …). */
  seq: number
  method: string
  path: string
  query: Record<string, unknown>
  headers: Record<string, string>
  body: unknown
  at: string
}

export interface EnqueueSpec {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Substring match on the request path; default: any non-control path. */
  path?: string
  /** Substring(s) that must all occur in the raw request body (so a test's injected answer hits only its own requests). */
  bodyIncludes?: string | string[]
  /** How many matching requests get this response (default 1). */
  times?: number
  delayMs?: number
  /** Never answer; the response is held until the client goes away. */
  hang?: boolean
  /** Answer as usual (the fake's own answer, not `status`/`body`), after `delayMs`: a slow but normal reply. */
  passThrough?: boolean
}

export interface FakeHandle {
  url: string
  port: number
  host: string
  close(): Promise<void>
  /** Recorded (non-control) requests, oldest first; with `since` (a `mark()`), only those after it. */
  requests(since?: number): RecordedRequest[]
  /** The sequence number of the last recorded request (0 before the first). */
  mark(): number
  reset(): void
  enqueue(spec: EnqueueSpec): void
  setLatency(ms: number): void
}

export interface FakeRequest {
  method: string
  url: URL
  path: string
  query: Record<string, unknown>
  headers: IncomingHttpHeaders
  rawBody: string
  /** The body's bytes (uploads: a multipart form or a file). */
  rawBytes: Buffer
  body: unknown
  req: IncomingMessage
  res: ServerResponse
  /** Base URL of this fake, e.g. http://127.0.0.1:1234 */
  baseUrl: string
}

export type Handler = (ctx: FakeRequest) => Promise<void> | void

export interface FakeServerConfig {
  name: string
  handler: Handler
  /** Extra `/__control/<sub>` routes. Return true when handled. */
  control?: (ctx: FakeRequest, sub: string) => Promise<boolean> | boolean
  /** Called on POST /__control/reset after the generic state is cleared. */
  onReset?: () => void
  /** Headers added to every non-control response (normal and enqueued). */
  baseHeaders?: (ctx: FakeRequest) => Record<string, string>
  /** Called for every recorded (non-control) request, before enqueue/latency handling. */
  onRecord?: (ctx: FakeRequest) => void
  /** Default body for an enqueued response that has no `body`. */
  defaultErrorBody?: (status: number, ctx: FakeRequest) => unknown
}

const MAX_RECORDED = 500

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export function randomId(prefix: string, bytes = 12): string {
  return (
    prefix +
    randomBytes(bytes)
      .toString('hex')
      .slice(0, bytes * 2)
  )
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
export function randomAlnum(prefix: string, length = 24): string {
  const buf = randomBytes(length)
  let out = prefix
  for (let i = 0; i < length; i++) out += ALNUM[buf[i] % ALNUM.length]
  return out
}

// ---------------------------------------------------------------------------
// Body parsing

type FormTree = { [key: string]: FormTree | string }

/** Splits `a[b][0][c]` into ['a', 'b', '0', 'c']; `a[]` yields ['a', '']. */
function splitBracketKey(key: string): string[] {
  const first = key.indexOf('[')
  if (first <= 0) return [key]
  const parts = [key.slice(0, first)]
  const re = /\[([^\]]*)\]/g
  let m: RegExpExecArray | null
  let last = first
  while ((m = re.exec(key)) !== null) {
    if (m.index !== last) break
    parts.push(m[1])
    last = m.index + m[0].length
  }
  if (last !== key.length) return [key]
  return parts
}

function isIndexKey(k: string): boolean {
  return /^(0|[1-9]\d*)$/.test(k)
}

function normalizeTree(node: FormTree | string): unknown {
  if (typeof node === 'string') return node
  const keys = Object.keys(node)
  const normalized: Record<string, unknown> = {}
  for (const k of keys) normalized[k] = normalizeTree(node[k])
  if (keys.length > 0 && keys.every(isIndexKey)) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((i) => normalized[String(i)])
  }
  return normalized
}

/**
 * Parses `application/x-www-form-urlencoded` (or a query string) with bracket
 * notation: `line_items[0][price]=x&metadata[a]=b&expand[]=c` →
 * `{ line_items: [{ price: 'x' }], metadata: { a: 'b' }, expand: ['c'] }`.
 * Repeated plain keys become arrays.
 */
export function parseForm(raw: string): Record<string, unknown> {
  const root: FormTree = {}
  const params = new URLSearchParams(raw)
  const pushCounters = new Map<FormTree, number>()
  for (const [key, value] of params) {
    const parts = splitBracketKey(key)
    let node: FormTree = root
    for (let i = 0; i < parts.length; i++) {
      let part = parts[i]
      const isLast = i === parts.length - 1
      if (part === '') {
        const n = pushCounters.get(node) ?? Object.keys(node).filter(isIndexKey).length
        pushCounters.set(node, n + 1)
        part = String(n)
      }
      if (isLast) {
        const existing = node[part]
        if (existing === undefined) {
          node[part] = value
        } else if (typeof existing === 'string' && parts.length === 1) {
          // repeated plain key → array
          node[part] = { '0': existing, '1': value }
        } else if (typeof existing !== 'string' && parts.length === 1) {
          const n = Object.keys(existing).length
          existing[String(n)] = value
        } else {
          node[part] = value
        }
      } else {
        const next = node[part]
        if (next === undefined || typeof next === 'string') {
          const created: FormTree = {}
          node[part] = created
          node = created
        } else {
          node = next
        }
      }
    }
  }
  return normalizeTree(root) as Record<string, unknown>
}

export function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw.length === 0) return null
  const ct = (contentType ?? '').toLowerCase()
  if (ct.includes('application/x-www-form-urlencoded')) return parseForm(raw)
  if (ct.includes('json') || /^\s*[[{]/.test(raw)) {
    try {
      return JSON.parse(raw) as unknown
    } catch {
      return raw
    }
  }
  return raw
}

export async function readRaw(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString('utf8')
}

export function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export type MultipartField = { name: string; filename?: string; contentType?: string; data: Buffer }

/** Parses a multipart/form-data body (RFC 7578) into its parts; null when it is not one. */
export function parseMultipart(bytes: Buffer, contentType: string | undefined): MultipartField[] | null {
  const boundary = /^multipart\/form-data;.*\bboundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1]
  if (!boundary) return null
  const delimiter = Buffer.from(`--${boundary}`)
  const parts: MultipartField[] = []
  let at = bytes.indexOf(delimiter)
  if (at < 0) return null
  for (;;) {
    const start = at + delimiter.length
    if (bytes.subarray(start, start + 2).toString() === '--') return parts
    const headEnd = bytes.indexOf('\r\n\r\n', start)
    const next = bytes.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd)
    if (headEnd < 0 || next < 0) return null
    const head = bytes.subarray(start + 2, headEnd).toString('utf8')
    const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? ''
    parts.push({
      name: /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '',
      filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim(),
      data: bytes.subarray(headEnd + 4, next),
    })
    at = next + 2
  }
}

function flattenHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue
    out[k] = Array.isArray(v) ? v.join(', ') : v
  }
  return out
}

// ---------------------------------------------------------------------------
// Send helpers

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.writableEnded) return
  const payload = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(payload)),
    ...headers,
  })
  res.end(payload)
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType = 'text/plain; charset=utf-8',
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.writableEnded) return
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  })
  res.end(text)
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, html, 'text/html; charset=utf-8', headers)
}

export function redirect(res: ServerResponse, status: 302 | 303, location: string): void {
  if (res.headersSent || res.writableEnded) return
  res.writeHead(status, { location, 'content-length': '0' })
  res.end()
}

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return undefined
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization
  if (!auth) return undefined
  const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
  return m ? m[1].trim() : undefined
}

export function basicCredentials(headers: IncomingHttpHeaders): { user: string; pass: string } | undefined {
  const auth = headers.authorization
  if (!auth) return undefined
  const m = /^Basic\s+(.+)$/i.exec(auth.trim())
  if (!m) return undefined
  const decoded = Buffer.from(m[1], 'base64').toString('utf8')
  const idx = decoded.indexOf(':')
  if (idx < 0) return undefined
  return { user: decodeURIComponent(decoded.slice(0, idx)), pass: decodeURIComponent(decoded.slice(idx + 1)) }
}

// ---------------------------------------------------------------------------
// Server

interface QueuedResponse extends EnqueueSpec {
  remaining: number
}

export async function startFakeServer(
  config: FakeServerConfig,
  opts: FakeOptions = {},
): Promise<FakeHandle & { server: Server }> {
  const host = opts.host ?? '127.0.0.1'
  let recorded: RecordedRequest[] = []
  let lastSeq = 0
  let queue: QueuedResponse[] = []
  let latencyMs = 0
  /** Until this time (epoch ms) every non-control request is held unanswered: a provider that hangs. */
  let stalledUntil = 0
  let baseUrl = ''

  function reset(): void {
    recorded = []
    queue = []
    latencyMs = 0
    stalledUntil = 0
    config.onReset?.()
  }

  function enqueue(spec: EnqueueSpec): void {
    const times = spec.times ?? 1
    queue.push({ ...spec, remaining: times })
  }

  function bodyMatches(spec: EnqueueSpec, rawBody: string): boolean {
    if (spec.bodyIncludes === undefined) return true
    const needles = Array.isArray(spec.bodyIncludes) ? spec.bodyIncludes : [spec.bodyIncludes]
    return needles.every((n) => rawBody.includes(n))
  }

  function takeQueued(path: string, rawBody: string): QueuedResponse | undefined {
    const idx = queue.findIndex(
      (q) => q.remaining > 0 && (q.path === undefined || path.includes(q.path)) && bodyMatches(q, rawBody),
    )
    if (idx < 0) return undefined
    const item = queue[idx]
    item.remaining -= 1
    if (item.remaining <= 0) queue.splice(idx, 1)
    return item
  }

  async function handleControl(ctx: FakeRequest, sub: string): Promise<void> {
    const { res, method, body } = ctx
    if (sub === 'requests' && method === 'GET') {
      const since = Number(ctx.url.searchParams.get('since') ?? 0)
      sendJson(res, 200, { requests: since > 0 ? recorded.filter((r) => r.seq > since) : recorded })
      return
    }
    if (sub === 'mark' && method === 'GET') {
      sendJson(res, 200, { seq: lastSeq })
      return
    }
    if (sub === 'reset' && method === 'POST') {
      reset()
      sendJson(res, 200, { ok: true })
      return
    }
    if (sub === 'enqueue' && method === 'POST') {
      const items = Array.isArray(body) ? body : [body]
      for (const item of items) {
        if (!isRecord(item) || typeof item.status !== 'number') {
          if (!(isRecord(item) && (item.hang === true || item.passThrough === true))) {
            sendJson(res, 400, { error: 'enqueue needs { status: number }, { hang: true } or { passThrough: true }' })
            return
          }
        }
        enqueue({
          status: typeof item.status === 'number' ? item.status : 200,
          body: item.body,
          headers: isRecord(item.headers) ? (item.headers as Record<string, string>) : undefined,
          path: typeof item.path === 'string' ? item.path : undefined,
          bodyIncludes:
            typeof item.bodyIncludes === 'string' || Array.isArray(item.bodyIncludes)
              ? (item.bodyIncludes as string | string[])
              : undefined,
          times: typeof item.times === 'number' ? item.times : undefined,
          delayMs: typeof item.delayMs === 'number' ? item.delayMs : undefined,
          hang: item.hang === true,
          passThrough: item.passThrough === true,
        })
      }
      sendJson(res, 200, { ok: true, queued: queue.length })
      return
    }
    if (sub === 'latency' && method === 'POST') {
      const ms = isRecord(body) ? Number(body.ms) : NaN
      latencyMs = Number.isFinite(ms) && ms > 0 ? ms : 0
      sendJson(res, 200, { ok: true, ms: latencyMs })
      return
    }
    if (sub === 'stall' && method === 'POST') {
      // POST /__control/stall {ms}: for the next `ms` milliseconds every request is held unanswered until the
      // client goes away (a provider that accepts connections and never answers); {ms: 0} ends it.
      const ms = isRecord(body) ? Number(body.ms) : NaN
      stalledUntil = Number.isFinite(ms) && ms > 0 ? Date.now() + ms : 0
      sendJson(res, 200, { ok: true, until: stalledUntil ? new Date(stalledUntil).toISOString() : null })
      return
    }
    if (sub === 'health' && method === 'GET') {
      sendJson(res, 200, { ok: true, name: config.name })
      return
    }
    if (config.control && (await config.control(ctx, sub))) return
    sendJson(res, 404, { error: `unknown control route ${method} /__control/${sub}` })
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBytes = await readBytes(req)
    const rawBody = rawBytes.toString('utf8')
    const url = new URL(req.url ?? '/', baseUrl)
    const method = (req.method ?? 'GET').toUpperCase()
    const ctx: FakeRequest = {
      method,
      url,
      path: url.pathname,
      query: parseForm(url.search.slice(1)),
      headers: req.headers,
      rawBody,
      rawBytes,
      body: parseBody(rawBody, req.headers['content-type']),
      req,
      res,
      baseUrl,
    }

    if (url.pathname.startsWith('/__control/')) {
      await handleControl(ctx, url.pathname.slice('/__control/'.length))
      return
    }

    recorded.push({
      seq: ++lastSeq,
      method,
      path: url.pathname,
      query: ctx.query,
      headers: flattenHeaders(req.headers),
      body: ctx.body,
      at: new Date().toISOString(),
    })
    if (recorded.length > MAX_RECORDED) recorded.splice(0, recorded.length - MAX_RECORDED)
    config.onRecord?.(ctx)

    if (Date.now() < stalledUntil) {
      await new Promise<void>((resolve) => res.on('close', () => resolve()))
      return
    }
    const queued = takeQueued(url.pathname, rawBody)
    if (queued?.passThrough) {
      if (queued.delayMs) await sleep(queued.delayMs)
    } else if (queued) {
      if (queued.delayMs) await sleep(queued.delayMs)
      if (queued.hang) {
        await new Promise<void>((resolve) => {
          res.on('close', () => resolve())
        })
        return
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries({ ...(config.baseHeaders?.(ctx) ?? {}), ...(queued.headers ?? {}) })) {
        headers[k.toLowerCase()] = String(v)
      }
      const body = queued.body !== undefined ? queued.body : config.defaultErrorBody?.(queued.status, ctx)
      if (typeof body === 'string') {
        sendText(res, queued.status, body, headers['content-type'] ?? 'text/plain; charset=utf-8', headers)
      } else if (body === undefined) {
        res.writeHead(queued.status, headers)
        res.end()
      } else {
        sendJson(res, queued.status, body, headers)
      }
      return
    }

    if (latencyMs > 0) await sleep(latencyMs)
    const extra = config.baseHeaders?.(ctx)
    if (extra) for (const [k, v] of Object.entries(extra)) res.setHeader(k, v)
    await config.handler(ctx)
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err)
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake ${config.name} crashed: ${message}` } })
      else res.end()
    })
  })
  server.keepAliveTimeout = 5_000

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const urlHost = host.includes(':') ? `[${host}]` : host
  baseUrl = `http://${urlHost}:${port}`

  return {
    server,
    url: baseUrl,
    port,
    host,
    requests: (since = 0) => recorded.filter((r) => r.seq > since),
    mark: () => lastSeq,
    reset,
    enqueue,
    setLatency: (ms: number) => {
      latencyMs = ms
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
