import { describe, expect, it } from 'vitest'
import { NOT_QUEUED_REASON } from '#app/features/content/posts'
import { checkAnswer, judge, type Figures, type Sample } from './judge'

const limits = { answerWithinMs: 5_000, recoverWithinMs: 10_000, maxRssMiB: 768 }
const T0 = 1_700_000_000_000
const ok2xx = (s: number) => s >= 200 && s < 400

/** A clean run: one user who made one search and had one post accepted and written, one fault recovered in 1 s. */
function cleanRun(): Figures {
  const samples: Sample[] = [
    { at: T0 + 100, kind: 'sign-up', status: 201, ms: 80, ok: true },
    { at: T0 + 400, kind: 'keyword search', status: 200, ms: 120, ok: true },
    { at: T0 + 900, kind: 'post', status: 202, ms: 90, ok: true },
  ]
  return {
    limits,
    soakStartedAt: T0 + 100,
    trafficEndedAt: T0 + 60_000,
    traffic: {
      samples,
      searches: new Map([['soak-0@example.com', { ok: 1, unknown: 0 }]]),
      acceptedPosts: new Map([['soak-0@example.com', new Set(['p1'])]]),
      unknownPosts: new Map(),
      notStartedPosts: new Map(),
      acceptedAt: new Map([['p1', T0 + 900]]),
      userSpans: new Map([['soak-0@example.com', { from: T0 + 100, to: T0 + 50_000 }]]),
    },
    faults: [
      {
        name: 'restart Redis',
        startedAt: T0 + 10_000,
        endedAt: T0 + 12_000,
        recoveredAt: T0 + 13_000,
        recoveryProbe: 'job round trip',
      },
    ],
    unexpectedExits: [],
    unfinished: [],
    stored: {
      users: [{ id: 'u1', email: 'soak-0@example.com', blogPostCount: 1, keywordSearchCount: 1 }],
      posts: [
        {
          id: 'p1',
          userId: 'u1',
          status: 'completed',
          quotaRefunded: false,
          failureReason: null,
          createdAt: new Date(T0 + 900),
        },
      ],
      writtenTwice: [],
    },
    memory: new Map([
      ['web-1', Array.from({ length: 12 }, (_, i) => ({ at: T0 + i * 2_000, mib: 300 }))],
      ['worker', Array.from({ length: 12 }, (_, i) => ({ at: T0 + i * 2_000, mib: 200 }))],
    ]),
  }
}

const texts = (figures: Figures) => judge(figures).violations.map((v) => `[${v.check}] ${v.text}`)

describe('checkAnswer: one request', () => {
  it('accepts a status the route gives, answered in time', () => {
    expect(checkAnswer({ status: 200, retryAfter: false, ms: 4_999 }, ok2xx, 5_000)).toEqual({ ok: true })
  })
  it('accepts a 503 with Retry-After (an outage) and refuses one without it', () => {
    expect(checkAnswer({ status: 503, retryAfter: true, ms: 100 }, ok2xx, 5_000)).toEqual({ ok: true })
    expect(checkAnswer({ status: 503, retryAfter: false, ms: 100 }, ok2xx, 5_000)).toEqual({
      ok: false,
      problem: '503 without Retry-After',
    })
  })
  it('refuses a late answer, even a 503 with Retry-After', () => {
    expect(checkAnswer({ status: 503, retryAfter: true, ms: 5_001 }, ok2xx, 5_000)).toEqual({
      ok: false,
      problem: 'answered after 5001 ms',
    })
  })
  it('refuses another status, a 500 included', () => {
    expect(checkAnswer({ status: 500, retryAfter: true, ms: 10 }, ok2xx, 5_000)).toEqual({
      ok: false,
      problem: 'unexpected 500',
    })
    expect(checkAnswer({ status: 404, retryAfter: false, ms: 10 }, (s) => s === 400, 5_000).ok).toBe(false)
  })
  it('refuses no answer, and counts a request cut by a SIGKILL without refusing it', () => {
    expect(checkAnswer({ status: 0, retryAfter: false, ms: 30, error: 'ECONNRESET' }, ok2xx, 5_000)).toEqual({
      ok: false,
      problem: 'no answer (ECONNRESET)',
    })
    expect(checkAnswer({ status: 0, retryAfter: false, ms: 30, error: 'ECONNRESET', cut: true }, ok2xx, 5_000)).toEqual(
      { ok: true, cut: true },
    )
  })
})

describe('judge: the whole run', () => {
  it('passes a clean run and counts its posts', () => {
    const verdict = judge(cleanRun())
    expect(verdict.violations).toEqual([])
    expect(verdict.passed).toBe(true)
    expect(verdict).toMatchObject({ postsCompleted: 1, postsFailed: 0 })
    expect(verdict.memory).toEqual([
      { name: 'web-1', maxMiB: 300, middleMiB: 300, lastMiB: 300 },
      { name: 'worker', maxMiB: 200, middleMiB: 200, lastMiB: 200 },
    ])
  })

  it('fails on a request that was not answered well, timed from its sending to its answer', () => {
    const figures = cleanRun()
    figures.traffic.samples.push({
      at: T0 + 20_000,
      kind: 'checkout',
      status: 500,
      ms: 300,
      ok: false,
      problem: 'unexpected 500',
    })
    const verdict = judge(figures)
    expect(verdict.passed).toBe(false)
    expect(verdict.violations).toEqual([
      { check: 'requests', text: 'checkout: unexpected 500', from: T0 + 19_700, to: T0 + 20_000 },
    ])
  })

  it('fails on a fault recovered late or never, and on a process that exited on its own', () => {
    const figures = cleanRun()
    figures.faults[0]!.recoveredAt = T0 + 12_000 + 10_001
    figures.faults.push({ name: 'restart Postgres', startedAt: T0 + 30_000, endedAt: T0 + 33_000, recoveryProbe: 'x' })
    figures.unexpectedExits.push({ name: 'web-2', at: T0 + 40_000, code: 1, signal: null })
    expect(texts(figures)).toEqual([
      '[recovery] web-2 exited on its own (code 1, signal null)',
      '[recovery] restart Redis: recovered 10001 ms after its end',
      '[recovery] restart Postgres: not recovered within 60 s of its end',
    ])
    figures.faults[0]!.recoveredAt = T0 + 12_000 + 10_000
    expect(texts(figures)).not.toContain('[recovery] restart Redis: recovered 10000 ms after its end')
  })

  it('fails on an accepted post that never finished, at the time it was accepted', () => {
    const figures = cleanRun()
    figures.unfinished = ['p1']
    expect(judge(figures).violations).toEqual([
      { check: 'posts', text: 'post p1 was accepted but never finished (lost)', from: T0 + 900, to: T0 + 900 },
    ])
  })

  it('fails on a post written twice', () => {
    const figures = cleanRun()
    figures.stored.writtenTwice = [{ post_id: 'p1', n: 2 }]
    const verdict = judge(figures)
    expect(texts(figures)).toEqual(['[posts] post p1 was written 2 times'])
    expect([...verdict.twice]).toEqual(['p1'])
  })

  it('fails when Postgres holds fewer posts than were accepted, or more than may have been made', () => {
    const fewer = cleanRun()
    fewer.traffic.acceptedPosts.get('soak-0@example.com')!.add('p2')
    expect(texts(fewer)).toEqual(['[posts] soak-0@example.com: 1 posts in Postgres for 2 accepted (+0 unanswered)'])

    const more = cleanRun()
    more.stored.posts.push({ ...more.stored.posts[0]!, id: 'p2', status: 'failed', quotaRefunded: true })
    expect(texts(more)).toEqual(['[posts] soak-0@example.com: 2 posts in Postgres for 1 accepted (+0 unanswered)'])
    // …unless a creation went unanswered (it may have made that post).
    more.traffic.unknownPosts.set('soak-0@example.com', 1)
    expect(texts(more)).toEqual([])
  })

  it("allows a request answered 503 its failed, refunded 'not started' row, and no other row", () => {
    const figures = cleanRun()
    figures.traffic.notStartedPosts.set('soak-0@example.com', 1)
    figures.stored.posts.push({
      ...figures.stored.posts[0]!,
      id: 'p2',
      status: 'failed',
      quotaRefunded: true,
      failureReason: NOT_QUEUED_REASON,
    })
    expect(texts(figures)).toEqual([])
    figures.stored.posts[1]!.failureReason = 'The model failed.'
    expect(texts(figures)).toEqual(['[posts] soak-0@example.com: 2 posts in Postgres for 1 accepted (+0 unanswered)'])
  })

  it('fails on a unit lost either way: a written post refunded, a failed post not refunded, a counter off', () => {
    const refunded = cleanRun()
    refunded.stored.posts[0]!.quotaRefunded = true
    expect(texts(refunded)).toEqual([
      '[quota] post p1 was written and its unit given back (a unit lost to us)',
      '[quota] soak-0@example.com: blog post quota 1 for 0 charged posts',
    ])

    const kept = cleanRun()
    kept.stored.posts[0]!.status = 'failed'
    expect(texts(kept)).toEqual(['[quota] post p1 failed and kept its unit (a unit lost to the user)'])

    const counter = cleanRun()
    counter.stored.users[0]!.blogPostCount = 2
    expect(judge(counter).violations).toEqual([
      {
        check: 'quota',
        text: 'soak-0@example.com: blog post quota 2 for 1 charged posts',
        from: T0 + 100,
        to: T0 + 50_000,
      },
    ])
  })

  it('holds the keyword-search counter between the searches answered and those plus the unanswered ones', () => {
    const figures = cleanRun()
    figures.stored.users[0]!.keywordSearchCount = 0
    expect(texts(figures)).toEqual([
      '[quota] soak-0@example.com: keyword search quota 0 for 1 answered searches (+0 unanswered)',
    ])
    figures.stored.users[0]!.keywordSearchCount = 2
    expect(texts(figures)).toHaveLength(1)
    figures.traffic.searches.set('soak-0@example.com', { ok: 1, unknown: 1 })
    expect(texts(figures)).toEqual([])
  })

  it('fails on memory over the ceiling, and on memory growing more than 25% from the middle to the last third', () => {
    const over = cleanRun()
    over.memory.get('web-1')![5]!.mib = 769
    expect(texts(over)).toEqual(['[memory] web-1: RSS 769 MiB over the ceiling of 768 MiB'])

    const growing = cleanRun()
    // 12 samples: the middle third (4-7) at 300 MiB, the last third (8-11) at 376 MiB (over 300 + 25%).
    for (const v of growing.memory.get('worker')!.slice(8)) v.mib = 376
    for (const v of growing.memory.get('worker')!.slice(4, 8)) v.mib = 300
    expect(judge(growing).violations).toEqual([
      { check: 'memory', text: 'worker: RSS grew from 300 to 376 MiB', from: T0 + 16_000, to: T0 + 22_000 },
    ])
    for (const v of growing.memory.get('worker')!.slice(8)) v.mib = 375
    expect(texts(growing)).toEqual([])
  })

  it('does not judge growth on too few samples', () => {
    const short = cleanRun()
    // 8 samples: a third is 2, too few to tell growth from start-up.
    short.memory.set(
      'web-1',
      Array.from({ length: 8 }, (_, i) => ({ at: T0 + i * 2_000, mib: i < 6 ? 200 : 400 })),
    )
    expect(texts(short)).toEqual([])
  })
})
