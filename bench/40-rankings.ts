import { RANKINGS_PAGE_SIZE } from '#app/features/rankings/rankings'
import { issueApiToken } from '#app/features/accounts/api-auth.server'
import { sqlClient } from '#app/platform/db/client.server'
import { createSession, sessionCookie } from '#app/features/accounts/session.server'
import { premiumBenchUser } from './fixtures'
import { load, memoryMiB, printTable, type BenchContext } from './context'

/**
 * Issue 16: /rankings for a Premium user with 200 tracked keywords and 365 days of positions each (73,000 rows),
 * plus Search Console rows. Target: p50 under 50 ms (one query per table, no N+1).
 */
const KEYWORDS = 200
const DAYS = 365

export default async function rankings(ctx: BenchContext) {
  const user = await premiumBenchUser('rankings', 'Bench Rankings')
  const q = sqlClient()
  const started = Date.now()
  await q`
    insert into tracked_keywords (user_id, keyword, keyword_norm, country_code, language_code, country_name, starred, best_position)
    select ${user.id}, 'bench keyword ' || i, 'bench keyword ' || i, case when i % 4 = 0 then '2826' else '2840' end, '1000',
      case when i % 4 = 0 then 'United Kingdom' else 'United States' end, true, 1 + (i % 30)
    from generate_series(1, ${KEYWORDS}) as i`
  await q`
    insert into keyword_positions (tracked_keyword_id, day, status, position, url)
    select t.id, to_char(current_date - d, 'YYYY-MM-DD'),
      case when (d + length(t.keyword)) % 29 = 0 then 'error' when (d * 7 + length(t.keyword)) % 11 = 0 then 'not_ranked' else 'ranked' end,
      case when (d + length(t.keyword)) % 29 = 0 or (d * 7 + length(t.keyword)) % 11 = 0 then null
        else 1 + ((d * 13 + length(t.keyword) * 7) % 60) end,
      'https://bench.example/blog/' || replace(t.keyword, ' ', '-')
    from tracked_keywords t cross join generate_series(0, ${DAYS - 1}) as d
    where t.user_id = ${user.id}`
  await q`analyze keyword_positions`
  await q`analyze tracked_keywords`
  console.log(
    `seeded ${KEYWORDS} tracked keywords × ${DAYS} days = ${KEYWORDS * DAYS} positions in ${Date.now() - started} ms`,
  )

  const session = await createSession(user.id)
  const cookie = (await sessionCookie().serialize(session.id)).split(';')[0]!
  const token = await issueApiToken({ id: user.id, onboardingComplete: true })
  const headers = { Cookie: cookie }
  const page = await fetch(`${ctx.appUrl}/rankings`, { headers })
  const html = await page.text()
  const rows = html.match(/data-testid="ranking-row"/g)?.length ?? 0
  // The table pages at RANKINGS_PAGE_SIZE rows, newest movers first: the movers of all 200 are computed per request.
  if (page.status !== 200 || rows !== RANKINGS_PAGE_SIZE || !html.includes(`of ${KEYWORDS} tracked keywords`))
    throw new Error(`unexpected /rankings answer: ${page.status}, ${rows} rows`)
  for (let i = 0; i < 30; i++) await fetch(`${ctx.appUrl}/rankings`, { headers }).then((r) => r.text())
  console.log(
    `GET /rankings: ${(html.length / 1024).toFixed(0)} KiB of HTML, ${rows} of ${KEYWORDS} rows with sparklines on a page`,
  )
  const results = [
    await load('GET /rankings (1 connection)', `${ctx.appUrl}/rankings`, { headers, connections: 1, duration: 8 }),
    await load('GET /rankings?page=4 (1 conn.)', `${ctx.appUrl}/rankings?page=4`, {
      headers,
      connections: 1,
      duration: 5,
    }),
    await load('GET /rankings?market=2826 (1 conn.)', `${ctx.appUrl}/rankings?market=2826`, {
      headers,
      connections: 1,
      duration: 5,
    }),
    await load('GET /api/rankings (1 conn.)', `${ctx.appUrl}/api/rankings`, {
      headers: { Authorization: `Bearer ${token}` },
      connections: 1,
      duration: 5,
    }),
    await load('GET /rankings (10 connections)', `${ctx.appUrl}/rankings`, { headers, connections: 10, duration: 6 }),
  ]
  printTable(results)
  console.log('target: GET /rankings p50 under 50 ms for 200 tracked keywords × 365 days (the 1-connection row)')
  const mem = memoryMiB(ctx.webPid)
  console.log(`web process memory: ${mem.rss.toFixed(0)} MiB resident now, ${mem.peak.toFixed(0)} MiB peak`)
}
