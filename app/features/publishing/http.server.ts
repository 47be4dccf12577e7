import { getEnv } from '#app/platform/env.server'
import { recordProviderCall } from '#app/platform/observability/metrics.server'
import {
  allowPrivateNetworks,
  BlockedAddressError,
  guardedRequest,
  RequestTimeoutError,
  ResponseTooLargeError,
} from '#app/platform/security/ssrf.server'

/**
 * HTTP for publishing destinations. Every request goes through the SSRF guard (the user supplies the host of a
 * WordPress or Ghost site; Webflow's API address comes from the environment), follows no redirect, has a time limit
 * and a size cap, and every failure becomes a PublishError: one sentence the user can act on, and whether trying
 * again later can help.
 */

export type PublishErrorKind =
  | 'auth'
  | 'permission'
  | 'not_found'
  | 'not_platform'
  | 'redirect'
  | 'blocked'
  | 'tls'
  | 'network'
  | 'timeout'
  | 'server'
  | 'rejected'
  | 'missing'

export class PublishError extends Error {
  constructor(
    message: string,
    readonly kind: PublishErrorKind,
    readonly retryable: boolean,
  ) {
    super(message)
    this.name = 'PublishError'
  }
}

/** Time spent waiting for remotes, so that the bench can tell our own overhead from the remote's latency. */
export type HttpStats = { calls: number; ms: number }

export type HttpResponse = { status: number; headers: Record<string, string | string[] | undefined>; text: string }

export type Http = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; json?: unknown; body?: Buffer },
) => Promise<HttpResponse>

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
])

/** Turns a thrown network error into one sentence for the user. */
export function networkFailure(error: unknown, host: string): PublishError {
  if (error instanceof PublishError) return error
  if (error instanceof BlockedAddressError)
    return new PublishError(
      `Rankwell only connects to public addresses, and ${host} is not one (a private or internal address).`,
      'blocked',
      false,
    )
  if (error instanceof RequestTimeoutError)
    return new PublishError(`${host} did not answer in time. Rankwell will try again.`, 'timeout', true)
  if (error instanceof ResponseTooLargeError)
    return new PublishError(`${host} sent an unexpectedly large answer.`, 'server', false)
  const code = String((error as { code?: unknown })?.code ?? '')
  if (TLS_CODES.has(code) || /certificate|SSL routines|wrong version number/i.test(String((error as Error)?.message)))
    return new PublishError(
      `The secure connection to ${host} failed: its TLS certificate could not be verified (expired, self-signed or issued for another name), or it does not speak https.`,
      'tls',
      false,
    )
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new PublishError(`${host} could not be found. Check the address.`, 'network', code === 'EAI_AGAIN')
  if (code === 'ECONNREFUSED')
    return new PublishError(`${host} refused the connection. Is the site up?`, 'network', true)
  return new PublishError(`Could not reach ${host} (${code || 'network error'}).`, 'network', true)
}

export function createHttp(opts: { stats?: HttpStats; timeoutMs?: number; maxBytes?: number } = {}): Http {
  const env = getEnv()
  return async (url, init = {}) => {
    const host = safeHost(url)
    const started = performance.now()
    try {
      const headers: Record<string, string> = { 'User-Agent': 'Rankwell-Publisher/1.0 (+https://rankwell.app)' }
      if (init.json !== undefined) headers['Content-Type'] = 'application/json'
      Object.assign(headers, init.headers)
      const res = await guardedRequest(url, {
        method: init.method ?? 'GET',
        headers,
        // `body`: raw bytes (an image upload) with the Content-Type the caller set.
        body: init.json === undefined ? init.body : JSON.stringify(init.json),
        timeoutMs: opts.timeoutMs ?? env.WEBHOOK_TIMEOUT_MS,
        maxBytes: opts.maxBytes ?? 2 * 1024 * 1024,
        allowPrivate: allowPrivateNetworks('cms', env),
      })
      recordProviderCall('cms', (performance.now() - started) / 1000, res.status >= 500 || res.status === 429)
      if (res.truncated) throw new ResponseTooLargeError(opts.maxBytes ?? 2 * 1024 * 1024)
      return { status: res.status, headers: res.headers, text: res.body }
    } catch (error) {
      if (!(error instanceof ResponseTooLargeError))
        recordProviderCall('cms', (performance.now() - started) / 1000, true)
      throw networkFailure(error, host)
    } finally {
      if (opts.stats) {
        opts.stats.calls++
        opts.stats.ms += performance.now() - started
      }
    }
  }
}

export function safeHost(url: string) {
  try {
    return new URL(url).host
  } catch {
    return 'the site'
  }
}

export function parseJson(res: HttpResponse): unknown {
  try {
    return JSON.parse(res.text)
  } catch {
    return undefined
  }
}

export function header(res: HttpResponse, name: string): string | undefined {
  const value = res.headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * The common meaning of a failed status. `platform` names the service in messages; `auth` is the sentence for a
 * 401 (each platform names its own credentials).
 */
export function statusFailure(res: HttpResponse, url: string, platform: string, auth: string): PublishError {
  const host = safeHost(url)
  if (res.status >= 300 && res.status < 400) {
    const location = header(res, 'location')
    let target = ''
    try {
      target = location ? new URL(location, url).host : ''
    } catch {
      target = ''
    }
    return target && target !== host
      ? new PublishError(
          `${host} redirects to another host (${target}). Enter the address it redirects to.`,
          'redirect',
          false,
        )
      : new PublishError(
          `${host} answered with a redirect${location ? ` to ${location}` : ''}. Enter the final address of the site.`,
          'redirect',
          false,
        )
  }
  if (res.status === 401) return new PublishError(auth, 'auth', false)
  if (res.status === 403)
    return new PublishError(`${platform} refused: these credentials may not publish posts.`, 'permission', false)
  if (res.status === 404) return new PublishError(`${platform} answered 404 Not Found.`, 'not_found', false)
  if (res.status === 408 || res.status === 425 || res.status === 429 || res.status >= 500)
    return new PublishError(`${platform} had a problem (HTTP ${res.status}). Rankwell will try again.`, 'server', true)
  const detail = remoteMessage(res)
  return new PublishError(
    `${platform} refused the post (HTTP ${res.status}${detail ? `: ${detail}` : ''}).`,
    'rejected',
    false,
  )
}

/** The remote's own error message, if it sent one in a common JSON shape (trimmed to one short line). */
function remoteMessage(res: HttpResponse): string {
  const body = parseJson(res) as Record<string, unknown> | undefined
  if (!body || typeof body !== 'object') return ''
  const errors = body.errors as Array<{ message?: unknown }> | undefined
  const candidates = [body.message, Array.isArray(errors) ? errors[0]?.message : undefined, body.msg]
  const text = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '') ?? ''
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
}
