import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { smtpMessages, waitForSmtpMessage } from '#tests/fakes/client'
import { appUrl, createTestUser, uniqueEmail, uniqueIp } from '#tests/setup/app'

/**
 * Issue 34 (6): 'Forgot password' answers in the same time for a known and an unknown address, compared as
 * distributions over interleaved requests (each from a client of its own, so the per-client limit never interferes),
 * not as a pair. It times answers, so it runs after the parallel files, alone (vitest.integration.config.ts SERIAL).
 */

/** One 'forgot password' request from a client of its own; its status and how long the answer took (ms). */
async function forgot(email: string) {
  const started = performance.now()
  const res = await fetch(`${appUrl()}/api/password/forgot`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp() },
    body: JSON.stringify({ email }),
  })
  const body = await res.text()
  return { status: res.status, body, ms: performance.now() - started }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!
}

/** Mann-Whitney U's z score (normal approximation, ties given their average rank): |z| > 3.29 is p < 0.001. */
function mannWhitneyZ(a: number[], b: number[]) {
  const all = [...a.map((v) => ({ v, inA: true })), ...b.map((v) => ({ v, inA: false }))].sort((x, y) => x.v - y.v)
  let rankSumA = 0
  for (let i = 0; i < all.length;) {
    let j = i
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++
    const rank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) if (all[k]!.inA) rankSumA += rank
    i = j + 1
  }
  const [n1, n2] = [a.length, b.length]
  const u = rankSumA - (n1 * (n1 + 1)) / 2
  return (u - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12)
}

function shuffle<T>(xs: T[]) {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = crypto.randomInt(0, i + 1)
    ;[xs[i], xs[j]] = [xs[j]!, xs[i]!]
  }
  return xs
}

describe('forgot password timing (issue 34)', () => {
  it('answers known and unknown addresses in indistinguishable times, and still e-mails the known ones', async () => {
    const N = 40
    const known = await Promise.all(Array.from({ length: N }, () => createTestUser()))
    const unknown = Array.from({ length: N }, () => uniqueEmail('nobody'))
    // Warm-up (connections, the queue's first use, the JIT), not measured.
    for (let i = 0; i < 4; i++) {
      await forgot(uniqueEmail('warm'))
      await forgot((await createTestUser()).email)
    }

    const order = shuffle([
      ...known.map((u) => ({ kind: 'known' as const, email: u.email })),
      ...unknown.map((email) => ({ kind: 'unknown' as const, email })),
    ])
    const times = { known: [] as number[], unknown: [] as number[] }
    const bodies = new Set<string>()
    for (const { kind, email } of order) {
      const { status, body, ms } = await forgot(email)
      expect(status).toBe(200)
      bodies.add(body)
      times[kind].push(ms)
    }
    expect(bodies.size).toBe(1)

    const figures = Object.fromEntries(
      (['known', 'unknown'] as const).map((k) => [
        k,
        {
          median: +median(times[k]).toFixed(2),
          p25: +quantile(times[k], 0.25).toFixed(2),
          p75: +quantile(times[k], 0.75).toFixed(2),
          min: +Math.min(...times[k]).toFixed(2),
          max: +Math.max(...times[k]).toFixed(2),
        },
      ]),
    ) as Record<'known' | 'unknown', { median: number; p25: number; p75: number; min: number; max: number }>
    const z = mannWhitneyZ(times.known, times.unknown)
    console.log(`[forgot-password timing] n=${N}+${N} ms`, JSON.stringify(figures), `Mann-Whitney z=${z.toFixed(2)}`)

    // The same distribution: no significant shift (p ≥ 0.001), medians within 25 % (or 3 ms), and the middle halves
    // overlapping.
    expect(Math.abs(z)).toBeLessThan(3.29)
    const { known: k, unknown: u } = figures
    expect(Math.abs(k.median - u.median)).toBeLessThanOrEqual(Math.max(3, 0.25 * Math.min(k.median, u.median)))
    expect(k.p25).toBeLessThanOrEqual(u.p75)
    expect(u.p25).toBeLessThanOrEqual(k.p75)

    // The e-mails still go, from the worker: every known address gets its link, no unknown address gets anything.
    for (const user of known) {
      const message = await waitForSmtpMessage({ to: user.email, timeoutMs: 60_000 })
      expect(message.subject).toBe('Reset your Rankwell password')
      expect(message.text).toContain(`${appUrl()}/reset-password?token=`)
    }
    for (const email of unknown) expect(await smtpMessages(email)).toHaveLength(0)
  })
})
