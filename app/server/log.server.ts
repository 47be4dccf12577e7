import { format } from 'node:util'
import { currentRequestId } from './request-scope.server'

/**
 * Request ids on every log line (issue 20). Within a request (or a job enqueued by one) each console line carries
 * the request id: a JSON line gets a `requestId` field, any other line a `[req <id>]` prefix. Code logs as before;
 * outside a request nothing changes. Installed once per process by server.ts and the worker.
 */
export function withRequestId(line: string, requestId: string | undefined): string {
  if (!requestId) return line
  const trimmed = line.trim()
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return JSON.stringify({ ...(parsed as Record<string, unknown>), requestId })
    } catch {
      /* not JSON: prefix below */
    }
  }
  return `[req ${requestId}] ${line}`
}

declare global {
  var __rankwellLogInstalled: boolean | undefined
  /** console.log as it was before installRequestIdLogging (for lines that already carry their request id). */
  var __rankwellPlainLog: ((line: string) => void) | undefined
}

export function installRequestIdLogging() {
  if (globalThis.__rankwellLogInstalled) return
  globalThis.__rankwellLogInstalled = true
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level].bind(console)
    if (level === 'log') globalThis.__rankwellPlainLog = original
    console[level] = (...args: unknown[]) => {
      const requestId = currentRequestId()
      if (!requestId) return original(...args)
      original(withRequestId(format(...args), requestId))
    }
  }
}

/**
 * One JSON log line (with the request id when there is one). The line is written with its request id already in
 * it, so the console's request-id wrapper does not parse it again (issue 17: one such line per request).
 */
export function logJson(fields: Record<string, unknown>) {
  const requestId = currentRequestId()
  const plain = globalThis.__rankwellPlainLog
  if (requestId && plain) plain(JSON.stringify({ at: new Date().toISOString(), ...fields, requestId }))
  else console.log(JSON.stringify({ at: new Date().toISOString(), ...fields }))
}
