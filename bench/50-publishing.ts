/**
 * Publishing overhead per destination: the time a publication takes in the worker's code beyond the time spent
 * waiting for the remote (measured around every HTTP exchange). Ghost and Webflow are the loopback fakes with a
 * fixed 100 ms latency per answer; WordPress is the real one (Debian's package) when it is installed.
 * Target: overhead p50 < 50 ms per destination.
 */
import crypto from 'node:crypto'
import { encryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import type { HttpStats } from '#app/features/publishing/http.server'
import { processPublication } from '#app/features/publishing/publications.server'
import { createUser } from '#app/features/accounts/users.server'
import { startWordPress, wordpressUnavailable } from '#tests/setup/wordpress'
import type { BenchContext } from './context'

const RUNS = Number(process.env.BENCH_PUBLISH_RUNS ?? 20)
const LATENCY_MS = 100

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function control(base: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/__control/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return res.json() as Promise<Record<string, string>>
}

export default async function bench(ctx: BenchContext) {
  const user = await createUser({
    email: `bench-publish-${Date.now()}@example.com`,
    name: 'Bench',
    password: 'bench-password-1',
  })
  if (!user) throw new Error('could not create the bench user')
  const ghostUrl = ctx.fakes.FAKE_GHOST_URL!
  const webflowUrl = ctx.fakes.FAKE_WEBFLOW_URL!
  const { adminApiKey } = await control(ghostUrl, 'key')
  const wf = await control(webflowUrl, 'config')
  await control(ghostUrl, 'latency', { ms: LATENCY_MS })
  await control(webflowUrl, 'latency', { ms: LATENCY_MS })

  const destinations: Array<{
    label: string
    kind: 'wordpress' | 'ghost' | 'webflow'
    config: object
    secret: string
  }> = [
    {
      label: `Ghost (fake, ${LATENCY_MS} ms/answer)`,
      kind: 'ghost',
      config: { adminUrl: ghostUrl, postStatus: 'publish', unpublishMode: 'draft', tags: [] },
      secret: adminApiKey!,
    },
    {
      label: `Webflow (fake, ${LATENCY_MS} ms/answer)`,
      kind: 'webflow',
      config: {
        siteId: wf.siteId,
        collectionId: wf.collectionId,
        titleField: 'name',
        slugField: 'slug',
        bodyField: 'post-body',
        summaryField: 'post-summary',
        unpublishMode: 'draft',
        siteDomain: 'fake-site.webflow.io',
        collectionSlug: 'blog',
      },
      secret: wf.token!,
    },
  ]
  const unavailable = process.env.BENCH_WORDPRESS === '0' ? 'BENCH_WORDPRESS=0' : wordpressUnavailable()
  const wp = unavailable ? null : await startWordPress()
  if (wp)
    destinations.push({
      label: 'WordPress (real, loopback)',
      kind: 'wordpress',
      config: {
        siteUrl: wp.url,
        username: 'admin',
        postStatus: 'publish',
        unpublishMode: 'draft',
        categories: [],
        tags: [],
      },
      secret: wp.admin.appPassword,
    })
  else console.log(`WordPress not measured: ${unavailable}`)

  try {
    console.log(
      'destination'.padEnd(34) +
        'total p50'.padStart(11) +
        'remote p50'.padStart(12) +
        'overhead p50'.padStart(14) +
        'p95'.padStart(8) +
        'calls'.padStart(7),
    )
    for (const d of destinations) {
      const [dest] = await db
        .insert(schema.destinations)
        .values({
          userId: user.id,
          kind: d.kind,
          name: d.label,
          config: d.config,
          credentials: encryptSecret(d.secret),
        })
        .returning()
      const totals: number[] = []
      const remote: number[] = []
      const overhead: number[] = []
      let calls = 0
      for (let i = 0; i < RUNS + 2; i++) {
        const tag = crypto.randomBytes(4).toString('hex')
        const [post] = await db
          .insert(schema.blogPosts)
          .values({
            userId: user.id,
            requestKey: `bench-publish-${tag}`,
            keyword: `bench ${tag}`,
            status: 'completed',
            title: `Bench post ${tag}`,
            slug: `bench-post-${tag}`,
            metaDescription: 'A benchmark post.',
            contentMarkdown: '## Hello\n\nWorld.',
            contentHtml: '<h2>Hello</h2><p>World.</p>'.repeat(40),
            completedAt: new Date(),
          })
          .returning()
        const [pub] = await db
          .insert(schema.publications)
          .values({ userId: user.id, postId: post!.id, destinationId: dest!.id, status: 'pending', action: 'publish' })
          .returning()
        const stats: HttpStats = { calls: 0, ms: 0 }
        const started = performance.now()
        const outcome = await processPublication(
          { publicationId: pub!.id, revision: 1 },
          { workerId: 'bench', attempt: 0, maxAttempts: 1, stats },
        )
        const total = performance.now() - started
        if (outcome.status !== 'published') throw new Error(`${d.label}: ${JSON.stringify(outcome)}`)
        if (i < 2) continue // warm-up
        totals.push(total)
        remote.push(stats.ms)
        overhead.push(total - stats.ms)
        calls = stats.calls
      }
      console.log(
        d.label.padEnd(34) +
          `${pct(totals, 50).toFixed(1)} ms`.padStart(11) +
          `${pct(remote, 50).toFixed(1)} ms`.padStart(12) +
          `${pct(overhead, 50).toFixed(1)} ms`.padStart(14) +
          `${pct(overhead, 95).toFixed(1)}`.padStart(8) +
          String(calls).padStart(7),
      )
    }
    console.log('target: overhead p50 < 50 ms per destination (everything but waiting for the remote)')
  } finally {
    await control(ghostUrl, 'latency', { ms: 0 })
    await control(webflowUrl, 'latency', { ms: 0 })
    await wp?.stop()
  }
}
