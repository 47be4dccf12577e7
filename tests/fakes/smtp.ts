/**
 * Fake SMTP server (smtp-server package, no TLS, any AUTH accepted) that stores
 * every message, plus an HTTP control server:
 *   GET    /messages[?to=addr]   → { messages: StoredMessage[] } (oldest first)
 *   GET    /messages/latest[?to=addr] → StoredMessage | 404
 *   GET    /messages/:id         → StoredMessage | 404
 *   DELETE /messages             → clears
 *   POST   /__control/reset      → clears
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { type AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { sendJson } from './http'
import { addressesFrom, parseMail } from './mime'

export interface StoredMessage {
  id: string
  /** Envelope MAIL FROM address */
  from: string
  /** Envelope RCPT TO addresses (includes Bcc) */
  to: string[]
  subject: string
  text: string
  html: string
  /** Top-level headers, lower-cased names, encoded words decoded */
  headers: Record<string, string>
  attachments: Array<{ filename: string | null; contentType: string; size: number }>
  raw: string
  receivedAt: string
}

export interface SmtpFakeOptions {
  port?: number
  host?: string
  controlPort?: number
}

export interface SmtpFakeHandle {
  host: string
  port: number
  url: string
  controlUrl: string
  messages(to?: string): StoredMessage[]
  clear(): void
  /** Resolves with the first message (already received or future) matching the predicate. */
  waitForMessage(predicate?: (m: StoredMessage) => boolean, timeoutMs?: number): Promise<StoredMessage>
  close(): Promise<void>
}

const MAX_MESSAGES = 1000

function matchesTo(m: StoredMessage, to: string): boolean {
  const wanted = to.trim().toLowerCase()
  return (
    m.to.some((a) => a.toLowerCase() === wanted) ||
    addressesFrom(m.headers.to).includes(wanted) ||
    addressesFrom(m.headers.cc).includes(wanted)
  )
}

export async function startSmtp(opts: SmtpFakeOptions = {}): Promise<SmtpFakeHandle> {
  const host = opts.host ?? '127.0.0.1'
  let store: StoredMessage[] = []
  const waiters: Array<{ predicate: (m: StoredMessage) => boolean; resolve: (m: StoredMessage) => void }> = []

  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    banner: 'Rankwell fake SMTP',
    size: 25 * 1024 * 1024,
    closeTimeout: 1000,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'fake' })
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('error', (err: Error) => callback(err))
      stream.on('end', () => {
        try {
          const raw = Buffer.concat(chunks)
          const parsed = parseMail(raw)
          const msg: StoredMessage = {
            id: randomUUID(),
            from: session.envelope.mailFrom
              ? session.envelope.mailFrom.address
              : (addressesFrom(parsed.headers.from)[0] ?? ''),
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject,
            text: parsed.text,
            html: parsed.html,
            headers: parsed.headers,
            attachments: parsed.attachments,
            raw: raw.toString('utf8'),
            receivedAt: new Date().toISOString(),
          }
          store.push(msg)
          if (store.length > MAX_MESSAGES) store.splice(0, store.length - MAX_MESSAGES)
          for (let i = waiters.length - 1; i >= 0; i--) {
            if (waiters[i].predicate(msg)) {
              waiters[i].resolve(msg)
              waiters.splice(i, 1)
            }
          }
          callback(null, `Message queued as ${msg.id}`)
        } catch (err) {
          callback(err instanceof Error ? err : new Error(String(err)))
        }
      })
    },
  })
  smtp.on('error', () => {
    /* connection-level errors (client resets) are not fatal for a fake */
  })

  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject)
    smtp.listen(opts.port ?? 0, host, () => {
      smtp.server.off('error', reject)
      resolve()
    })
  })
  const port = (smtp.server.address() as AddressInfo).port

  function list(to?: string): StoredMessage[] {
    return to ? store.filter((m) => matchesTo(m, to)) : store.slice()
  }

  function onControl(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const method = req.method ?? 'GET'
    req.resume()
    const to = url.searchParams.get('to') ?? undefined
    if (url.pathname === '/messages' && method === 'GET') return sendJson(res, 200, { messages: list(to) })
    if (url.pathname === '/messages' && method === 'DELETE') {
      store = []
      return sendJson(res, 200, { ok: true })
    }
    if (url.pathname === '/__control/reset' && method === 'POST') {
      store = []
      return sendJson(res, 200, { ok: true })
    }
    if (url.pathname === '/messages/latest' && method === 'GET') {
      const all = list(to)
      const last = all[all.length - 1]
      return last ? sendJson(res, 200, last) : sendJson(res, 404, { error: 'no messages' })
    }
    const m = /^\/messages\/([^/]+)$/.exec(url.pathname)
    if (m && method === 'GET') {
      const found = store.find((x) => x.id === m[1])
      return found ? sendJson(res, 200, found) : sendJson(res, 404, { error: 'not found' })
    }
    if (url.pathname === '/__control/health') return sendJson(res, 200, { ok: true, name: 'smtp' })
    sendJson(res, 404, { error: `unknown route ${method} ${url.pathname}` })
  }

  const control = createServer(onControl)
  await new Promise<void>((resolve, reject) => {
    control.once('error', reject)
    control.listen(opts.controlPort ?? 0, host, () => {
      control.off('error', reject)
      resolve()
    })
  })
  const controlPort = (control.address() as AddressInfo).port

  return {
    host,
    port,
    url: `smtp://${host}:${port}`,
    controlUrl: `http://${host}:${controlPort}`,
    messages: list,
    clear: () => {
      store = []
    },
    waitForMessage: (predicate = () => true, timeoutMs = 10_000) => {
      const existing = store.find(predicate)
      if (existing) return Promise.resolve(existing)
      return new Promise<StoredMessage>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (m: StoredMessage) => {
            clearTimeout(timer)
            resolve(m)
          },
        }
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter)
          if (i >= 0) waiters.splice(i, 1)
          reject(new Error(`no matching SMTP message within ${timeoutMs}ms`))
        }, timeoutMs)
        waiters.push(waiter)
      })
    },
    close: async () => {
      control.closeAllConnections()
      await Promise.all([
        new Promise<void>((resolve) => control.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ])
    },
  }
}
