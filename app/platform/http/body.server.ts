import { json } from '@remix-run/node'

/**
 * The one place request bodies are read. Every action and /api route reads its body through `readForm`,
 * `readJson` or `readText` (an ESLint rule forbids `request.formData()`, `.json()` and `.text()` elsewhere), so that:
 * - a body over its route's limit answers 413, refused from Content-Length before reading and counted while
 *   streaming (chunked bodies), so a huge upload never sits in memory;
 * - a body that cannot be parsed (malformed multipart, broken JSON, a content type the route does not read) answers
 *   400 instead of throwing a 500.
 * The refusals are thrown Responses with JSON `{ message }`: /api clients get them as they are, pages show the
 * message in the root error boundary.
 */

const KB = 1024
const MB = 1024 * KB

/** Each route's body limit; everything else takes the default. server.ts applies the same table to Content-Length. */
export const BODY_LIMITS = {
  default: 1 * MB,
  byPath: [
    { path: '/api/stripe/webhook', limit: 512 * KB },
    { path: '/api/events', limit: 16 * KB },
  ],
  /** Issue 33: the editor's image upload (multipart, one image of at most 10 MB and a few fields). */
  byPattern: [{ pattern: /^\/blogpost\/[^/]+\/images(?:\.data)?$/, limit: 10 * MB + 64 * KB }],
} as const

export function bodyLimitFor(pathname: string): number {
  return (
    BODY_LIMITS.byPath.find((p) => pathname === p.path || pathname === `${p.path}.data`)?.limit ??
    BODY_LIMITS.byPattern.find((p) => p.pattern.test(pathname))?.limit ??
    BODY_LIMITS.default
  )
}

export const BODY_MESSAGES = {
  tooLarge: 'The request is too large.',
  badJson: 'The request body must be valid JSON.',
  badForm: 'The form could not be read. Please reload the page and try again.',
} as const

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message)
  }
}

/**
 * A refusal as the thrown Response of an action (JSON `{ message }`). After a 413 the rest of the body is not read:
 * server.ts ends the connection with a lingering close (app/server/http/linger.server.ts).
 */
export function bodyErrorResponse(error: BodyError) {
  return json({ message: error.message }, { status: error.status })
}

type ReadOptions = { limit?: number }

const limitOf = (request: Request, opts: ReadOptions) => opts.limit ?? bodyLimitFor(new URL(request.url).pathname)

/** The raw bytes of the body, at most `limit` of them; BodyError(413) as soon as Content-Length or the stream exceeds it. */
export async function readBytes(request: Request, opts: ReadOptions = {}): Promise<Uint8Array> {
  const limit = limitOf(request, opts)
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (Number.isFinite(declared) && declared > limit) throw new BodyError(413, BODY_MESSAGES.tooLarge)
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) {
        // Stop reading, but do not cancel: cancelling destroys the request's socket before the 413 can be sent.
        reader.releaseLock()
        throw new BodyError(413, BODY_MESSAGES.tooLarge)
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof BodyError) throw error
    // The client went away mid-body: nothing to answer, but never a 500 in the logs.
    throw new BodyError(400, BODY_MESSAGES.badForm)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** Runs a reader and turns its BodyError into the thrown 400/413 Response. */
async function refuseAsResponse<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof BodyError) throw bodyErrorResponse(error)
    throw error
  }
}

/** The body as UTF-8 text (signed webhooks verify the raw text). */
export async function readText(request: Request, opts: ReadOptions = {}): Promise<string> {
  return refuseAsResponse(async () => new TextDecoder().decode(await readBytes(request, opts)))
}

/** The body parsed as JSON (an empty body is `{}`); 400 `{ message }` for broken JSON. */
export async function readJson(request: Request, opts: ReadOptions = {}): Promise<unknown> {
  return refuseAsResponse(async () => {
    const text = new TextDecoder().decode(await readBytes(request, opts))
    if (!text.trim()) return {}
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw new BodyError(400, BODY_MESSAGES.badJson)
    }
  })
}

/**
 * The body of a form post (urlencoded or multipart). 400 for a body that is not a well-formed form of either
 * kind, whatever its declared content type.
 */
export async function readForm(request: Request, opts: ReadOptions = {}): Promise<FormData> {
  return refuseAsResponse(async () => {
    const bytes = await readBytes(request, opts)
    const type = request.headers.get('content-type') ?? ''
    if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type) && bytes.byteLength > 0)
      throw new BodyError(400, BODY_MESSAGES.badForm)
    try {
      return await new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: { 'Content-Type': type || 'application/x-www-form-urlencoded' },
      }).formData()
    } catch {
      throw new BodyError(400, BODY_MESSAGES.badForm)
    }
  })
}
