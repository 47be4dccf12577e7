import { AsyncLocalStorage } from 'node:async_hooks'
import crypto from 'node:crypto'

/**
 * Per-request memory (issue 17). server.ts opens a scope for every HTTP request and hands it to Remix through
 * getLoadContext; code anywhere below (loaders, actions, session helpers) reaches the same scope through
 * AsyncLocalStorage, so a value looked up once — the signed-in user — is shared by the root loader and the route
 * loader without either knowing about the other. Outside a request (scripts, the worker, unit tests) there is no
 * scope and every lookup simply runs.
 */
export type RequestScope = {
  /** Memoised lookups of this request, by key (e.g. the session cookie they were made for). */
  memo: Map<string, Promise<unknown>>
  /**
   * Issue 20: the request id (the client's valid X-Request-Id, or a new one), on every log line of the request, on
   * the jobs it enqueues and on its error reports.
   */
  requestId: string
  /** The signed-in user once looked up (for error reports). */
  userId?: string
}

declare global {
  var __rankwellRequestStorage: AsyncLocalStorage<RequestScope> | undefined
}

// On globalThis: server.ts and the Remix server build each load this module and must share one storage.
globalThis.__rankwellRequestStorage ??= new AsyncLocalStorage<RequestScope>()
const storage = globalThis.__rankwellRequestStorage

const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/

/** A client-supplied request id when it is sane (8–128 of letters, digits and `._:-`), otherwise a new one. */
export function requestIdFrom(header: string | undefined | null): string {
  return header && REQUEST_ID.test(header) ? header : crypto.randomUUID()
}

export function newRequestScope(requestId: string = crypto.randomUUID()): RequestScope {
  return { memo: new Map(), requestId }
}

/** The id of the current request (or of the request that enqueued the current job), if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId
}

/** Runs `fn` (and everything it starts) inside `scope`. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn)
}

export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore()
}

/**
 * `compute()` once per request and key; later calls in the same request share its promise. A rejected lookup is
 * forgotten, so a retry within the request runs again.
 */
export function memoizeInRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const scope = storage.getStore()
  if (!scope) return compute()
  const hit = scope.memo.get(key) as Promise<T> | undefined
  if (hit) return hit
  const promise = compute()
  scope.memo.set(key, promise)
  promise.catch(() => scope.memo.delete(key))
  return promise
}

/** Forgets the request's memoised lookups (after a write that changes them: sign-in, sign-out, profile update). */
export function forgetRequestMemo(prefix = '') {
  const scope = storage.getStore()
  if (!scope) return
  for (const key of [...scope.memo.keys()]) if (key.startsWith(prefix)) scope.memo.delete(key)
}
