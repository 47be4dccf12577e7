// The soak's checks as it runs and after: each request's answer recorded and checked as it comes, the processes'
// memory sampled every 2 s, and after the traffic the wait for every accepted post and what Postgres holds. The
// judge (./judge) decides from these figures.
import { drizzle } from 'drizzle-orm/postgres-js'
import { eq, inArray, sql } from 'drizzle-orm'
import postgres from 'postgres'
import * as schema from '#app/platform/db/schema'
import { log } from '../lib/services'
import { checkAnswer, type Answer, type MemorySample, type Stored, type Traffic } from './judge'
import { now, rssMiB, sleep, type Proc } from './processes'

export function createTraffic(): Traffic {
  return {
    samples: [],
    searches: new Map(),
    acceptedPosts: new Map(),
    unknownPosts: new Map(),
    notStartedPosts: new Map(),
    acceptedAt: new Map(),
    userSpans: new Map(),
  }
}

/** Records a request's answer (see checkAnswer); true when it is an acceptable answer. */
export function recordAnswer(
  traffic: Traffic,
  kind: string,
  answer: Answer,
  accepted: (status: number) => boolean,
  answerWithinMs: number,
) {
  const { ok, cut, problem } = checkAnswer(answer, accepted, answerWithinMs)
  if (cut) {
    // In flight on a process that was SIGKILLed and not safe to send again: counted and shown (the 'cut' column).
    traffic.samples.push({ at: now(), kind, status: 0, ms: answer.ms, ok: true, cut: true })
    return false
  }
  traffic.samples.push({ at: now(), kind, status: answer.status, ms: answer.ms, ok, problem })
  return ok
}

export type Db = ReturnType<typeof drizzle<typeof schema>>
export type WithDb = <T>(run: (db: Db) => Promise<T>, timeoutMs?: number) => Promise<T>

/**
 * The soak's own Postgres access (the app's schema): a fresh connection each time, closed after, and a bound on each
 * use, so that no connection of the soak lives through a Postgres restart (a client kept across one was seen
 * waiting for ever).
 */
export function soakDb(databaseUrl: string): WithDb {
  return async (run, timeoutMs = 30_000) => {
    const client = postgres(databaseUrl, { max: 1, connect_timeout: 5, onnotice: () => {} })
    let timer: NodeJS.Timeout | undefined
    try {
      return await Promise.race([
        run(drizzle(client, { schema })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the soak's Postgres query took over ${timeoutMs} ms`)), timeoutMs)
        }),
      ])
    } finally {
      clearTimeout(timer)
      // Bounded too: on a loaded machine a client whose query timed out was seen never to finish ending (postgres.js
      // 3.4 terminating a connection), leaving the soak waiting for ever with nothing left to run.
      let ended: NodeJS.Timeout | undefined
      await Promise.race([
        client.end({ timeout: 1 }).catch(() => {}),
        new Promise((resolve) => (ended = setTimeout(resolve, 5_000))),
      ])
      clearTimeout(ended)
    }
  }
}

/** Makes a user Premium (verified, an active subscription), so that it can use Auto Pilot. */
export function makePremium(withDb: WithDb, email: string) {
  return withDb(async (db) => {
    const [row] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email))
    if (!row) return
    await db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, row.id))
    await db
      .update(schema.subscriptions)
      .set({ status: 'active', currentPeriodStart: new Date(), currentPeriodEnd: new Date(now() + 30 * 86_400_000) })
      .where(eq(schema.subscriptions.userId, row.id))
  }, 5_000)
}

/** Each process's RSS every 2 s until `stop`. */
export function sampleMemory(procs: Proc[]) {
  const memory = new Map<string, MemorySample[]>()
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      for (const p of procs) {
        const mib = rssMiB(p.child.pid)
        if (Number.isFinite(mib)) memory.set(p.name, [...(memory.get(p.name) ?? []), { at: now(), mib }])
      }
      await sleep(2_000)
    }
  })()
  return {
    memory,
    stop: async () => {
      sampling = false
      await sampler
    },
  }
}

/** Waits (up to `withinMs`) until every accepted post is completed or failed; resolves with those still running. */
export async function waitForPosts(withDb: WithDb, accepted: string[], withinMs = 180_000) {
  const deadline = now() + withinMs
  let unfinished: string[] = []
  while (now() < deadline) {
    const rows = accepted.length
      ? await withDb((db) =>
          db
            .select({ id: schema.blogPosts.id, status: schema.blogPosts.status })
            .from(schema.blogPosts)
            .where(inArray(schema.blogPosts.id, accepted)),
        )
      : []
    unfinished = accepted.filter((id) => !rows.some((r) => r.id === id && ['completed', 'failed'].includes(r.status)))
    if (unfinished.length === 0) break
    log(`soak: ${unfinished.length} of ${accepted.length} accepted posts still running`)
    await sleep(2_000)
  }
  return unfinished
}

/** The soak's users with their quota counters, every post, and the posts with more than one generated version. */
export function readStored(withDb: WithDb): Promise<Stored> {
  return withDb(async (db) => ({
    users: await db
      .select({
        id: schema.users.id,
        email: schema.users.email,
        blogPostCount: schema.subscriptions.blogPostCount,
        keywordSearchCount: schema.subscriptions.keywordSearchCount,
      })
      .from(schema.users)
      .innerJoin(schema.subscriptions, eq(schema.subscriptions.userId, schema.users.id))
      .where(sql`${schema.users.email} like 'soak-%' and ${schema.users.email} not like 'soak-probe-%'`),
    posts: await db
      .select({
        id: schema.blogPosts.id,
        userId: schema.blogPosts.userId,
        status: schema.blogPosts.status,
        quotaRefunded: schema.blogPosts.quotaRefunded,
        failureReason: schema.blogPosts.failureReason,
        createdAt: schema.blogPosts.createdAt,
      })
      .from(schema.blogPosts),
    writtenTwice: [
      ...(await db.execute<{ post_id: string; n: number }>(
        sql`select post_id, count(*)::int as n from post_versions where origin = 'generated' group by post_id having count(*) > 1`,
      )),
    ],
  }))
}
