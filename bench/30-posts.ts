import { PAGE_TIMEOUT_MS } from '#app/features/content/research.server'
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { issueApiToken } from '#app/features/accounts/api-auth.server'
import { db, schema } from '#app/platform/db/client.server'
import { createUser } from '#app/features/accounts/users.server'
import { fakeControl, serpControl } from '#tests/fakes/client'
import type { RecordedRequest } from '#tests/fakes/http'
import { memoryMiB, type BenchContext } from './context'

/**
 * Issues 5 and 14: the post pipeline (web → queue → one worker process → research against the SERP and page fakes
 * → fake OpenAI → Postgres) with the fakes answering after fixed, realistic latencies (model 400 ms a call, SERP
 * 300 ms, pages and robots.txt 200 ms). Reports the sequential model round trips per post (measured
 * from the fake's request log: calls that arrive together form one round trip), the wall time per post, the
 * pipeline's own time beyond the model's, the embeddings call (internal links, alongside research), model calls and
 * tokens per post, whether each target of issue 14 is met, and posts per minute for one worker process.
 */
const MODEL_LATENCY_MS = 400
const SERP_LATENCY_MS = 300
const PAGE_LATENCY_MS = 200
/** Network waits on the research's critical path: the SERP, then robots.txt, then the page. */
const RESEARCH_NETWORK_MS = SERP_LATENCY_MS + 2 * PAGE_LATENCY_MS
const ONE_BY_ONE = 5
const BURST = 30

type Timings = {
  totalMs: number
  queuedMs: number
  researchMs: number
  briefMs: number
  sectionsMs: number
  assembleMs: number
  sequentialModelCalls: number
  modelCalls: number
  embeddingTokens?: number
  linkMethod?: string
  words: number
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
const fmt = (ms: number) => `${Math.round(ms)} ms`

/** Model calls that arrive within half a latency of each other belong to one round trip. */
function roundTrips(requests: RecordedRequest[]) {
  const times = requests.map((r) => Date.parse(r.at)).sort((a, b) => a - b)
  let waves = times.length ? 1 : 0
  for (let i = 1; i < times.length; i++) if (times[i]! - times[i - 1]! > MODEL_LATENCY_MS / 2) waves++
  return waves
}

async function startWorker(ctx: BenchContext) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/index.ts'], {
    cwd: ctx.root,
    env: ctx.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('worker started')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${output}`)))
  })
  return {
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}

async function benchUser() {
  const user = await createUser({
    email: `bench-posts-${crypto.randomBytes(4).toString('hex')}@example.com`,
    name: 'Bench',
    password: 'bench-password-123',
  })
  if (!user) throw new Error('could not create the bench user')
  await db.update(schema.users).set({ onboardingComplete: true }).where(eq(schema.users.id, user.id))
  // Premium: 100 posts per period, enough for the whole run.
  await db.update(schema.subscriptions).set({ status: 'active' }).where(eq(schema.subscriptions.userId, user.id))
  return { id: user.id, token: await issueApiToken({ id: user.id, onboardingComplete: true }) }
}

export default async function posts(ctx: BenchContext) {
  const openai = fakeControl('openai', ctx.fakes)
  await openai.reset()
  await openai.latency(MODEL_LATENCY_MS)
  const serp = serpControl(ctx.fakes)
  const web = fakeControl('web', ctx.fakes)
  await serp.reset()
  await serp.latency(SERP_LATENCY_MS)
  await web.latency(PAGE_LATENCY_MS)
  const worker = await startWorker(ctx)
  try {
    const user = await benchUser()

    /** Creates posts through the API (one keyword each) and waits until all are written. */
    async function run(count: number, topic = 'content marketing') {
      const tags = Array.from({ length: count }, () => `bench${crypto.randomBytes(4).toString('hex')}`)
      const keywords = await db
        .insert(schema.savedKeywords)
        .values(
          tags.map((tag) => ({
            userId: user.id,
            keyword: `${topic} ${tag}`,
            countryCode: '2840',
            languageCode: '1000',
            languageName: 'English',
            source: 'dataforseo' as const,
          })),
        )
        .returning({ id: schema.savedKeywords.id, keyword: schema.savedKeywords.keyword })
      const started = Date.now()
      const ids = await Promise.all(
        keywords.map(async (k) => {
          const res = await fetch(`${ctx.appUrl}/api/creator`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ keywordId: k.id, force: true }),
          })
          const body = (await res.json()) as { post_id?: string }
          if (res.status !== 202 || !body.post_id)
            throw new Error(`create failed: ${res.status} ${JSON.stringify(body)}`)
          return body.post_id
        }),
      )
      for (;;) {
        const rows = await db.select().from(schema.blogPosts).where(inArray(schema.blogPosts.id, ids))
        const failed = rows.find((r) => r.status === 'failed')
        if (failed) throw new Error(`a post failed: ${failed.failureReason}`)
        if (rows.every((r) => r.status === 'completed')) return { rows, tags, elapsedMs: Date.now() - started }
        if (Date.now() - started > 300_000) throw new Error('posts did not finish within 5 minutes')
        await new Promise((r) => setTimeout(r, 50))
      }
    }

    await run(2) // warm-up: module loading, connection pools, JIT

    // 1. One post at a time: latency of a single post.
    const single: Array<{
      wallMs: number
      processMs: number
      researchMs: number
      trips: number
      calls: number
      words: number
      tokens: number
      research: string | null
      embeddingCalls: number
      embeddingTokens: number
      linkMethod: string
    }> = []
    for (let i = 0; i < ONE_BY_ONE; i++) {
      const { rows, tags } = await run(1)
      const post = rows[0]!
      const timings = post.timings as Timings
      const calls = (await openai.requests({ method: 'POST', path: '/chat/completions' })).filter((r) =>
        JSON.stringify(r.body).includes(tags[0]!),
      )
      const embeddingCalls = (await openai.requests({ method: 'POST', path: '/embeddings' })).filter((r) =>
        JSON.stringify(r.body).includes(tags[0]!),
      )
      single.push({
        wallMs: post.completedAt!.getTime() - post.createdAt.getTime(),
        processMs: timings.totalMs,
        researchMs: timings.researchMs,
        trips: roundTrips(calls),
        calls: calls.length,
        words: timings.words,
        tokens: (post.usage as { totalTokens: number }).totalTokens,
        research: post.researchStatus,
        embeddingCalls: embeddingCalls.length,
        embeddingTokens: timings.embeddingTokens ?? 0,
        linkMethod: timings.linkMethod ?? 'terms',
      })
    }

    // 1b. A post from a model that misbehaves (an invented study, an unsourced figure, hostile links) and research
    // pages that fail, hang and inject: the unverified figures cost the third round trip (their rewrite).
    const bad = await run(1, 'misbehaving invoice software')
    const badPost = bad.rows[0]!
    const badCalls = (await openai.requests({ method: 'POST', path: '/chat/completions' })).filter((r) =>
      JSON.stringify(r.body).includes(bad.tags[0]!),
    )
    const badTimings = badPost.timings as Timings & { rewriteMs?: number }
    const badClaims = (badPost.claims as Array<{ status?: string }>) ?? []
    const count = (status: string) => badClaims.filter((c) => c.status === status).length

    // 2. A burst of posts at once: throughput of one worker process.
    const burst = await run(BURST)
    const perMinute = (BURST / burst.elapsedMs) * 60_000
    const burstWall = burst.rows.map((r) => r.completedAt!.getTime() - r.createdAt.getTime())
    const burstOverhead = burst.rows.map((r) => {
      const t = r.timings as Timings
      return t.totalMs - t.sequentialModelCalls * MODEL_LATENCY_MS - RESEARCH_NETWORK_MS
    })

    const trips = single.map((s) => s.trips)
    const modelMs = Math.max(...trips) * MODEL_LATENCY_MS + RESEARCH_NETWORK_MS
    const median = (xs: number[]) => percentile(xs, 50)
    console.log(
      `latencies (fixed): model ${MODEL_LATENCY_MS} ms per call, SERP ${SERP_LATENCY_MS} ms, pages and robots.txt ${PAGE_LATENCY_MS} ms; worker concurrency ${ctx.env.POST_WORKER_CONCURRENCY ?? 4}`,
    )
    console.log(
      `research (SERP + 10 pages in parallel, budget 5 s): median ${fmt(median(single.map((s) => s.researchMs)))}, max ${fmt(Math.max(...single.map((s) => s.researchMs)))}; status ${[...new Set(single.map((s) => s.research))].join(', ')}`,
    )
    console.log(
      `model calls per post: ${median(single.map((s) => s.calls))}; tokens per post: median ${median(single.map((s) => s.tokens))}`,
    )
    console.log(
      `sequential model round trips per post: ${Math.min(...trips)}–${Math.max(...trips)} (target ≤ 3); model calls per post: ${median(single.map((s) => s.calls))} (1 brief + sections in parallel)`,
    )
    console.log(
      `embeddings calls per post: ${median(single.map((s) => s.embeddingCalls))} (in parallel with research; internal links ranked by ${[...new Set(single.map((s) => s.linkMethod))].join(', ')}), embedding tokens per post: median ${median(single.map((s) => s.embeddingTokens))}`,
    )
    console.log(`words per post (fake model): median ${median(single.map((s) => s.words))}`)
    console.log(
      `one post at a time (${ONE_BY_ONE}): wall time request → stored ${fmt(median(single.map((s) => s.wallMs)))} median, ` +
        `${fmt(Math.max(...single.map((s) => s.wallMs)))} max; in the worker ${fmt(median(single.map((s) => s.processMs)))} median`,
    )
    console.log(
      `pipeline overhead beyond the network's ${modelMs} ms (model round trips + SERP + robots.txt + page): ${fmt(median(single.map((s) => s.processMs)) - modelMs)} median in the worker, ` +
        `${fmt(median(single.map((s) => s.wallMs)) - modelMs)} median end to end incl. queue pick-up (target < 300 ms); end to end target < 3 s`,
    )
    console.log(
      `burst of ${BURST} posts, one worker process: ${perMinute.toFixed(1)} posts/minute; all done in ${fmt(burst.elapsedMs)}; ` +
        `wall time per post p50 ${fmt(percentile(burstWall, 50))}, p95 ${fmt(percentile(burstWall, 95))}; ` +
        `overhead in the worker p50 ${fmt(percentile(burstOverhead, 50))}, p95 ${fmt(percentile(burstOverhead, 95))}`,
    )
    const phase = (key: 'researchMs' | 'briefMs' | 'sectionsMs' | 'assembleMs') =>
      burst.rows.map((r) => (r.timings as Timings)[key])
    console.log(
      `burst phases (p50 / p95): research ${fmt(percentile(phase('researchMs'), 50))} / ${fmt(percentile(phase('researchMs'), 95))}, ` +
        `brief ${fmt(percentile(phase('briefMs'), 50))} / ${fmt(percentile(phase('briefMs'), 95))}, ` +
        `sections ${fmt(percentile(phase('sectionsMs'), 50))} / ${fmt(percentile(phase('sectionsMs'), 95))}, ` +
        `assembly + sanitizing ${fmt(percentile(phase('assembleMs'), 50))} / ${fmt(percentile(phase('assembleMs'), 95))}`,
    )
    const e2e = median(single.map((s) => s.wallMs))
    console.log(
      `misbehaving model (claims rewritten): sequential model round trips ${roundTrips(badCalls)} (target ≤ 3), model calls ${badCalls.length}; ` +
        `in the worker ${fmt(badTimings.totalMs)} (research ${fmt(badTimings.researchMs)}, of which a hanging page's ${PAGE_TIMEOUT_MS} ms time limit; rewrite ${fmt(badTimings.rewriteMs ?? 0)}); ` +
        `claims verified ${count('verified')}, rewritten ${count('rewritten')}, removed ${count('removed')}, unverified ${count('unverified')}`,
    )
    const overhead = median(single.map((s) => s.processMs)) - modelMs
    const check = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
    console.log(
      `targets: research ≤ 5 s ${check(Math.max(...single.map((s) => s.researchMs)) <= 5_000)}; ` +
        `sequential model round trips ≤ 3 ${check(Math.max(...trips, roundTrips(badCalls)) <= 3)}; ` +
        `end to end < 3 s ${check(e2e < 3_000)} (${fmt(e2e)}); ` +
        `pipeline overhead < 300 ms ${check(overhead < 300)} (${fmt(overhead)})`,
    )
    const mem = memoryMiB(worker.pid)
    console.log(`worker process memory: ${mem.rss.toFixed(0)} MiB resident now, ${mem.peak.toFixed(0)} MiB peak`)
  } finally {
    await openai.latency(0).catch(() => {})
    await serp.latency(0).catch(() => {})
    await web.latency(0).catch(() => {})
    await worker.stop()
  }
}
