/**
 * Extra processes of the built app for integration tests: another web process or worker with some environment
 * overridden (credentials blanked, a broken Redis/Postgres/SMTP, another queue prefix, fast retries…).
 * They inherit the test run's environment (scripts/test.ts). TEST_VERBOSE=1 shows their logs.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { webArgs, workerEntry } from '../../scripts/lib/app'
import { freePort, waitForHttp } from '../../scripts/lib/services'
import { waitFor } from '#tests/setup/app'

export { freePort }

/**
 * Extra processes serve no /metrics unless a test asks (overrides win): the run's own web process and worker hold
 * METRICS_PORT and WORKER_METRICS_PORT.
 */
const NO_METRICS = { METRICS_PORT: '0', WORKER_METRICS_PORT: '0' }

const STARTUP_TIMEOUT_MS = 120_000

/** Runs a Node entry point until it exits (or 90 s): its exit code and output (a start that must be refused). */
export function runUntilExit(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}
const verbose = () => Boolean(process.env.TEST_VERBOSE)

export type Exit = { code: number | null; signal: NodeJS.Signals | null }

/** Resolves with the child's exit code or signal once it has exited. */
function exitOf(child: ChildProcess) {
  return new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

/** Stops the child with `signal` (SIGKILL after 15 s if it is still running) and resolves once it has exited. */
function stopper(child: ChildProcess) {
  const exited = exitOf(child)
  return async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill(signal)
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000)
    force.unref()
    await exited
    clearTimeout(force)
  }
}

export type WebProcess = {
  url: string
  pid: number
  stop: (signal?: NodeJS.Signals) => Promise<void>
  /** Sends a signal without waiting (a graceful stop to watch). */
  signal: (signal: NodeJS.Signals) => void
  /** Resolves once the process has exited. */
  exited: Promise<Exit>
  output: () => string
}

/**
 * Another web process of the built app (server.ts as built JavaScript, like `npm start`) on a free port. Resolves once `ready` (default /healthz)
 * answers 2xx; use `ready: '/'` when the override makes /healthz fail on purpose.
 * `ownAppUrl` sets APP_URL to this process's own address (for links and redirects it builds).
 */
export async function startWeb(
  overrides: Record<string, string> = {},
  opts: { ready?: string; host?: 'localhost' | '127.0.0.1'; ownAppUrl?: boolean } = {},
): Promise<WebProcess> {
  const port = await freePort()
  const url = `http://${opts.host ?? '127.0.0.1'}:${port}`
  const child = spawn(process.execPath, webArgs(process.env), {
    env: {
      ...process.env,
      ...NO_METRICS,
      PORT: String(port),
      ...(opts.ownAppUrl ? { APP_URL: url } : {}),
      ...overrides,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = collectOutput(child)
  const exited = exitOf(child)
  const stop = stopper(child)
  try {
    await waitForHttp(`${url}${opts.ready ?? '/healthz'}`, STARTUP_TIMEOUT_MS)
  } catch (error) {
    await stop('SIGKILL')
    throw error
  }
  return { url, pid: child.pid!, stop, signal: (signal) => child.kill(signal), exited, output }
}

/** A process's resident memory in kB (Linux /proc), to check that it does not grow. */
export function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN)
}

/** The child's stdout and stderr so far (also shown with TEST_VERBOSE=1). */
function collectOutput(child: ChildProcess) {
  let output = ''
  const collect = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    output += chunk.toString()
    if (verbose()) stream.write(chunk)
  }
  child.stdout!.on('data', collect(process.stdout))
  child.stderr!.on('data', collect(process.stderr))
  return () => output
}

export type WorkerProcess = {
  pid: number
  stop: (signal?: NodeJS.Signals) => Promise<void>
  output: () => string
  /** Sends a signal without waiting (a graceful stop to watch). */
  signal: (signal: NodeJS.Signals) => void
  /** Resolves once the process has exited. */
  exited: Promise<Exit>
}

/**
 * Another worker process (the run's build of worker/index.ts), like `npm run worker`. Resolves once it has started
 * its BullMQ workers.
 */
export async function startWorker(overrides: Record<string, string> = {}): Promise<WorkerProcess> {
  const env = { ...process.env, ...NO_METRICS, ...overrides }
  const child = spawn(process.execPath, ['--enable-source-maps', workerEntry(env)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = collectOutput(child)
  const exited = exitOf(child)
  const stop = stopper(child)
  try {
    await waitFor(async () => output().includes('worker started') || child.exitCode !== null, {
      timeout: STARTUP_TIMEOUT_MS,
      interval: 250,
    })
  } catch (error) {
    await stop('SIGKILL')
    throw error
  }
  if (child.exitCode !== null) throw new Error(`worker exited: ${output()}`)
  return { pid: child.pid!, stop, output, signal: (signal) => child.kill(signal), exited }
}
