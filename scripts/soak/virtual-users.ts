// Virtual users: each signs up (again every 40 steps, as new customers arrive) and uses the site as customers do:
// pages, the JSON API, keyword searches, posts (with an Idempotency-Key), Auto Pilot, checkout, a free tool and bad
// requests. Every answer is recorded and checked (./checks), with what the client knows of posts and searches.
import crypto from 'node:crypto'
import type { Balancer } from './balancer'
import { recordAnswer } from './checks'
import type { Traffic } from './judge'
import { now, sleep } from './processes'

type SoakUser = { email: string; token: string; keywordIds: string[] }

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)

export async function virtualUser(opts: {
  lb: Balancer
  n: number
  traffic: Traffic
  answerWithinMs: number
  until: () => boolean
  premium: (email: string) => Promise<void>
}) {
  const { lb, n, traffic, answerWithinMs, until, premium } = opts
  const judge = (kind: string, res: Parameters<typeof recordAnswer>[2], accepted: (status: number) => boolean) =>
    recordAnswer(traffic, kind, res, accepted, answerWithinMs)
  const ip = `10.77.${n}.${crypto.randomInt(1, 250)}`
  const json = (body: unknown, token?: string): RequestInit => ({
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': ip,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  })
  const get = (token?: string): RequestInit => ({
    headers: { 'X-Forwarded-For': ip, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  })
  const ok2xx = (s: number) => s >= 200 && s < 400

  let user: SoakUser | null = null
  for (let i = 0; until(); i++) {
    if (!user || i % 40 === 0) {
      // A sign-up (a new account every so often, as new customers arrive).
      const email = `soak-${n}-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`
      const res = await lb.request(
        '/api/signup',
        json({ name: `Soak ${n}`, email, password: 'correct-horse-battery-staple' }),
      )
      judge('sign-up', res, (s) => s === 201 || s === 429)
      if (res.status === 201) {
        user = { email, token: (res.body as { token: string }).token, keywordIds: [] }
        traffic.searches.set(email, { ok: 0, unknown: 0 })
        traffic.acceptedPosts.set(email, new Set())
        traffic.userSpans.set(email, { from: now(), to: now() })
        if (n % 3 === 0) await premium(email).catch(() => {})
      } else if (!user) {
        await sleep(500)
        continue
      }
    }
    const u = user!
    const step = i % 12
    if (step === 0) judge('page /', await lb.request('/', get()), ok2xx)
    else if (step === 1) judge('page /pricing', await lb.request('/pricing', get()), ok2xx)
    else if (step === 2) judge('page /blog', await lb.request('/blog', get()), ok2xx)
    else if (step === 3) judge('api user', await lb.request('/api/user', get(u.token)), ok2xx)
    else if (step === 4) {
      const res = await lb.request(
        '/api/search',
        json({ query: `soak topic ${n} ${i % 7}`, countryCode: '2840', languageCode: '1000' }, u.token),
      )
      judge('keyword search', res, (s) => s === 200 || s === 402)
      const record = traffic.searches.get(u.email)!
      if (res.status === 200) {
        record.ok++
        for (const k of (res.body as { data: Array<{ _id: string }> }).data.slice(0, 3)) u.keywordIds.push(k._id)
      } else if (res.status === 0 || res.ms > answerWithinMs) record.unknown++
    } else if (step === 5 && i % 36 === 5 && u.keywordIds.length) {
      const keywordId = u.keywordIds[i % u.keywordIds.length]!
      const init = json({ keywordId }, u.token)
      ;(init.headers as Record<string, string>)['Idempotency-Key'] = crypto.randomUUID()
      const res = await lb.request('/api/creator', init)
      // 409: the keyword overlaps a post of the user's, or its post is still being written (the soak reuses keywords).
      // 200: a retry with the same Idempotency-Key (the balancer's, after a cut) reporting the post it created.
      judge('post', res, (s) => s === 202 || s === 200 || s === 402 || s === 409)
      if (res.status === 202 || res.status === 200) {
        const postId = (res.body as { post_id: string }).post_id
        traffic.acceptedPosts.get(u.email)!.add(postId)
        traffic.acceptedAt.set(postId, now())
      } else if (res.status === 0) bump(traffic.unknownPosts, u.email)
      else if (res.status === 503) bump(traffic.notStartedPosts, u.email)
    } else if (step === 6) judge('api posts', await lb.request('/api/blogposts', get(u.token)), ok2xx)
    else if (step === 7) {
      judge(
        'auto pilot toggle',
        await lb.request('/api/autopilot/toggle', json({ enabled: i % 24 < 12 }, u.token)),
        (s) => [200, 402, 409].includes(s),
      )
      judge('auto pilot list', await lb.request('/api/autopilot/status-list', get(u.token)), ok2xx)
    } else if (step === 8) {
      const res = await lb.request('/api/create-checkout-session', json({ priceId: 'price_monthly' }, u.token))
      // 409: a Premium user; 429: over 20 checkouts in 10 minutes (a user kept while its IP's sign-ups are limited).
      judge('checkout', res, (s) => s === 200 || s === 409 || s === 429)
    } else if (step === 9) {
      const res = await lb.request('/api/public/generate-titles', json({ keyword: `soak title ${n} ${i}` }))
      judge('free tool (model)', res, (s) => s === 200 || s === 429)
    } else if (step === 10) {
      judge('bad request', await lb.request('/api/search', json({ query: '' }, u.token)), (s) => s === 400)
      judge('bad request', await lb.request('/api/creator', json({ keywordId: 'nope' }, u.token)), (s) => s === 404)
      judge('bad request', await lb.request('/no-such-page', get()), (s) => s === 404)
    } else if (step === 11) judge('api keywords', await lb.request('/api/saved-keywords', get(u.token)), ok2xx)
    traffic.userSpans.get(u.email)!.to = now()
    await sleep(100)
  }
}
