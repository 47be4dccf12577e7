/**
 * Helpers for the Auto Pilot and webhook tests: a loopback webhook receiver with scripted answers, and extra web
 * and worker processes of the built app with some environment overridden (another queue prefix, fast retries,
 * the SSRF guard switched on).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
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
      waitFor(async () => (received.filter((r) => r.path === path).length >= count ? received.filter((r) => r.path === path) : null), {
        timeout,
        interval: 100,
      }),
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>

export async function freePort() {
  return new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref()
    })
}

/** Another worker process. Resolves once it has started its BullMQ workers. */
export async function startWorker(overrides: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/index.ts'], {
    env: { ...process.env, ...overrides },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
  await waitFor(async () => output.includes('worker started') || child.exitCode !== null, { timeout: 120_000, interval: 250 })
  if (child.exitCode !== null) throw new Error(`worker exited: ${output}`)
  return { stop: stopper(child), output: () => output }
}

/** Another web process of the built app. */
export async function startWeb(overrides: Record<string, string> = {}) {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    env: { ...process.env, PORT: String(port), ...overrides },
    stdio: 'ignore',
  })
  const url = `http://127.0.0.1:${port}`
  await waitFor(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok, { timeout: 120_000, interval: 250 })
  return { url, stop: stopper(child) }
}
