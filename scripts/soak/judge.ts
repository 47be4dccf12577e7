// The soak's judge: from the figures the run collected (every request's answer, every fault, the processes' exits
// and memory, and what Postgres holds after the traffic) it decides pass or fail, listing each violation with the
// time it belongs to (so that the report can put it in the window of the fault it happened under). Pure: no I/O and
// no clock; scripts/soak/judge.test.ts tests it.
import { NOT_QUEUED_REASON } from '#app/features/content/posts'

export type Limits = {
  /** Every request answered within this time (a 503 with Retry-After is an answer). */
  answerWithinMs: number
  /** The app works end to end within this time of a fault's end. */
  recoverWithinMs: number
  /** RSS ceiling of each app process. */
  maxRssMiB: number
}

/** What a client saw of one request: its status (0: no answer), time, Retry-After, and whether it was cut. */
export type Answer = { status: number; retryAfter: boolean; ms: number; error?: string; cut?: boolean }
export type Sample = {
  at: number
  kind: string
  status: number
  ms: number
  ok: boolean
  problem?: string
  cut?: boolean
}
export type Fault = { name: string; startedAt: number; endedAt: number; recoveredAt?: number; recoveryProbe: string }
export type ProcessExit = { name: string; at: number; code: number | null; signal: NodeJS.Signals | null }
export type MemorySample = { at: number; mib: number }

/** What the virtual users saw, by user e-mail where it is per user. */
export type Traffic = {
  samples: Sample[]
  /** Searches whose outcome the client knows (charged) or cannot know (no answer: maybe charged). */
  searches: Map<string, { ok: number; unknown: number }>
  /** Posts the app accepted (202, or 200 for a replay). */
  acceptedPosts: Map<string, Set<string>>
  /** Creations without an answer (maybe created). */
  unknownPosts: Map<string, number>
  /**
   * Creations answered 503 (the queue was unreachable): the app keeps such a post as failed with the reason 'We could
   * not start writing this post.' and its unit given back, so that the user sees it and a retry with the same
   * Idempotency-Key starts that very post.
   */
  notStartedPosts: Map<string, number>
  /** When each accepted post was accepted, to put it in the window of the fault it ran under. */
  acceptedAt: Map<string, number>
  /** When each user was active (sign-up to last request), to put its quota counters in the faults' windows. */
  userSpans: Map<string, { from: number; to: number }>
}

/** What Postgres holds after the traffic (the soak's users, every post, posts with more than one generated version). */
export type Stored = {
  users: Array<{ id: string; email: string; blogPostCount: number; keywordSearchCount: number }>
  posts: Array<{
    id: string
    userId: string
    status: string
    quotaRefunded: boolean
    failureReason: string | null
    createdAt: Date
  }>
  writtenTwice: Array<{ post_id: string; n: number }>
}

export type Figures = {
  limits: Limits
  /** The first request's time, and when the traffic stopped. */
  soakStartedAt: number
  trafficEndedAt: number
  traffic: Traffic
  faults: Fault[]
  unexpectedExits: ProcessExit[]
  /** Accepted posts that had not finished (completed or failed) when the soak stopped waiting for them. */
  unfinished: string[]
  stored: Stored
  memory: Map<string, MemorySample[]>
}

export type Check = 'requests' | 'recovery' | 'posts' | 'quota' | 'memory'
export type Violation = { text: string; check: Check; from: number; to: number }
export type MemoryFigure = { name: string; maxMiB: number; middleMiB: number; lastMiB: number }
export type Verdict = {
  passed: boolean
  violations: Violation[]
  postsCompleted: number
  postsFailed: number
  /** Posts written more than once. */
  twice: Set<string>
  memory: MemoryFigure[]
}

/**
 * One request's answer: a 5xx is an answer only as a 503 with Retry-After; anything slower than the limit or
 * unanswered is a problem. A request in flight on a process that was SIGKILLed and not safe to send again is `cut`:
 * no server can answer it, so it is counted, not a violation.
 */
export function checkAnswer(
  answer: Answer,
  accepted: (status: number) => boolean,
  answerWithinMs: number,
): { ok: boolean; cut?: true; problem?: string } {
  if (answer.status === 0 && answer.cut) return { ok: true, cut: true }
  let problem: string | undefined
  if (answer.status === 0) problem = `no answer (${answer.error})`
  else if (answer.ms > answerWithinMs) problem = `answered after ${answer.ms} ms`
  else if (answer.status === 503 && !answer.retryAfter) problem = '503 without Retry-After'
  else if (answer.status !== 503 && !accepted(answer.status)) problem = `unexpected ${answer.status}`
  return problem ? { ok: false, problem } : { ok: true }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

/** Every assertion of the soak over the collected figures. */
export function judge(figures: Figures): Verdict {
  const { limits, soakStartedAt, trafficEndedAt, traffic, faults, unexpectedExits, unfinished, stored } = figures
  const violations: Violation[] = []
  const violate = (check: Check, text: string, from: number, to = from) => violations.push({ text, check, from, to })

  // No post lost: every post the app accepted ends completed or failed (failed posts give their unit back).
  for (const id of unfinished) {
    const at = traffic.acceptedAt.get(id) ?? soakStartedAt
    violate('posts', `post ${id} was accepted but never finished (lost)`, at)
  }

  // Written once: at most one 'generated' version per post, and posts only for requests the app accepted.
  const twice = new Set<string>()
  for (const v of stored.writtenTwice) {
    twice.add(v.post_id)
    const at =
      traffic.acceptedAt.get(v.post_id) ??
      stored.posts.find((p) => p.id === v.post_id)?.createdAt.getTime() ??
      soakStartedAt
    violate('posts', `post ${v.post_id} was written ${v.n} times`, at)
  }
  let postsCompleted = 0
  let postsFailed = 0
  for (const u of stored.users) {
    const span = traffic.userSpans.get(u.email) ?? { from: soakStartedAt, to: trafficEndedAt }
    const own = stored.posts.filter((p) => p.userId === u.id)
    postsCompleted += own.filter((p) => p.status === 'completed').length
    postsFailed += own.filter((p) => p.status === 'failed').length
    const accepted = traffic.acceptedPosts.get(u.email)?.size ?? 0
    const maybe = traffic.unknownPosts.get(u.email) ?? 0
    // Rows for requests answered 503: failed as not started, unit given back, never for an accepted request.
    const ownAccepted = traffic.acceptedPosts.get(u.email) ?? new Set<string>()
    const notStarted = Math.min(
      traffic.notStartedPosts.get(u.email) ?? 0,
      own.filter(
        (p) =>
          !ownAccepted.has(p.id) && p.status === 'failed' && p.quotaRefunded && p.failureReason === NOT_QUEUED_REASON,
      ).length,
    )
    if (own.length < accepted || own.length > accepted + maybe + notStarted)
      violate(
        'posts',
        `${u.email}: ${own.length} posts in Postgres for ${accepted} accepted (+${maybe} unanswered)`,
        span.from,
        span.to,
      )
    // A unit per post that was written; a failed post gives its unit back, a written one keeps it.
    for (const p of own) {
      const at = traffic.acceptedAt.get(p.id) ?? p.createdAt.getTime()
      if (p.status === 'completed' && p.quotaRefunded)
        violate('quota', `post ${p.id} was written and its unit given back (a unit lost to us)`, at)
      if (p.status === 'failed' && !p.quotaRefunded)
        violate('quota', `post ${p.id} failed and kept its unit (a unit lost to the user)`, at)
    }
    // The counter: one unit per post that did not give it back (trial users; Premium users' months do not roll here).
    const charged = own.filter((p) => !p.quotaRefunded).length
    if (u.blogPostCount !== charged)
      violate(
        'quota',
        `${u.email}: blog post quota ${u.blogPostCount} for ${charged} charged posts`,
        span.from,
        span.to,
      )
    const searched = traffic.searches.get(u.email) ?? { ok: 0, unknown: 0 }
    if (u.keywordSearchCount < searched.ok || u.keywordSearchCount > searched.ok + searched.unknown)
      violate(
        'quota',
        `${u.email}: keyword search quota ${u.keywordSearchCount} for ${searched.ok} answered searches (+${searched.unknown} unanswered)`,
        span.from,
        span.to,
      )
  }

  // Requests: every one answered within the limit with an acceptable status (a 503 with Retry-After is an answer).
  for (const e of unexpectedExits)
    violate('recovery', `${e.name} exited on its own (code ${e.code}, signal ${e.signal})`, e.at)
  for (const sample of traffic.samples.filter((x) => !x.ok))
    violate('requests', `${sample.kind}: ${sample.problem}`, sample.at - sample.ms, sample.at)

  // Recovery within the limit of the end of each fault.
  for (const f of faults) {
    if (!f.recoveredAt) violate('recovery', `${f.name}: not recovered within 60 s of its end`, f.endedAt)
    else if (f.recoveredAt - f.endedAt > limits.recoverWithinMs)
      violate('recovery', `${f.name}: recovered ${f.recoveredAt - f.endedAt} ms after its end`, f.endedAt)
  }

  // Memory: each process under its ceiling at every sample; the last third of the run no higher than the middle
  // third + 25% (bounded, not growing with the traffic).
  const memory: MemoryFigure[] = []
  for (const [name, values] of figures.memory) {
    const mibs = values.map((v) => v.mib)
    for (const v of values)
      if (v.mib > limits.maxRssMiB)
        violate('memory', `${name}: RSS ${v.mib.toFixed(0)} MiB over the ceiling of ${limits.maxRssMiB} MiB`, v.at)
    const third = Math.floor(values.length / 3)
    const middle = median(mibs.slice(third, 2 * third))
    const last = median(mibs.slice(2 * third))
    memory.push({ name, maxMiB: Math.max(...mibs), middleMiB: middle, lastMiB: last })
    if (third > 2 && last > middle * 1.25)
      violate(
        'memory',
        `${name}: RSS grew from ${middle.toFixed(0)} to ${last.toFixed(0)} MiB`,
        values[2 * third]!.at,
        values.at(-1)!.at,
      )
  }

  return { passed: violations.length === 0, violations, postsCompleted, postsFailed, twice, memory }
}
