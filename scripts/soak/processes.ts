// The soak's app processes (two web processes and a worker), each supervised and restartable as a process manager
// (Fly's) would: a SIGKILL, then a new process. An exit that no fault and no cleanup caused is recorded (a crash).
import fs from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import type { Cleanups } from '../lib/app'
import { log, stopProcess } from '../lib/services'
import type { ProcessExit } from './judge'

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const now = () => Date.now()

/**
 * `promise`, or undefined after `ms`: a bound on a wait that must end. On a loaded machine a health check's fetch was
 * seen never to settle (no socket and no timer left), which left the soak waiting for ever at its end.
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ])
  } finally {
    clearTimeout(timer)
  }
}

export type Proc = {
  name: string
  child: ChildProcess
  start: () => ChildProcess
  /** Resolves once the (re)started process is up: its /healthz answers, or the worker logged that it started. */
  ready: () => Promise<void>
  url?: string
  killedAt?: number
  /** Set from the SIGKILL until the new process is up: a request sent meanwhile cannot have reached the app. */
  downSince?: number
  /** The child a fault killed (its exit is expected), and whether the cleanup is stopping the process. */
  killedChild?: ChildProcess
  stopping?: boolean
}

export type Supervisor = ReturnType<typeof supervisor>

/** Starts processes under supervision; `unexpectedExits` lists those that exited on their own (each a violation). */
export function supervisor(cleanups: Cleanups) {
  const unexpectedExits: ProcessExit[] = []

  function watchExit(proc: Proc) {
    const child = proc.child
    child.once('exit', (code, signal) => {
      if (proc.stopping || proc.killedChild === child) return
      unexpectedExits.push({ name: proc.name, at: now(), code, signal })
      log(`soak: ${proc.name} exited on its own (code ${code}, signal ${signal})`)
    })
  }

  function supervised(
    name: string,
    start: () => ChildProcess,
    ready: (child: ChildProcess) => Promise<void>,
    url?: string,
  ) {
    const proc: Proc = { name, child: start(), start, ready: () => ready(proc.child), url }
    watchExit(proc)
    cleanups.push(() => {
      proc.stopping = true
      return stopProcess(proc.child)
    })
    return proc
  }

  /**
   * The fault as a process manager (Fly's) deals it: SIGKILL, then a new process. The fault lasts until the new
   * process is up (its start-up time is the machine's, not the app's recovery); recovery is measured from there.
   */
  async function killAndRestart(proc: Proc) {
    proc.killedAt = now()
    proc.downSince = proc.killedAt
    // A process that already exited on its own (recorded as a violation by watchExit) is started again, as a process
    // manager would, instead of waiting for an exit that happened before.
    if (!hasExited(proc.child)) {
      const exited = new Promise((r) => proc.child.once('exit', r))
      proc.killedChild = proc.child
      proc.child.kill('SIGKILL')
      await exited
    }
    proc.child = proc.start()
    watchExit(proc)
    await proc.ready()
    proc.downSince = undefined
  }

  return { supervised, killAndRestart, unexpectedExits }
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** Resolves once the child has printed `text` (within 3 minutes: a loaded machine starts processes slowly). */
export function printed(child: ChildProcess, text: string) {
  return new Promise<void>((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`no '${text}' within 3 minutes`)), 180_000)
    child.stdout?.on('data', function onData(chunk: Buffer) {
      seen = (seen + chunk.toString()).slice(-4096)
      if (!seen.includes(text)) return
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      resolve()
    })
    child.once('exit', () => reject(new Error(`exited before printing '${text}'`)))
  })
}

/** Resident memory of a process in MiB (Linux /proc), NaN when it is not running. */
export function rssMiB(pid: number | undefined) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024
  } catch {
    return NaN
  }
}
