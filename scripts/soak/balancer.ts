// The balancer: what Fly's proxy does for the soak's clients. It checks /healthz of each web process every 250 ms
// and sends a request to the next healthy one (any, when none looks healthy). A connection that is refused never
// reached the app, so it is tried on the other process; anything else is the app's answer.
import { now, sleep, within, type Proc } from './processes'

/** `cut`: the process serving the request was SIGKILLed while it ran (nothing can answer that request). */
export type Outcome = { status: number; retryAfter: boolean; ms: number; error?: string; body?: unknown; cut?: boolean }

export type Balancer = ReturnType<typeof balancer>

export function balancer(webs: Proc[]) {
  const healthy = new Map<Proc, boolean>(webs.map((w) => [w, true]))
  let next = 0
  let running = true
  const checker = (async () => {
    while (running) {
      await Promise.all(
        webs.map(async (w) => {
          const check = async () => {
            const res = await fetch(`${w.url}/healthz`, { signal: AbortSignal.timeout(2_000) })
            const body = (await res.json().catch(() => ({}))) as { status?: string }
            // Out of rotation only while draining (or not answering): a 503 because Postgres or Redis is down is
            // still the best answer any process can give.
            return body.status !== 'draining'
          }
          healthy.set(w, (await within(check(), 3_000).catch(() => false)) ?? false)
        }),
      )
      await sleep(250)
    }
  })()

  async function request(pathname: string, init: RequestInit = {}): Promise<Outcome> {
    const started = now()
    const up = webs.filter((w) => healthy.get(w))
    const order = up.length ? up : webs
    const first = next++ % order.length
    const candidates = [...order.slice(first), ...order.slice(0, first), ...webs.filter((w) => !order.includes(w))]
    let lastError = ''
    let cut = false
    // Like a proxy: a request that never reached a process (connection refused) goes to the next one, and so does
    // an idempotent one (GET, or a POST with an Idempotency-Key) whose connection was cut.
    const idempotent = !init.method || init.method === 'GET' || new Headers(init.headers).has('Idempotency-Key')
    for (const web of candidates) {
      const sent = now()
      try {
        const headers = new Headers(init.headers)
        if (init.method && init.method !== 'GET') headers.set('Origin', web.url!)
        const res = await fetch(`${web.url}${pathname}`, {
          ...init,
          headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(20_000),
        })
        const text = await res.text()
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          /* a page */
        }
        return { status: res.status, retryAfter: Boolean(res.headers.get('retry-after')), ms: now() - started, body }
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name
        lastError = cause
        // Sent to a process that was already dead (a kept-alive connection of the killed one, before the health
        // check noticed): it never reached the app, like a refused connection.
        const neverReached = cause === 'ECONNREFUSED' || (web.downSince !== undefined && sent >= web.downSince)
        cut = !neverReached && web.killedAt !== undefined && web.killedAt >= sent - 100
        if (!neverReached && !(cut && idempotent)) break
      }
    }
    return { status: 0, retryAfter: false, ms: now() - started, error: lastError, cut }
  }

  return {
    request,
    healthyCount: () => webs.filter((w) => healthy.get(w)).length,
    stop: async () => {
      running = false
      await within(checker, 5_000)
    },
  }
}
