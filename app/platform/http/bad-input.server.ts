import { json } from '@remix-run/node'

/**
 * The safety net under every loader and action (wrapped by `guardBuild` in outage.server.ts, used by server.ts):
 * when Postgres refuses a value because of what it is (an id that is not a UUID, a NUL byte, a number or date out of
 * range, a string longer than its column, more parameters than a statement takes), the request carried malformed
 * input that slipped past the route's own validation. It is answered as bad input, never as a 500: a loader's URL
 * names nothing that exists (404 'Not found.', the site's not-found page), an action's body is refused (400 with a
 * message). One warning line is logged so that the route can be given its own check (ids: `isUuid` in app/lib/ids.ts;
 * text: the schemas of app/lib/safe-text.ts).
 */

/** SQLSTATE class 22 (data exception: invalid text representation, NUL bytes, out of range, too long) and 54000. */
const BAD_INPUT_SQLSTATE = /^(22[0-9A-Z]{3}|54000)$/
/** The postgres driver's own refusal of a statement with more than 65534 parameters. */
const BAD_INPUT_CLIENT_CODES = new Set(['MAX_PARAMETERS_EXCEEDED'])

export const BAD_INPUT_MESSAGES = {
  notFound: 'Not found.',
  invalid: 'Some of what was sent is not valid. Please check it and try again.',
} as const

type ErrorLike = { name?: unknown; code?: unknown; message?: unknown; cause?: unknown }

/** The Postgres refusal in the error or its `cause` chain (drizzle wraps the driver's error), or null. */
export function badInputError(error: unknown): { code: string; message: string } | null {
  let next: unknown = error
  for (let depth = 0; depth < 10 && next && typeof next === 'object' && !(next instanceof Response); depth++) {
    const e = next as ErrorLike
    const code = typeof e.code === 'string' ? e.code : ''
    if ((e.name === 'PostgresError' && BAD_INPUT_SQLSTATE.test(code)) || BAD_INPUT_CLIENT_CODES.has(code))
      return { code, message: typeof e.message === 'string' ? e.message : '' }
    next = e.cause
  }
  return null
}

/** The answer for bad input that reached SQL: 404 from a loader, 400 from an action (JSON `{message}`). */
export function badInputResponse(kind: 'loader' | 'action') {
  return kind === 'loader'
    ? json({ message: BAD_INPUT_MESSAGES.notFound }, { status: 404, headers: { 'Cache-Control': 'no-store' } })
    : json({ message: BAD_INPUT_MESSAGES.invalid }, { status: 400, headers: { 'Cache-Control': 'no-store' } })
}

export function logBadInput(request: Request, refusal: { code: string; message: string }) {
  const { pathname } = new URL(request.url)
  console.warn(`[bad-input] ${request.method} ${pathname}: Postgres ${refusal.code} ${refusal.message}`.slice(0, 500))
}
