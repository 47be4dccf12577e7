import { isRetryableStatus, retryAfterMs } from '#app/platform/http/http-retry'
import { fetchJson, withRetries, type Outcome } from './http.server'

/**
 * One DataForSEO v3 live task (issue 36): the POST of a one-task array with Basic authentication, and the envelope
 * read as DataForSEO answers it — the HTTP status, the envelope's status_code, then the task's own status_code —
 * through the bounded retries of ./http.server.ts. Resolves to the task's `result` array ([] when it is null);
 * throws KeywordProviderError otherwise. Rate limits (40202) and DataForSEO's internal errors (5xxxx) are tried again.
 * Every DataForSEO call goes through it: keyword ideas (./dataforseo.server.ts), the Labs domain calls
 * (./dataforseo-domains.server.ts), the SERP and the Backlinks ranks (../serp.server.ts).
 */
export type DataForSeoConfig = { apiUrl: string; login: string; password: string }

type Envelope = {
  status_code?: number
  status_message?: string
  tasks?: Array<{ status_code?: number; status_message?: string; result?: unknown[] | null }> | null
}

/** Task and envelope codes worth another try: rate limits and DataForSEO's internal errors. */
export const retryableDataForSeoCode = (code: number) => code === 40202 || (code >= 50000 && code < 60000)

export function dataForSeoLiveTask(config: DataForSeoConfig) {
  const base = config.apiUrl.replace(/\/+$/, '')
  const auth = `Basic ${Buffer.from(`${config.login}:${config.password}`).toString('base64')}`
  return function liveTask(
    path: string,
    task: Record<string, unknown>,
    opts?: { maxAttempts?: number; budgetMs?: number; attemptTimeoutMs?: number },
  ): Promise<unknown[]> {
    return withRetries(
      'dataforseo',
      async (signal): Promise<Outcome<unknown[]>> => {
        const res = await fetchJson(
          `${base}/${path.replace(/^\/+/, '')}`,
          {
            method: 'POST',
            headers: { Authorization: auth, 'Content-Type': 'application/json' },
            body: JSON.stringify([task]),
          },
          signal,
        )
        const env = (res.body && typeof res.body === 'object' ? res.body : {}) as Envelope
        if (res.status < 200 || res.status >= 300) {
          return {
            ok: false,
            retryable: isRetryableStatus(res.status),
            status: res.status,
            retryAfterMs: retryAfterMs(res.headers),
            message: `HTTP ${res.status} ${typeof env.status_message === 'string' ? env.status_message : ''}`.trim(),
          }
        }
        // A proxy's page instead of JSON, with a success status: a passing fault, worth another try.
        if (!res.body || typeof res.body !== 'object')
          return { ok: false, retryable: true, message: 'the answer is not JSON' }
        if (env.status_code !== 20000) {
          const code = typeof env.status_code === 'number' ? env.status_code : 0
          return {
            ok: false,
            retryable: retryableDataForSeoCode(code),
            status: res.status,
            message: `${code} ${env.status_message ?? 'unexpected answer'}`,
          }
        }
        const t = Array.isArray(env.tasks) ? env.tasks[0] : undefined
        if (!t) return { ok: false, retryable: false, message: 'the answer has no task' }
        if (t.status_code !== 20000) {
          const code = t.status_code ?? 0
          return {
            ok: false,
            retryable: retryableDataForSeoCode(code),
            message: `task ${code} ${t.status_message ?? ''}`.trim(),
          }
        }
        return { ok: true, value: Array.isArray(t.result) ? t.result : [] }
      },
      opts,
    )
  }
}
