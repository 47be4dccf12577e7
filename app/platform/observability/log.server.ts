import { format } from 'node:util'
import { currentRequestId } from '#app/platform/http/request-scope.server'

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
}

/** A personal API key (issue 38: `rwk_` + base62) in a log line, whole or cut short. */
const API_KEY_IN_TEXT = /\brwk_[A-Za-z0-9]{6,}/g

/** A log line without any personal API key in it (a key is never logged, whatever the code logs). */
export function withoutApiKeys(line: string): string {
  return line.includes('rwk_') ? line.replace(API_KEY_IN_TEXT, 'rwk_[Filtered]') : line
}

export function installRequestIdLogging() {
  if (globalThis.__rankwellLogInstalled) return
  globalThis.__rankwellLogInstalled = true
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level].bind(console)
    console[level] = (...args: unknown[]) => {
      const requestId = currentRequestId()
      const line = withoutApiKeys(format(...args))
      original(requestId ? withRequestId(line, requestId) : line)
    }
  }
}

/**
 * One JSON log line, with the request id when there is one, written straight to stdout: it carries its request id
 * already, so it skips the console's request-id wrapper and formatting pass (issue 17: one such line per request).
 */
export function logJson(fields: Record<string, unknown>) {
  const requestId = currentRequestId()
  const line = JSON.stringify({ at: new Date().toISOString(), ...fields, ...(requestId ? { requestId } : {}) })
  process.stdout.write(`${line}\n`)
}
