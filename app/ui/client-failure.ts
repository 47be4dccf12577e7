import type { SerializeFrom } from '@remix-run/node'
import {
  useLoaderData,
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from '@remix-run/react'
import { useRef } from 'react'

/**
 * Failures of requests made by JavaScript (fetchers, `<Form>` submissions, revalidations) that never got the app's
 * own answer: the connection dropped, the server crashed (500), or a proxy answered with its own HTML page (502).
 * Left alone, Remix throws these into the error boundary and the whole screen becomes 'Unexpected Application
 * Error!'. A route opts in with one line each (see decision record 0120):
 *
 *   export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
 *   export const shouldRevalidate = revalidateUnlessFailed
 *
 * and the page then finds a `ClientFailure` in its action data (`useActionData`, `fetcher.data`) where the
 * server's answer would have been, and shows the spec's message for that action. The page is not replaced, so the
 * user's input stays in the form. Redirects and the app's own deliberate answers (4xx, thrown responses) pass
 * through unchanged. Without JavaScript none of this runs: the forms post to the server as before.
 */
export type ClientFailure = {
  clientFailure: true
  /** A new id per failure, so a dialog or toast shows again on a second failure. */
  id: string
  /** 'network': no answer at all; 'server': an answer that is not the app's (5xx, a proxy's error page). */
  reason: 'network' | 'server'
  /** The `message` of a JSON body `{message}` in the failed answer, if it had one (shown where the spec says so). */
  message: string | null
  /** The submitted text fields (never passwords or files), so a form that had to re-render can show them again. */
  values: Record<string, string>
  /** The submitted `intent`, when the form had one. */
  intent: string | null
}

export function isClientFailure(value: unknown): value is ClientFailure {
  return typeof value === 'object' && value !== null && (value as { clientFailure?: unknown }).clientFailure === true
}

/** The failure in a piece of action or fetcher data, or null. */
export function clientFailureOf(value: unknown): ClientFailure | null {
  return isClientFailure(value) ? value : null
}

/** The failure's own server message when it carried one, else the spec's message for the action. */
export function failureMessage(failure: ClientFailure, fallback: string) {
  return failure.message ?? fallback
}

/** Data without the failure case: what the page renders from the server's answer. */
export function withoutFailure<T>(value: T | ClientFailure | undefined): T | undefined {
  return isClientFailure(value) ? undefined : value
}

const MAX_MESSAGE = 300

/** The `message` of an error answer whose body was JSON `{message}` (Remix puts the body text in the Error). */
function messageOf(error: unknown): string | null {
  if (!(error instanceof Error)) return null
  try {
    const body: unknown = JSON.parse(error.message)
    const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined
    return typeof message === 'string' && message.trim() ? message.trim().slice(0, MAX_MESSAGE) : null
  } catch {
    return null
  }
}

function isResponse(value: unknown): value is Response {
  return typeof Response !== 'undefined' && value instanceof Response
}

/**
 * Whether an error thrown by `serverAction()`/`serverLoader()` is a failure to report in place: everything except
 * redirects, the app's own thrown 4xx responses, and requests the router itself aborted (a newer navigation).
 */
function isReportable(error: unknown, request: Request) {
  if (request.signal.aborted) return false
  if (isResponse(error)) return error.status >= 500
  return true
}

function textValues(form: FormData | null): Record<string, string> {
  const values: Record<string, string> = {}
  if (!form) return values
  for (const [name, value] of form.entries()) {
    if (typeof value !== 'string' || /password/i.test(name) || name in values) continue
    values[name] = value
  }
  return values
}

function failureOf(error: unknown, form: FormData | null): ClientFailure {
  // fetch() rejects with a TypeError when there was no answer at all (offline, connection reset, aborted by a proxy).
  const reason = error instanceof TypeError ? 'network' : 'server'
  const values = textValues(form)
  return {
    clientFailure: true,
    id: crypto.randomUUID(),
    reason,
    message: reason === 'server' ? messageOf(error) : null,
    values,
    intent: values.intent ?? null,
  }
}

/** A route's `clientAction`: the server action, with failures that never got the app's answer turned into data. */
export async function guardServerAction<A>({
  request,
  serverAction,
}: ClientActionFunctionArgs): Promise<SerializeFrom<A> | ClientFailure> {
  const form = await request
    .clone()
    .formData()
    .catch(() => null)
  try {
    return await serverAction<A>()
  } catch (error) {
    if (!isReportable(error, request)) throw error
    console.error('[client] the submission failed', error)
    return failureOf(error, form)
  }
}

/**
 * A route's `clientLoader` for data the page refreshes while it is open (a revalidation, a Refresh link): a failed
 * refresh becomes a `ClientFailure` that `useKeptLoaderData` turns into the last good data plus the failure.
 */
export async function guardServerLoader<L>({
  request,
  serverLoader,
}: ClientLoaderFunctionArgs): Promise<SerializeFrom<L> | ClientFailure> {
  try {
    return await serverLoader<L>()
  } catch (error) {
    if (!isReportable(error, request)) throw error
    console.error('[client] loading the page data failed', error)
    return failureOf(error, null)
  }
}

/**
 * The loader data of a route with `guardServerLoader`: the last data that did load, and the failure of the latest
 * refresh (or null). A page that never had data (its very first load failed) throws to its error boundary.
 */
export function useKeptLoaderData<T>(): { data: T; failure: ClientFailure | null } {
  const current = useLoaderData() as T | ClientFailure
  const last = useRef<T | null>(null)
  if (!isClientFailure(current)) {
    last.current = current
    return { data: current, failure: null }
  }
  if (last.current === null) throw new Error('The page data could not be loaded.')
  return { data: last.current, failure: current }
}

/**
 * A route's `shouldRevalidate`: after a failed submission nothing is reloaded (the connection is likely still down,
 * and a failed reload would replace the page after all); otherwise the route's own rule or Remix's default.
 */
export function revalidateUnlessFailed(args: ShouldRevalidateFunctionArgs) {
  return isClientFailure(args.actionResult) ? false : args.defaultShouldRevalidate
}

/**
 * The root layout's `shouldRevalidate`. Besides `revalidateUnlessFailed`: a page refreshing its own data at the same
 * address (a Refresh link to the page itself, polling with `revalidator.revalidate()`) does not reload the layout's
 * data (the user, the banners) with it. Such a refresh that fails (the connection dropped, a proxy's page) then fails
 * for the page alone, whose `guardServerLoader` says so and keeps its last data, instead of the layout's failed
 * request replacing the whole screen with the error page. Submissions and the redirects after them (which bring the
 * flash toast) and moves to another address still reload it.
 */
export function revalidateLayout(args: ShouldRevalidateFunctionArgs) {
  if (!args.formMethod && args.currentUrl.href === args.nextUrl.href) return false
  return revalidateUnlessFailed(args)
}
