import { json, type ServerBuild } from '@remix-run/node'
import { OUTAGE_MESSAGE, OUTAGE_RETRY_AFTER_SECONDS } from './outage'
import { getEnv } from '#app/platform/env.server'
import { badInputError, badInputResponse, logBadInput } from './bad-input.server'

/**
 * Outages of Postgres and Redis, recognised in one place. Every loader and action of the build is wrapped
 * (`guardBuild`, used by server.ts): an error that says "the database or Redis cannot be reached" becomes a thrown
 * 503 response with `Retry-After` and the message 'Rankwell is briefly unavailable, please try again in a minute.',
 * so that Remix renders it like any thrown response: JSON `{message}` from the /api resource routes, the root error
 * boundary (inside the layout) for documents, a caught error for client-side data requests. Anything else is
 * rethrown untouched (a real bug stays a 500 and is logged by handleError).
 */
export type OutageKind = 'postgres' | 'redis'

/** Network errors of a socket to Postgres or Redis (Node's codes). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
])

/** The postgres driver's own connection errors. */
const POSTGRES_CLIENT_CODES = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
])

/**
 * SQLSTATEs of a server that is going away or cannot serve now: class 08 (connection exception), 57P01 admin
 * shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up or shutting down), 57014 query canceled
 * (our statement_timeout), 53300 too many connections, 53000/53100/53200 out of resources.
 */
const POSTGRES_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53000', '53100', '53200', '53300'])

/** ioredis's messages when a command cannot reach Redis (offline queue off, retries used up, command timeout). */
const REDIS_MESSAGES = [
  /Connection is closed/i,
  /Stream isn't writeable/i,
  /enableOfflineQueue/i,
  /max retries per request/i,
  /Command timed out/i,
  /Reached the max retries/i,
]

type ErrorLike = {
  name?: unknown
  code?: unknown
  message?: unknown
  port?: unknown
  cause?: unknown
  errors?: unknown
  constructor?: { name?: string }
}

/** The error, its `cause` chain and the members of an AggregateError (Node's happy-eyeballs connect). */
function chain(error: unknown): ErrorLike[] {
  const seen: ErrorLike[] = []
  const queue: unknown[] = [error]
  while (queue.length && seen.length < 20) {
    const next = queue.shift()
    if (!next || typeof next !== 'object' || seen.includes(next as ErrorLike)) continue
    const e = next as ErrorLike
    seen.push(e)
    if (e.cause) queue.push(e.cause)
    if (Array.isArray(e.errors)) queue.push(...(e.errors as unknown[]))
  }
  return seen
}

/** Whether the error means Postgres or Redis is unreachable (and which), or null for any other error. */
export function classifyOutage(error: unknown): OutageKind | null {
  if (error instanceof Response) return null
  const errors = chain(error)
  // An outgoing HTTP call (OpenAI, DataForSEO, a webhook) that failed is not our outage.
  if (errors.some((e) => e.name === 'TypeError' && e.message === 'fetch failed')) return null
  for (const e of errors) {
    const code = typeof e.code === 'string' ? e.code : ''
    const message = typeof e.message === 'string' ? e.message : ''
    if (e.name === 'MaxRetriesPerRequestError' || e.name === 'QueueTimeoutError') return 'redis'
    if (REDIS_MESSAGES.some((re) => re.test(message))) return 'redis'
    if (POSTGRES_CLIENT_CODES.has(code)) return 'postgres'
    if (e.name === 'PostgresError' && (POSTGRES_SQLSTATES.has(code) || code.startsWith('08'))) return 'postgres'
    if (NETWORK_CODES.has(code)) {
      // A socket error of our own services (SMTP or another host refusing is not an outage of Rankwell).
      const port = Number(e.port)
      if (port && port === servicePort(getEnv().REDIS_URL, 6379)) return 'redis'
      if (port && port === servicePort(getEnv().DATABASE_URL, 5432)) return 'postgres'
      if (errors.some((x) => x.name === 'DrizzleQueryError' || x.constructor?.name === 'DrizzleQueryError'))
        return 'postgres'
    }
  }
  return null
}

function servicePort(url: string, fallback: number) {
  try {
    return Number(new URL(url).port || fallback)
  } catch {
    return fallback
  }
}

/** The 503 answer: JSON `{message}` with Retry-After (rendered by the root error boundary for documents). */
export function outageResponse() {
  return json(
    { message: OUTAGE_MESSAGE },
    {
      status: 503,
      headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' },
    },
  )
}

// One log line per kind and second at most: an outage under load would otherwise write thousands of stack traces.
const lastLogged = new Map<OutageKind, number>()
function logOutage(kind: OutageKind, error: unknown) {
  const now = Date.now()
  if ((lastLogged.get(kind) ?? 0) > now - 1_000) return
  lastLogged.set(kind, now)
  const first = chain(error).find((e) => typeof e.code === 'string') ?? chain(error)[0]
  console.error(`[outage] ${kind} unreachable: ${String(first?.code ?? '')} ${String(first?.message ?? '')}`.trim())
}

type DataFunction = (args: { request: Request }) => unknown

function guard<F extends DataFunction>(fn: F, role: 'loader' | 'action'): F {
  const guarded = async (args: Parameters<F>[0]) => {
    try {
      return await fn(args)
    } catch (error) {
      // Input Postgres refuses (a malformed id, a NUL byte): 404/400, not a 500 (app/server/http/bad-input.server.ts).
      const badInput = badInputError(error)
      if (badInput) {
        logBadInput(args.request, badInput)
        throw badInputResponse(role)
      }
      const kind = classifyOutage(error)
      if (!kind) throw error
      logOutage(kind, error)
      throw outageResponse()
    }
  }
  return guarded as F
}

/** The build with every route's loader and action wrapped by the outage guard and the bad-input safety net. */
export function guardBuild(build: ServerBuild): ServerBuild {
  const routes: ServerBuild['routes'] = {}
  for (const [id, route] of Object.entries(build.routes)) {
    const { loader, action } = route.module
    routes[id] = {
      ...route,
      module: {
        ...route.module,
        ...(loader ? { loader: guard(loader as DataFunction, 'loader') } : {}),
        ...(action ? { action: guard(action as DataFunction, 'action') } : {}),
      } as typeof route.module,
    }
  }
  return { ...build, routes }
}
