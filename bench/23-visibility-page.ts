import { issueApiToken } from '#app/features/accounts/api-auth.server'
import { sqlClient } from '#app/platform/db/client.server'
import { createSession, sessionCookie } from '#app/features/accounts/session.server'
import { weeksEnding } from '#app/features/visibility/read.server'
import { premiumBenchUser } from './fixtures'
import { load, printTable, type BenchContext } from './context'

/**
 * Issue 37: /rankings/ai for a Premium account with 200 tracked keywords, 365 days of positions, 20 prompts and a
 * year of weekly AI figures (53 weeks × (200 keywords × 2 engines + 20 prompts × 4 engines) = 25,440 ai_weekly rows),
 * against /rankings on the same data. Target: /rankings/ai within 2x of /rankings (p50, one connection).
 */
const KEYWORDS = 200
const DAYS = 365
const PROMPTS = 20
const WEEKS = 53

export default async function visibilityPage(ctx: BenchContext) {
  const user = await premiumBenchUser('ai', 'Bench AI visibility')
  const q = sqlClient()
  const started = Date.now()
  await q`
    insert into tracked_keywords (user_id, keyword, keyword_norm, country_code, language_code, country_name, starred, best_position)
    select ${user.id}, 'bench ai keyword ' || i, 'bench ai keyword ' || i, '2840', '1000', 'United States', true, 1 + (i % 30)
    from generate_series(1, ${KEYWORDS}) as i`
  await q`
    insert into keyword_positions (tracked_keyword_id, day, status, position, url)
    select t.id, to_char(current_date - d, 'YYYY-MM-DD'),
      case when (d + length(t.keyword)) % 29 = 0 then 'error' else 'ranked' end,
      case when (d + length(t.keyword)) % 29 = 0 then null else 1 + ((d * 13 + length(t.keyword) * 7) % 60) end,
      'https://bench.example/blog/' || replace(t.keyword, ' ', '-')
    from tracked_keywords t cross join generate_series(0, ${DAYS - 1}) as d
    where t.user_id = ${user.id}`
  await q`
    insert into ai_prompts (user_id, text, text_norm, country_code, language_code, status)
    select ${user.id}, 'Which tool should a small business use for task ' || i || '?',
      'which tool should a small business use for task ' || i || '?', '2840', '1000', 'active'
    from generate_series(1, ${PROMPTS}) as i`
  const weeks = weeksEnding(new Date(), WEEKS)
  await q`
    insert into ai_weekly (user_id, subject_kind, subject_id, engine, week, answers, gaps, present, mentioned, cited, cited_urls, competitors)
    select ${user.id}, s.kind, s.id, e.engine, w.week, 7, (w.n % 5 = 0)::int,
      (w.n + length(s.id::text)) % 8, (w.n * 3) % 8, (w.n * 5 + 1) % 8,
      jsonb_build_object('https://bench.example/blog/page-' || (w.n % 7), (w.n * 5 + 1) % 8),
      jsonb_build_object('rival' || (w.n % 4) || '.com', 2, 'other.io', 1)
    from (
      select 'keyword' as kind, id, array['google_ai_overview', 'google_ai_mode'] as engines from tracked_keywords where user_id = ${user.id}
      union all
      select 'prompt', id, array['chatgpt', 'perplexity', 'gemini', 'claude'] from ai_prompts where user_id = ${user.id}
    ) s
    cross join lateral unnest(s.engines) as e(engine)
    cross join unnest(${weeks}::text[]) with ordinality as w(week, n)`
  await q`analyze keyword_positions`
  await q`analyze tracked_keywords`
  await q`analyze ai_weekly`
  const [{ n } = { n: 0 }] = await q<
    { n: number }[]
  >`select count(*)::int as n from ai_weekly where user_id = ${user.id}`
  console.log(
    `seeded ${KEYWORDS} keywords × ${DAYS} days, ${PROMPTS} prompts, ${n} ai_weekly rows in ${Date.now() - started} ms`,
  )

  const session = await createSession(user.id)
  const cookie = (await sessionCookie().serialize(session.id)).split(';')[0]!
  const token = await issueApiToken({ id: user.id, onboardingComplete: true })
  const headers = { Cookie: cookie }
  const page = await fetch(`${ctx.appUrl}/rankings/ai`, { headers })
  const html = await page.text()
  const subjects = html.match(/data-testid="ai-subject"/g)?.length ?? 0
  if (page.status !== 200 || !html.includes('answers this week ('))
    throw new Error(`unexpected /rankings/ai: ${page.status}`)
  // Warm both pages (the build's first requests compile nothing, but the statements get prepared and cached).
  for (let i = 0; i < 20; i++) {
    await fetch(`${ctx.appUrl}/rankings`, { headers }).then((r) => r.text())
    await fetch(`${ctx.appUrl}/rankings/ai`, { headers }).then((r) => r.text())
  }
  console.log(`GET /rankings/ai: ${(html.length / 1024).toFixed(0)} KiB of HTML, ${subjects} subjects on a page`)
  const results = [
    await load('GET /rankings (1 connection)', `${ctx.appUrl}/rankings`, { headers, connections: 1, duration: 6 }),
    await load('GET /rankings/ai (1 connection)', `${ctx.appUrl}/rankings/ai`, {
      headers,
      connections: 1,
      duration: 6,
    }),
    await load('GET /api/ai-visibility (1 conn.)', `${ctx.appUrl}/api/ai-visibility`, {
      headers: { Authorization: `Bearer ${token}` },
      connections: 1,
      duration: 5,
    }),
  ]
  printTable(results)
  const ratio = results[1]!.p50 / Math.max(1, results[0]!.p50)
  console.log(
    `ratio /rankings/ai ÷ /rankings (p50): ${ratio.toFixed(2)}x — target within 2x: ${ratio <= 2 ? 'met' : 'NOT met'}`,
  )
}
