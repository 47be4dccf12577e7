// Faults and recovery probes. With --chaos, after 5 s, one fault after the other: SIGKILL the worker (restarted),
// SIGKILL a web process (restarted), restart Redis, restart Postgres, the model provider hangs, Stripe's API hangs;
// the schedule starts again while more than 30 s are left, and every fault runs at least once. After each fault a
// probe is polled until the app works end to end again: the time from the fault's end is its recovery.
import crypto from 'node:crypto'
import type { Services } from '../lib/app'
import { log } from '../lib/services'
import type { Balancer } from './balancer'
import type { Fault } from './judge'
import { now, sleep, type Proc, type Supervisor } from './processes'

export type FaultStep = { name: string; run: () => Promise<void>; probe: () => Promise<boolean>; probeName: string }

/**
 * The probes, as a probe user (signed up here): the app works end to end when /healthz is 200 on a web process and
 * the worker runs a job; a free tool answers (the model); a checkout answers (Stripe).
 */
export async function probes(lb: Balancer, runId: string) {
  const probeEmail = `soak-probe-${runId}@example.com`
  const signup = await lb.request('/api/signup', {
    method: 'POST',
    body: JSON.stringify({ name: 'Probe', email: probeEmail, password: 'correct-horse-battery-staple' }),
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.99.0.1' },
  })
  if (signup.status !== 201) throw new Error(`the probe user could not sign up: ${signup.status}`)
  const probeToken = (signup.body as { token: string }).token
  const auth = { Authorization: `Bearer ${probeToken}`, 'X-Forwarded-For': '10.99.0.1' }
  const healthy = async () => {
    const res = await lb.request('/healthz')
    return res.status === 200
  }
  const jobRoundTrip = async () => {
    if (!(await healthy())) return false
    const res = await lb.request('/api/system/ping', { method: 'POST', headers: auth })
    if (res.status !== 202) return false
    const id = (res.body as { id: string }).id
    for (let i = 0; i < 10; i++) {
      const read = await lb.request(`/api/system/ping?id=${id}`, { headers: auth })
      if ((read.body as { processedAt?: string }).processedAt) return true
      await sleep(200)
    }
    return false
  }
  const modelAnswers = async () => {
    const res = await lb.request('/api/public/generate-titles', {
      method: 'POST',
      body: JSON.stringify({ keyword: `probe ${crypto.randomBytes(3).toString('hex')}` }),
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.98.${crypto.randomInt(0, 250)}.1` },
    })
    return res.status === 200
  }
  const stripeAnswers = async () => {
    const res = await lb.request('/api/create-checkout-session', {
      method: 'POST',
      body: JSON.stringify({ priceId: 'price_monthly' }),
      headers: { ...auth, 'Content-Type': 'application/json' },
    })
    return res.status === 200
  }
  return { jobRoundTrip, modelAnswers, stripeAnswers }
}

/** The fault schedule, in order. `hangMs`: how long the model provider and Stripe's API hang. */
export function faultSchedule(opts: {
  services: Services
  webs: Proc[]
  worker: Proc
  supervisor: Supervisor
  probes: Awaited<ReturnType<typeof probes>>
  hangMs: number
}): FaultStep[] {
  const { services, webs, worker, supervisor, hangMs } = opts
  const { jobRoundTrip, modelAnswers, stripeAnswers } = opts.probes
  const fakes = services.fakes.env
  const control = (base: string | undefined, route: string, body: unknown) =>
    fetch(`${base}/__control/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.arrayBuffer())
  const seconds = `${Math.round(hangMs / 1000)} s`
  return [
    {
      name: 'SIGKILL worker (restarted)',
      run: () => supervisor.killAndRestart(worker),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      // Users are served by web-2 meanwhile (the 'requests' columns); the fault ends when web-1 is back.
      name: 'SIGKILL web-1 (restarted)',
      run: () => supervisor.killAndRestart(webs[0]!),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      name: 'restart Redis',
      run: () => services.redis.restart!(),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      name: 'restart Postgres',
      run: () => services.postgres.restart!(),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      name: `model provider hangs ${seconds}`,
      run: async () => {
        await control(fakes.FAKE_OPENAI_URL, 'stall', { ms: hangMs })
        await sleep(hangMs)
      },
      probe: modelAnswers,
      probeName: 'free tool answers',
    },
    {
      name: `Stripe's API hangs ${seconds}`,
      run: async () => {
        await control(fakes.FAKE_STRIPE_URL, 'hang', { on: true })
        await sleep(hangMs)
        await control(fakes.FAKE_STRIPE_URL, 'hang', { on: false })
      },
      probe: stripeAnswers,
      probeName: 'checkout answers',
    },
  ]
}

/** Polls `probe` until it succeeds; resolves with the time of success (or undefined after 60 s). */
export async function recovery(probe: () => Promise<boolean>) {
  const deadline = now() + 60_000
  while (now() < deadline) {
    if (await probe().catch(() => false)) return now()
    await sleep(200)
  }
  return undefined
}

/**
 * Runs the schedule in order, again from the top while more than 30 s are left before `endAt`; every fault runs at
 * least once. Each fault is pushed to `faults` as it starts, with its end and its recovery once known.
 */
export async function runFaults(schedule: FaultStep[], endAt: number, faults: Fault[]) {
  await sleep(5_000)
  for (let round = 0; round === 0 || now() < endAt - 30_000; round++) {
    for (const step of schedule) {
      if (round > 0 && now() >= endAt - 30_000) break
      const fault: Fault = { name: step.name, startedAt: now(), endedAt: 0, recoveryProbe: step.probeName }
      faults.push(fault)
      log(`soak: fault ${step.name}`)
      await step.run()
      fault.endedAt = now()
      fault.recoveredAt = await recovery(step.probe)
      log(
        `soak: ${step.name}: over after ${((fault.endedAt - fault.startedAt) / 1000).toFixed(1)} s, ` +
          `recovered ${fault.recoveredAt ? `${fault.recoveredAt - fault.endedAt} ms` : 'never'} after its end`,
      )
      await sleep(3_000)
    }
  }
}
