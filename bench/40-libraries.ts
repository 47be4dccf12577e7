import crypto from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { issueApiToken } from '#app/features/accounts/api-auth.server'
import { postListSchema } from '#app/features/content/library'
import { keywordListSchema } from '#app/features/keywords/keyword-library'
import { db, schema } from '#app/platform/db/client.server'
import { pagePosts, pagePostsJson } from '#app/features/content/library.server'
import { pageKeywords } from '#app/features/keywords/keyword-library.server'
import { createSession, sessionCookie } from '#app/features/accounts/session.server'
import { createUser } from '#app/features/accounts/users.server'
import { load, type BenchContext } from './context'

/**
 * Issue 21: the libraries at any size. A large account (100,000 saved keywords, 2,000 posts of about 6 kB each)
 * next to a small one (10 posts, 50 keywords or BENCH_SMALL_KEYWORDS): p50 of /blogposts, /keywords, each search and filter, and the two
 * APIs, for both accounts. Targets: the large account within 1.5x of the small one, and under 50 ms p50.
 * Light load (2 connections), so the figures are latency rather than throughput. The last two columns are the
 * queries alone, run in the bench process (p50 of 25 calls), which a busy shared machine disturbs less.
 * The last column is how many rows (cards, keywords, API items) each account's page holds: a small account's
 * filtered page can hold a few rows where the large one's holds a full page, and the page's cost follows its rows.
 * BENCH_ROUTES (row names, comma-separated) runs only those rows.
 */
const BIG_KEYWORDS = 100_000
const BIG_POSTS = 2_000
// BENCH_SMALL_KEYWORDS: the small account's keywords (default 50, one page). With 1,000 most keyword filters fill a
// page in both accounts, so that those rows compare pages of the same size between a small and a large account.
const SMALL_KEYWORDS = Number(process.env.BENCH_SMALL_KEYWORDS ?? 50)
const SMALL_POSTS = 10
const CONNECTIONS = 2
const DURATION_S = 3

async function benchUser(label: string) {
  const user = await createUser({
    email: `bench-lib-${label}-${crypto.randomBytes(4).toString('hex')}@example.com`,
    name: 'Bench',
    password: 'bench-password-123',
  })
  if (!user) throw new Error('could not create the bench user')
  await db.update(schema.users).set({ onboardingComplete: true }).where(eq(schema.users.id, user.id))
  await db.update(schema.subscriptions).set({ status: 'active' }).where(eq(schema.subscriptions.userId, user.id))
  const session = await createSession(user.id)
  const cookie = (await sessionCookie().serialize(session.id)).split(';')[0]!
  const token = await issueApiToken({ id: user.id, onboardingComplete: true })
  return { id: user.id, cookie, token }
}

/** Rows made in SQL (generate_series): keywords over 5 markets and a year of dates, posts a few hours apart. */
async function fill(userId: string, keywords: number, posts: number) {
  // Seeding 100,000 rows takes longer than the app's statement timeout (DATABASE_STATEMENT_TIMEOUT_MS): lifted here only.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`)
    await fillRows(tx, userId, keywords, posts)
  })
}

async function fillRows(tx: Pick<typeof db, 'execute'>, userId: string, keywords: number, posts: number) {
  await tx.execute(sql`
    insert into saved_keywords (user_id, keyword, country_code, country_name, language_code, language_name,
      avg_monthly_searches, difficulty_score, source, seed_query, created_at, updated_at)
    select ${userId}::uuid,
      'topic ' || (g % 997) || ' idea ' || md5(g::text),
      (array['2840','2276','2250','2826','2724'])[1 + g % 5],
      (array['United States','Germany','France','United Kingdom','Spain'])[1 + g % 5],
      (array['1000','1001','1002','1000','1003'])[1 + g % 5],
      (array['English','German','French','English','Spanish'])[1 + g % 5],
      case when g % 50 = 0 then null else (g * 7919) % 100000 end,
      case when g % 40 = 0 then null else (g * 31) % 100 end,
      'dataforseo', 'topic ' || (g % 997),
      now() - ((g / 40) || ' hours')::interval, now()
    from generate_series(1, ${keywords}) g`)
  await tx.execute(sql`
    insert into blog_posts (user_id, request_key, source, status, keyword, language, title, content_markdown,
      content_html, created_at)
    select ${userId}::uuid, 'bench-' || g, case when g % 3 = 0 then 'autopilot' else 'manual' end,
      (case when g % 25 = 0 then 'failed' else 'completed' end)::post_status,
      'topic ' || (g % 997), case when g % 4 = 0 then 'German' else 'English' end,
      'How to grow with topic ' || (g % 997) || ' number ' || g,
      '# Post ' || g || E'\n\n' || repeat('Organic growth takes patient, useful content. ', 130),
      '<h1>Post ' || g || '</h1>' || repeat('<p>Organic growth takes patient, useful content.</p>', 130),
      now() - (g || ' hours')::interval
    from generate_series(1, ${posts}) g`)
}

type Account = Awaited<ReturnType<typeof benchUser>>

export default async function libraries(ctx: BenchContext) {
  const big = await benchUser('big')
  const small = await benchUser('small')
  const started = Date.now()
  await fill(big.id, BIG_KEYWORDS, BIG_POSTS)
  await fill(small.id, SMALL_KEYWORDS, SMALL_POSTS)
  // What autovacuum does in production after a bulk load: statistics and the visibility map (index-only counts).
  await db.execute(sql`vacuum analyze saved_keywords`)
  await db.execute(sql`vacuum analyze blog_posts`)
  console.log(`filled the accounts in ${((Date.now() - started) / 1000).toFixed(1)} s`)

  // A cursor deep in the large account (its 1,900th post), to show that a late page costs what the first does.
  const deepCursor = async (account: Account) => {
    let cursor: string | null = null
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${ctx.appUrl}/api/blogposts?limit=475${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { Authorization: `Bearer ${account.token}` },
      })
      const body = (await res.json()) as { nextCursor: string | null }
      if (!body.nextCursor) break
      cursor = body.nextCursor
    }
    return cursor
  }
  const cursors = { big: await deepCursor(big), small: null as string | null }

  const allRoutes: Array<{ name: string; path: (which: 'big' | 'small') => string; api?: boolean }> = [
    { name: '/blogposts', path: () => '/blogposts' },
    { name: '/blogposts search', path: () => '/blogposts?q=topic%2042' },
    { name: '/blogposts status=ready', path: () => '/blogposts?status=ready' },
    { name: '/blogposts status=failed', path: () => '/blogposts?status=failed' },
    { name: '/blogposts source=autopilot', path: () => '/blogposts?source=autopilot' },
    { name: '/blogposts language=German', path: () => '/blogposts?language=German' },
    {
      name: '/blogposts late page',
      path: (w) => (cursors[w] ? `/blogposts?cursor=${cursors[w]}` : '/blogposts'),
    },
    { name: '/keywords', path: () => '/keywords' },
    { name: '/keywords search', path: () => '/keywords?q=idea%20ab' },
    { name: '/keywords difficulty=easy', path: () => '/keywords?difficulty=easy' },
    { name: '/keywords volume 1k-5k', path: () => '/keywords?minVolume=1000&maxVolume=5000' },
    { name: '/keywords market DE/de', path: () => '/keywords?country=2276&language=1001' },
    { name: '/keywords sort=volume', path: () => '/keywords?sort=volume' },
    { name: '/keywords sort=keyword', path: () => '/keywords?sort=keyword' },
    { name: '/keywords sort=difficulty', path: () => '/keywords?sort=difficulty' },
    { name: 'GET /api/blogposts?limit=50', path: () => '/api/blogposts?limit=50', api: true },
    { name: 'GET /api/blogposts (500)', path: () => '/api/blogposts', api: true },
    { name: 'GET /api/saved-keywords?limit=50', path: () => '/api/saved-keywords?limit=50', api: true },
    { name: 'GET /api/saved-keywords (500)', path: () => '/api/saved-keywords', api: true },
    { name: 'GET /api/saved-keywords search', path: () => '/api/saved-keywords?q=idea%20ab&limit=50', api: true },
  ]
  // BENCH_ROUTES (comma-separated row names, e.g. `/keywords,/keywords search`) limits the run to those rows.
  const only = process.env.BENCH_ROUTES ? new Set(process.env.BENCH_ROUTES.split(',')) : undefined
  const routes = allRoutes.filter((r) => !only || only.has(r.name))

  /** The same list read in this process (the queries alone, no HTTP or rendering): p50 of 25 calls. */
  const queryP50 = async (account: Account, which: 'big' | 'small', path: string) => {
    const url = new URL(path, 'http://x')
    const isPosts = url.pathname.includes('blogposts')
    const isApi = url.pathname.startsWith('/api/')
    const params = Object.fromEntries(url.searchParams)
    const times: number[] = []
    let shown = 0
    for (let i = 0; i < 25; i++) {
      const started = performance.now()
      if (isPosts) {
        const parsed = postListSchema.parse(params)
        if (isApi) shown = (await pagePostsJson(account.id, parsed, parsed.limit ?? 500)).items.length
        else shown = (await pagePosts(account.id, parsed, { limit: parsed.limit ?? 20 })).rows.length
      } else {
        const parsed = keywordListSchema.parse(params)
        const page = await pageKeywords(account.id, parsed, { limit: parsed.limit ?? (isApi ? 500 : 50) })
        shown = page.rows.length
      }
      times.push(performance.now() - started)
    }
    void which
    times.sort((a, b) => a - b)
    return { p50: Math.round(times[12]! * 10) / 10, shown }
  }

  const rows: Array<{
    name: string
    small: number
    big: number
    non2xx: number
    qSmall: { p50: number; shown: number }
    qBig: { p50: number; shown: number }
  }> = []
  for (const route of routes) {
    const run = (account: Account, which: 'big' | 'small') =>
      load(route.name, `${ctx.appUrl}${route.path(which)}`, {
        connections: CONNECTIONS,
        duration: DURATION_S,
        headers: route.api ? { Authorization: `Bearer ${account.token}` } : { Cookie: account.cookie },
      })
    const s = await run(small, 'small')
    const b = await run(big, 'big')
    const qSmall = await queryP50(small, 'small', route.path('small'))
    const qBig = await queryP50(big, 'big', route.path('big'))
    rows.push({
      name: route.name,
      small: s.p50,
      big: b.p50,
      non2xx: s.non2xx + b.non2xx + s.errors + b.errors,
      qSmall,
      qBig,
    })
  }

  console.log(
    `\nLibraries: ${BIG_KEYWORDS.toLocaleString('en-US')} keywords + ${BIG_POSTS.toLocaleString('en-US')} posts vs ` +
      `${SMALL_POSTS} posts + ${SMALL_KEYWORDS} keywords; p50 in ms, ${CONNECTIONS} connections, ${DURATION_S} s each`,
  )
  console.log(
    'route'.padEnd(36) +
      'small'.padStart(8) +
      'large'.padStart(8) +
      'ratio'.padStart(8) +
      '  target: ≤1.5x (or ≤1 ms apart), <50 ms' +
      'errors'.padStart(8) +
      'query small'.padStart(13) +
      'query large'.padStart(13) +
      'rows small/large'.padStart(18),
  )
  for (const r of rows) {
    const ratio = r.small > 0 ? r.big / r.small : r.big > 0 ? Infinity : 1
    const met = (ratio <= 1.5 || r.big - r.small <= 1) && r.big < 50
    console.log(
      r.name.padEnd(36) +
        String(r.small).padStart(8) +
        String(r.big).padStart(8) +
        (Number.isFinite(ratio) ? ratio.toFixed(2) : '∞').padStart(8) +
        (met ? '  met' : '  NOT met').padEnd(28) +
        String(r.non2xx).padStart(8) +
        String(r.qSmall.p50).padStart(13) +
        String(r.qBig.p50).padStart(13) +
        `${r.qSmall.shown}/${r.qBig.shown}`.padStart(18),
    )
  }
}
