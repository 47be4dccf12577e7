/**
 * Helpers for the Auto Pilot and webhook tests: a loopback webhook receiver with scripted answers.
 * (Extra web and worker processes: tests/setup/processes.ts.)
 */
import http from 'node:http'
import type net from 'node:net'
import { waitFor } from '#tests/setup/app'

export type ReceivedWebhook = { path: string; headers: Record<string, string>; body: string; at: number }
export type ScriptedAnswer = { status: number; headers?: Record<string, string>; body?: string; hangMs?: number }

/** A webhook receiver on 127.0.0.1. Each path answers from its script (then 200) and records what it got. */
export async function startReceiver() {
  const received: ReceivedWebhook[] = []
  const scripts = new Map<string, ScriptedAnswer[]>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      const answer = scripts.get(path)?.shift() ?? { status: 200, body: 'ok' }
      const send = () => {
        if (res.destroyed) return
        res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers })
        res.end(answer.body ?? '')
      }
      if (answer.hangMs) setTimeout(send, answer.hangMs)
      else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    script: (path: string, answers: ScriptedAnswer[]) => scripts.set(path, [...answers]),
    requests: (path: string) => received.filter((r) => r.path === path),
    waitForRequests: (path: string, count: number, timeout = 30_000) =>
      waitFor(
        async () =>
          received.filter((r) => r.path === path).length >= count ? received.filter((r) => r.path === path) : null,
        {
          timeout,
          interval: 100,
        },
      ),
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>
