import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ClientActionFunctionArgs, ClientLoaderFunctionArgs, ShouldRevalidateFunctionArgs } from '@remix-run/react'
// Remix's own data layer (the `?_data` requests of @remix-run/react 2): what a page's `serverAction()` and
// `serverLoader()` make of the answer the browser got, or of the fetch that never got one.
import { fetchData, isCatchResponse, isRedirectResponse } from '@remix-run/react/dist/data.js'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  guardServerLoader,
  isClientFailure,
  revalidateLayout,
  revalidateUnlessFailed,
  withoutFailure,
  type ClientFailure,
} from './client-failure'

/**
 * The guard's three failure modes (issue 12): the connection dropped (fetch rejects), the server crashed (a 500 that
 * is not the app's answer), a proxy answered with its own HTML page (502). The browser tests (failures.spec.ts) break
 * each form in one of them, in turn; here every mode goes through the guard of an action and of a loader.
 */
const URL_ = 'http://rankwell.test/settings/content'
const ROUTE_ID = 'routes/settings.content'

type Mode = 'network' | '500' | '502'
const MODES: Mode[] = ['network', '500', '502']

/** What the browser's fetch does in each mode (as failures.spec.ts makes Chromium do it). */
function failingFetch(mode: Mode) {
  if (mode === 'network') return vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')))
  if (mode === '500')
    return vi.fn(
      async () => new Response('Internal Server Error', { status: 500, headers: { 'Content-Type': 'text/plain' } }),
    )
  return vi.fn(
    async () =>
      new Response('<html><body>Bad gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
  )
}

/**
 * `serverAction()` / `serverLoader()` as @remix-run/react 2 builds them (dist/routes.js: fetchServerHandler, then
 * unwrapServerResponse): the `?_data` request, an error it reports thrown, redirects and the app's thrown responses
 * thrown, the app's answer unwrapped.
 */
async function remixServerCall(request: Request): Promise<never> {
  const result = await fetchData(request, ROUTE_ID)
  if (result instanceof Error) throw result
  if (isRedirectResponse(result))
    throw new Response(null, { status: 302, headers: { Location: result.headers.get('X-Remix-Redirect')! } })
  if (isCatchResponse(result)) throw result
  const type = result.headers.get('Content-Type') ?? ''
  return (/\bapplication\/json\b/.test(type) ? result.json() : result.text()) as Promise<never>
}

function submission(fields: Record<string, string | Blob>, init: { signal?: AbortSignal } = {}) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  return new Request(URL_, { method: 'POST', body: form, signal: init.signal })
}

function actionArgs(request: Request) {
  return {
    request,
    params: {},
    serverAction: () => remixServerCall(request),
  } as unknown as ClientActionFunctionArgs
}

function loaderArgs(request: Request) {
  return {
    request,
    params: {},
    serverLoader: () => remixServerCall(request),
  } as unknown as ClientLoaderFunctionArgs
}

const FIELDS = {
  intent: 'save',
  valueProposition: 'Typed value proposition',
  tone: 'expert',
  currentPassword: 'never-kept',
}

beforeEach(() => {
  // fetchData reads window.__remixRevalidation (a revalidation's network errors are retried).
  vi.stubGlobal('window', {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('guardServerAction: a submission whose request never got the app’s answer', () => {
  for (const mode of MODES) {
    it(`${mode}: becomes a ClientFailure with the typed text (no password) instead of throwing`, async () => {
      vi.stubGlobal('fetch', failingFetch(mode))
      const answer = await guardServerAction(actionArgs(submission(FIELDS)))
      expect(isClientFailure(answer)).toBe(true)
      const failure = answer as ClientFailure
      expect(failure).toEqual({
        clientFailure: true,
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        reason: mode === 'network' ? 'network' : 'server',
        message: null,
        values: { intent: 'save', valueProposition: 'Typed value proposition', tone: 'expert' },
        intent: 'save',
      })
      // The page shows its own message for the action (none of these answers carries one).
      expect(failureMessage(failure, 'Failed to save content settings.')).toBe('Failed to save content settings.')
      expect(clientFailureOf(answer)).toBe(answer)
      expect(withoutFailure(answer)).toBeUndefined()
      // The request went out once, as the `?_data` request of the route.
      const [url] = vi.mocked(fetch).mock.calls[0]!
      expect(new URL(String(url)).searchParams.get('_data')).toBe(ROUTE_ID)
    })
  }

  it('the three modes differ in the reason alone: the page renders the same from each', async () => {
    const failures: ClientFailure[] = []
    for (const mode of MODES) {
      vi.stubGlobal('fetch', failingFetch(mode))
      failures.push((await guardServerAction(actionArgs(submission(FIELDS)))) as ClientFailure)
    }
    const [a, b, c] = failures.map(({ id: _id, reason: _reason, ...rest }) => rest)
    expect(b).toEqual(a)
    expect(c).toEqual(a)
    expect(new Set(failures.map((f) => f.id)).size).toBe(3)
  })

  it('a failed answer that carries a JSON message keeps that message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"message":"Profiles are read-only."}', {
            status: 503,
            headers: { 'Content-Type': 'application/json' },
          }),
      ),
    )
    const failure = (await guardServerAction(actionArgs(submission(FIELDS)))) as ClientFailure
    expect(failure).toMatchObject({ reason: 'server', message: 'Profiles are read-only.' })
    expect(failureMessage(failure, 'Failed to update profile.')).toBe('Profiles are read-only.')
  })

  it('keeps text fields only: files and passwords are not kept, the first of repeated names wins', async () => {
    vi.stubGlobal('fetch', failingFetch('network'))
    const form = new FormData()
    form.append('tag', 'first')
    form.append('tag', 'second')
    form.append('newPassword', 'secret-secret')
    form.append('upload', new Blob(['x']), 'x.txt')
    const request = new Request(URL_, { method: 'POST', body: form })
    const failure = (await guardServerAction(actionArgs(request))) as ClientFailure
    expect(failure.values).toEqual({ tag: 'first' })
    expect(failure.intent).toBeNull()
  })

  it('the app’s own answers pass through: data, a 400 with field errors', async () => {
    for (const [status, body] of [
      [200, { ok: true }],
      [400, { errors: { ctaUrl: ['Please enter a valid URL.'] } }],
    ] as const) {
      vi.stubGlobal(
        'fetch',
        vi.fn(
          async () =>
            new Response(JSON.stringify(body), {
              status,
              headers: { 'Content-Type': 'application/json', 'X-Remix-Response': 'yes' },
            }),
        ),
      )
      expect(await guardServerAction(actionArgs(submission(FIELDS)))).toEqual(body)
    }
    expect(console.error).not.toHaveBeenCalled()
  })

  it('redirects and the app’s thrown 4xx responses are thrown on, for Remix to follow', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204, headers: { 'X-Remix-Redirect': '/keywords' } })),
    )
    const redirect = await guardServerAction(actionArgs(submission(FIELDS))).catch((e: unknown) => e)
    expect(redirect).toBeInstanceOf(Response)
    expect((redirect as Response).headers.get('Location')).toBe('/keywords')

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Not Found', { status: 404, headers: { 'X-Remix-Catch': 'yes' } })),
    )
    const thrown = await guardServerAction(actionArgs(submission(FIELDS))).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(404)
  })

  it('a submission the router aborted (a newer navigation) is not reported', async () => {
    const controller = new AbortController()
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        controller.abort()
        throw new DOMException('The operation was aborted.', 'AbortError')
      }),
    )
    await expect(guardServerAction(actionArgs(submission(FIELDS, controller)))).rejects.toThrow(/aborted/)
    expect(console.error).not.toHaveBeenCalled()
  })
})

describe('guardServerLoader: a refresh of the page’s data that failed', () => {
  for (const mode of MODES) {
    it(`${mode}: becomes a ClientFailure (no values) instead of throwing`, async () => {
      vi.stubGlobal('fetch', failingFetch(mode))
      const answer = await guardServerLoader(loaderArgs(new Request(URL_)))
      expect(answer).toEqual({
        clientFailure: true,
        id: expect.any(String),
        reason: mode === 'network' ? 'network' : 'server',
        message: null,
        values: {},
        intent: null,
      })
    })
  }

  it('network, during a revalidation: Remix retries three times, then the failure is reported', async () => {
    vi.useFakeTimers()
    try {
      vi.stubGlobal('window', { __remixRevalidation: 1 })
      vi.stubGlobal('fetch', failingFetch('network'))
      const pending = guardServerLoader(loaderArgs(new Request(URL_)))
      await vi.runAllTimersAsync()
      expect(await pending).toMatchObject({ clientFailure: true, reason: 'network' })
      expect(fetch).toHaveBeenCalledTimes(4)
    } finally {
      vi.useRealTimers()
    }
  })

  it('the app’s data passes through', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"runs":[]}', {
            status: 200,
            headers: { 'Content-Type': 'application/json', 'X-Remix-Response': 'yes' },
          }),
      ),
    )
    expect(await guardServerLoader(loaderArgs(new Request(URL_)))).toEqual({ runs: [] })
  })
})

describe('revalidation after a failure', () => {
  const failure: ClientFailure = {
    clientFailure: true,
    id: 'x',
    reason: 'network',
    message: null,
    values: {},
    intent: null,
  }
  const args = (over: Partial<ShouldRevalidateFunctionArgs>) =>
    ({
      currentUrl: new URL('http://rankwell.test/autopilot'),
      nextUrl: new URL('http://rankwell.test/autopilot'),
      defaultShouldRevalidate: true,
      ...over,
    }) as ShouldRevalidateFunctionArgs

  it('nothing reloads after a failed submission; otherwise the default', () => {
    expect(revalidateUnlessFailed(args({ formMethod: 'POST', actionResult: failure }))).toBe(false)
    expect(revalidateUnlessFailed(args({ formMethod: 'POST', actionResult: { ok: true } }))).toBe(true)
    expect(revalidateUnlessFailed(args({ defaultShouldRevalidate: false }))).toBe(false)
  })

  it('the layout does not reload for a refresh of the same address, nor after a failure', () => {
    expect(revalidateLayout(args({}))).toBe(false)
    expect(revalidateLayout(args({ formMethod: 'POST', actionResult: failure }))).toBe(false)
    expect(revalidateLayout(args({ formMethod: 'POST', actionResult: { ok: true } }))).toBe(true)
    expect(revalidateLayout(args({ nextUrl: new URL('http://rankwell.test/keywords') }))).toBe(true)
  })
})
