// Run by bench/60-memory.ts as `node --expose-gc --import tsx bench/memory-probe.ts` with the bench's environment
// (its Postgres and Redis). Not a bench module itself (no number prefix). Prints one JSON line per measurement.
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { buildJsonLd, jsonLdScript } from '#app/features/content/content'
import { markdownToHtml } from '#app/platform/markdown/markdown'
import { storedPostBody } from '#app/platform/security/sanitize.server'
import { excerpt } from '#app/features/content/posts'
import { loader as downloadLoader } from '#app/routes/blogpost.$id.download'
import { loader as viewLoader } from '#app/routes/blogpost.$id'
import { closeDb, db, schema } from '#app/platform/db/client.server'
import { closeRedis } from '#app/platform/redis.server'
import { newRequestScope, runInRequestScope, type RequestScope } from '#app/platform/http/request-scope.server'
import { createSession, sessionCookie } from '#app/features/accounts/session.server'
import { createUser } from '#app/features/accounts/users.server'

declare const gc: () => void

export type ProbeResult = {
  name: string
  calls: number
  heapGrowthMiB: number
  peakGrowthMiB: number
  cpuUsPerCall: number
  wallUsPerCall: number
}

const VIEWS = Number(process.env.BENCH_MEMORY_VIEWS ?? 20_000)
const WRITES = Number(process.env.BENCH_MEMORY_WRITES ?? 2_000)
const POSTS = 20

/** A realistic post of about 14 kB: headings, paragraphs with links, lists, a table and an FAQ. */
export function samplePost(n: number): string {
  const section = (i: number) =>
    [
      `## Section ${i}: how founders choose tool ${n}`,
      '',
      `Most teams start with a spreadsheet and move on once it hurts. In our [survey](https://example.com/survey-${i}) ` +
        `**${40 + i}%** of founders said the switch came after their *third* missed deadline; the rest waited longer. ` +
        'The cost is mostly time, and time compounds: every week spent on manual work is a week not spent on sales.',
      '',
      `- Start small: one workflow, one owner, one measure of success for ${i} weeks.`,
      '- Write the process down before you automate it, then automate the boring half.',
      `- Review after a month: keep what saved time, drop what did not ([checklist](/guides/${i})).`,
      '',
      '| Plan | Price | Seats |',
      '| --- | --- | --- |',
      `| Starter | $${9 + i} | 3 |`,
      `| Growth | $${49 + i} | 10 |`,
      '',
    ].join('\n')
  const faq = [
    '## FAQ',
    '',
    '### Is it worth it for a team of two?',
    '',
    'Yes, when the same task repeats every week. Otherwise a checklist is enough.',
    '',
    '### How long does the switch take?',
    '',
    'A week for the first workflow, then a day for each one after it.',
  ].join('\n')
  return [
    `# The founder's guide to tool ${n}`,
    '',
    'An honest look at what works.',
    '',
    ...Array.from({ length: 16 }, (_, i) => section(i)),
    faq,
  ].join('\n')
}

const settle = async () => {
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve))
    gc()
  }
}

async function measure(name: string, calls: number, fn: (i: number) => unknown): Promise<ProbeResult> {
  for (let i = 0; i < Math.min(200, calls); i++) await fn(i)
  await settle()
  const before = process.memoryUsage().heapUsed
  let peak = before
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < calls; i++) {
    const out = fn(i)
    if (out instanceof Promise) await out
    // Synchronous work: let the event loop turn now and then, as it does between real requests.
    else if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve))
    if (i % 500 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  const wall = performance.now() - started
  const used = process.cpuUsage(cpu)
  await settle()
  const after = process.memoryUsage().heapUsed
  const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100
  return {
    name,
    calls,
    heapGrowthMiB: mib(after - before),
    peakGrowthMiB: mib(peak - before),
    cpuUsPerCall: Math.round((used.user + used.system) / calls),
    wallUsPerCall: Math.round((wall * 1000) / calls),
  }
}

async function main() {
  const user = await createUser({
    email: `bench-memory-${crypto.randomBytes(4).toString('hex')}@example.com`,
    name: 'Bench',
    password: 'bench-password-123',
  })
  if (!user) throw new Error('could not create the bench user')
  await db.update(schema.users).set({ onboardingComplete: true }).where(eq(schema.users.id, user.id))
  const session = await createSession(user.id)
  const cookie = (await sessionCookie().serialize(session.id)).split(';')[0]!

  const markdowns = Array.from({ length: POSTS }, (_, n) => samplePost(n))
  const rows = await db
    .insert(schema.blogPosts)
    .values(
      markdowns.map((markdown, n) => ({
        userId: user.id,
        requestKey: `bench-memory-${n}`,
        keyword: `tool ${n}`,
        status: 'completed' as const,
        title: `The founder's guide to tool ${n}`,
        slug: `founders-guide-tool-${n}`,
        metaDescription: 'An honest look at what works.',
        contentMarkdown: markdown,
        ...storedPostBody(markdown),
        jsonLd: buildJsonLd({
          title: `The founder's guide to tool ${n}`,
          description: 'An honest look at what works.',
          language: 'en',
          keyword: `tool ${n}`,
          markdown,
          business: { name: 'Bench', url: 'https://example.com' },
          publishedAt: new Date(),
          modifiedAt: null,
          url: null,
        }),
        completedAt: new Date(),
      })),
    )
    .returning({ id: schema.blogPosts.id })
  const ids = rows.map((r) => r.id)
  const bytes = Buffer.byteLength(markdowns[0]!)

  // A request as server.ts runs it: inside a fresh request scope, the loader of the route.
  const request = (path: string) => new Request(`${process.env.APP_URL}${path}`, { headers: { Cookie: cookie } })
  const inScope = <T>(fn: (scope: RequestScope) => Promise<T>) => {
    const scope = newRequestScope()
    return runInRequestScope(scope, () => fn(scope))
  }
  const args = (path: string, id: string, scope: RequestScope) => ({
    request: request(path),
    params: { id },
    context: { scope, cspNonce: 'bench' },
  })

  const results: ProbeResult[] = []
  const report = (r: ProbeResult) => {
    results.push(r)
    console.log(JSON.stringify({ probe: r, postBytes: bytes }))
  }

  report(
    await measure('post write (sanitize + store)', WRITES, async (i) => {
      const markdown = `${markdowns[i % POSTS]!}\n\nEdit ${i}.`
      await db
        .update(schema.blogPosts)
        .set({ contentMarkdown: markdown, ...storedPostBody(markdown), editedAt: new Date() })
        .where(eq(schema.blogPosts.id, ids[i % POSTS]!))
    }),
  )
  report(
    await measure('post view (loader + JSON)', VIEWS, (i) =>
      inScope(async (scope) => {
        const id = ids[i % POSTS]!
        const res = (await viewLoader(args(`/blogpost/${id}`, id, scope) as never)) as Response
        if (res.status !== 200) throw new Error(`view answered ${res.status}`)
        await res.text()
      }),
    ),
  )
  report(
    await measure('post download (HTML file)', WRITES, (i) =>
      inScope(async (scope) => {
        const id = ids[i % POSTS]!
        const res = await downloadLoader(args(`/blogpost/${id}/download?format=html`, id, scope) as never)
        if (res.status !== 200) throw new Error(`download answered ${res.status}`)
        await res.text()
      }),
    ),
  )
  report(await measure('Markdown to HTML (marked)', VIEWS, (i) => markdownToHtml(markdowns[i % POSTS]!)))
  report(
    await measure('excerpt of a post', VIEWS, (i) =>
      excerpt(markdowns[i % POSTS]!.slice(0, 4000), { title: `The founder's guide to tool ${i % POSTS}` }),
    ),
  )
  report(
    await measure('JSON-LD (build + script)', VIEWS, (i) =>
      jsonLdScript(
        buildJsonLd({
          title: `The founder's guide to tool ${i % POSTS}`,
          description: 'An honest look at what works.',
          language: 'en',
          keyword: `tool ${i % POSTS}`,
          markdown: markdowns[i % POSTS]!,
          business: { name: 'Bench', url: 'https://example.com' },
          publishedAt: new Date(),
          modifiedAt: null,
          url: null,
        }),
      ),
    ),
  )
  await db.delete(schema.users).where(eq(schema.users.id, user.id))
}

try {
  await main()
} finally {
  await closeDb()
  await closeRedis()
}
