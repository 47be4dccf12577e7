/**
 * Fake Sentry ingest: the envelope endpoint the official SDKs send to.
 *
 *   POST /api/:project_id/envelope/     (X-Sentry-Auth: Sentry sentry_key=…, or ?sentry_key=…; gzip or plain)
 *
 * An envelope is newline-separated: an envelope header (JSON), then items, each an item header (JSON, with an
 * optional `length` in bytes) followed by its payload. Events (`type: "event"`) are kept and listed by
 * GET /__control/events; every item by GET /__control/items; POST /__control/reset forgets them.
 * The DSN for the app: `http://<publicKey>@<host>:<port>/<projectId>` (FAKE_SENTRY_DSN).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync, inflateSync } from 'node:zlib'

export type SentryItem = { header: Record<string, unknown>; payload: unknown; raw: string }
export type SentryEnvelope = { header: Record<string, unknown>; items: SentryItem[]; receivedAt: string }

export type SentryFakeHandle = {
  url: string
  dsn: string
  publicKey: string
  projectId: string
  envelopes(): SentryEnvelope[]
  events(): Array<Record<string, unknown>>
  reset(): void
  close(): Promise<void>
}

/** Splits an envelope body into its header and items (payload lengths honoured when given). */
export function parseEnvelope(body: Buffer): Omit<SentryEnvelope, 'receivedAt'> {
  let offset = 0
  const readLine = () => {
    const end = body.indexOf(0x0a, offset)
    const line = body.subarray(offset, end === -1 ? body.length : end).toString('utf8')
    offset = end === -1 ? body.length : end + 1
    return line
  }
  const header = JSON.parse(readLine()) as Record<string, unknown>
  const items: SentryItem[] = []
  while (offset < body.length) {
    const headerLine = readLine()
    if (!headerLine.trim()) continue
    const itemHeader = JSON.parse(headerLine) as Record<string, unknown>
    let raw: string
    if (typeof itemHeader.length === 'number') {
      raw = body.subarray(offset, offset + itemHeader.length).toString('utf8')
      offset += itemHeader.length
      if (body[offset] === 0x0a) offset++
    } else raw = readLine()
    let payload: unknown = raw
    try {
      payload = JSON.parse(raw)
    } catch {
      /* attachments and other binary items stay text */
    }
    items.push({ header: itemHeader, payload, raw })
  }
  return { header, items }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
}

function sentryKey(req: IncomingMessage, url: URL): string | undefined {
  const auth = req.headers['x-sentry-auth']
  const fromHeader = typeof auth === 'string' ? /sentry_key=([^,\s]+)/.exec(auth)?.[1] : undefined
  return fromHeader ?? url.searchParams.get('sentry_key') ?? undefined
}

export async function startSentry(opts: { host?: string; port?: number } = {}): Promise<SentryFakeHandle> {
  const host = opts.host ?? '127.0.0.1'
  const publicKey = 'f00dfacef00dfacef00dfacef00dface'
  const projectId = '4242'
  let envelopes: SentryEnvelope[] = []

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', `http://${host}`)
      if (url.pathname === '/__control/events' && req.method === 'GET')
        return send(res, 200, { events: envelopes.flatMap((e) => e.items.filter(isEvent).map((i) => i.payload)) })
      if (url.pathname === '/__control/items' && req.method === 'GET') return send(res, 200, { envelopes })
      if (url.pathname === '/__control/reset' && req.method === 'POST') {
        envelopes = []
        return send(res, 200, { ok: true })
      }
      const match = /^\/api\/([^/]+)\/envelope\/?$/.exec(url.pathname)
      if (!match || req.method !== 'POST') return send(res, 404, { detail: 'not found' })
      if (match[1] !== projectId) return send(res, 404, { detail: 'unknown project' })
      if (sentryKey(req, url) !== publicKey) return send(res, 401, { detail: 'invalid api key' })
      let body = Buffer.concat(chunks)
      try {
        const encoding = String(req.headers['content-encoding'] ?? '')
        if (encoding === 'gzip') body = gunzipSync(body)
        else if (encoding === 'deflate') body = inflateSync(body)
        const parsed = parseEnvelope(body)
        envelopes.push({ ...parsed, receivedAt: new Date().toISOString() })
        const event = parsed.items.find(isEvent)?.payload as { event_id?: string } | undefined
        send(res, 200, { id: event?.event_id ?? parsed.header.event_id ?? null })
      } catch (error) {
        send(res, 400, { detail: `bad envelope: ${error instanceof Error ? error.message : String(error)}` })
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://${host}:${port}`
  return {
    url,
    dsn: `http://${publicKey}@${host}:${port}/${projectId}`,
    publicKey,
    projectId,
    envelopes: () => envelopes,
    events: () => envelopes.flatMap((e) => e.items.filter(isEvent).map((i) => i.payload as Record<string, unknown>)),
    reset: () => {
      envelopes = []
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      }),
  }
}

function isEvent(item: SentryItem) {
  return item.header.type === 'event'
}
