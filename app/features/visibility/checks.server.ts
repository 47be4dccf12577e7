import type { TransactionSql } from 'postgres'
import { sqlClient } from '#app/platform/db/client.server'
import { addDays, utcDay } from '#app/platform/dates'
import { services } from '#app/platform/env.server'
import { hourlyShare, retryAt, STALE_CLAIM_MS } from '#app/platform/work/daily-units'
import { matchAnswer, nameFromDomain, type AnswerReference } from './matching'
import { fetchAiMode, fetchAiOverview } from './providers/ai-overview.server'
import { fetchLlmAnswer, LLM_PLATFORMS, type LlmEngine } from './providers/llm-responses.server'
import type { ProviderAnswer } from './providers/answer'
import { usageMonth } from './usage.server'
import { AI_VISIBILITY_LIMITS, isoWeek, KEYWORD_ENGINES, PROMPT_ENGINES, SAMPLES, type AiEngine } from './visibility'

/**
 * The daily AI visibility checks (issue 37, decision 0370). Each UTC day the planner puts one unit of work in ai_checks
 * per engine, subject (a tracked keyword, or an active prompt), market, day and sample, `on conflict do nothing` on
 * the unit index, so every user and worker shares ONE provider call per unit. Units are claimed as rank checks are
 * (SKIP LOCKED, stale claims taken over, retries later the same day) and spread over the day by the hourly tick; a
 * few run at once (AI_CHECK_CONCURRENCY). A done unit fans out to ai_results for every user whose tracked keyword or
 * active prompt it answers (their brand, domain and competitors matched by ./matching.ts) and rewrites their
 * ai_weekly rows, in one transaction; a unit failed for good writes 'gap' results (never a made-up rate). One AI
 * check per subject and day is charged in ai_check_usage when its first answer is written; a user over the month's
 * limit is skipped (no unit planned for them alone, no result written), not failed.
 */

/** Attempts of one unit within its day before it is recorded as a gap. */
export const MAX_AI_CHECK_ATTEMPTS = 4
/** Units of one run in flight at once (DataForSEO allows 30 concurrent live LLM tasks per platform and account). */
export const AI_CHECK_CONCURRENCY = 8

type Unit = {
  id: string
  kind: 'keyword' | 'prompt'
  engine: AiEngine
  subject_norm: string
  subject: string
  country_code: string
  language_code: string
  day: string
  sample: number
  attempts: number
}

/** Users whose AI checks of this month are below their plan's limit (SQL, for the planner). */
function eligibleUsers(day: string) {
  const q = sqlClient()
  return q`
    select u.id from users u
    left join subscriptions s on s.user_id = u.id
    left join ai_check_usage k on k.user_id = u.id and k.month = ${usageMonth(day)}
    where coalesce(k.used, 0) < case when s.status in ('active', 'past_due')
      then ${AI_VISIBILITY_LIMITS.premium.checksPerMonth}::int else ${AI_VISIBILITY_LIMITS.trial.checksPerMonth}::int end`
}

/**
 * Puts the day's units on the list: Google's two engines for every distinct tracked keyword and market, the four
 * assistants for every distinct active prompt and market, samples 0..n-1 where n is the largest `samples` among its
 * users. Idempotent; units already planned (by another worker, or an earlier tick) are left as they are.
 */
export async function planAiChecks(day: string) {
  const q = sqlClient()
  const keywords = await q`
    insert into ai_checks (kind, engine, subject_norm, subject, country_code, language_code, day, sample)
    select 'keyword', e.engine, t.keyword_norm, min(t.keyword), t.country_code, t.language_code, ${day}, 0
    from tracked_keywords t
    join (${eligibleUsers(day)}) ok on ok.id = t.user_id
    cross join unnest(${[...KEYWORD_ENGINES]}::text[]) as e(engine)
    group by e.engine, t.keyword_norm, t.country_code, t.language_code
    on conflict do nothing
    returning id`
  const prompts = await q`
    insert into ai_checks (kind, engine, subject_norm, subject, country_code, language_code, day, sample)
    select 'prompt', e.engine, p.text_norm, min(p.text), p.country_code, p.language_code, ${day}, g.sample
    from ai_prompts p
    join (${eligibleUsers(day)}) ok on ok.id = p.user_id
    left join ai_visibility_settings s on s.user_id = p.user_id
    cross join unnest(${[...PROMPT_ENGINES]}::text[]) as e(engine)
    cross join lateral generate_series(0, least(${SAMPLES.max}::int, greatest(${SAMPLES.min}::int,
      coalesce(s.samples, ${SAMPLES.default}::int))) - 1) as g(sample)
    where p.status = 'active'
    group by e.engine, p.text_norm, p.country_code, p.language_code, g.sample
    on conflict do nothing
    returning id`
  return { planned: keywords.length + prompts.length }
}

/** Units of earlier days that never succeeded become gaps. */
export async function closeEarlierAiDays(day: string) {
  const open = await sqlClient()<Unit[]>`
    update ai_checks set status = 'failed', error = coalesce(error, 'not checked within the day')
    where day < ${day} and status in ('pending', 'running')
    returning id, kind, engine, subject_norm, subject, country_code, language_code, day, sample, attempts`
  for (const unit of open) await writeResults(unit, null)
  return { closed: open.length }
}

async function claimNext(day: string, at: Date): Promise<Unit | undefined> {
  const now = at.toISOString()
  const staleBefore = new Date(at.getTime() - STALE_CLAIM_MS).toISOString()
  const [row] = await sqlClient()<Unit[]>`
    update ai_checks c set status = 'running', claimed_at = ${now}, attempts = c.attempts + 1
    from (
      select id from ai_checks
      where day = ${day} and (
        (status = 'pending' and (next_attempt_at is null or next_attempt_at <= ${now}))
        or (status = 'running' and claimed_at < ${staleBefore}))
      order by sample, kind, subject_norm, engine
      limit 1
      for update skip locked
    ) n
    where c.id = n.id
    returning c.id, c.kind, c.engine, c.subject_norm, c.subject, c.country_code, c.language_code, c.day, c.sample,
      c.attempts`
  return row
}

function ask(unit: Unit): Promise<ProviderAnswer> {
  const market = { countryCode: unit.country_code, languageCode: unit.language_code }
  if (unit.engine === 'google_ai_overview') return fetchAiOverview({ keyword: unit.subject, ...market })
  if (unit.engine === 'google_ai_mode') return fetchAiMode({ keyword: unit.subject, ...market })
  if (unit.engine in LLM_PLATFORMS) return fetchLlmAnswer(unit.engine as LlmEngine, { prompt: unit.subject, ...market })
  return Promise.reject(new Error(`no provider for ${unit.engine}`))
}

type Holder = {
  user_id: string
  subject_id: string
  website: string | null
  brand_aliases: string[] | null
  competitor_domains: string[] | null
  status: string | null
}

/** The users a unit answers for: their tracked keyword or active prompt in its market (prompts: within their samples). */
async function holders(tx: TransactionSql, unit: Unit) {
  if (unit.kind === 'keyword')
    return tx<Holder[]>`
      select t.user_id, t.id as subject_id, u.website, s.brand_aliases, s.competitor_domains, b.status
      from tracked_keywords t
      join users u on u.id = t.user_id
      left join ai_visibility_settings s on s.user_id = t.user_id
      left join subscriptions b on b.user_id = t.user_id
      where t.keyword_norm = ${unit.subject_norm} and t.country_code = ${unit.country_code}
        and t.language_code = ${unit.language_code}
      order by t.user_id`
  return tx<Holder[]>`
    select p.user_id, p.id as subject_id, u.website, s.brand_aliases, s.competitor_domains, b.status
    from ai_prompts p
    join users u on u.id = p.user_id
    left join ai_visibility_settings s on s.user_id = p.user_id
    left join subscriptions b on b.user_id = p.user_id
    where p.text_norm = ${unit.subject_norm} and p.country_code = ${unit.country_code}
      and p.language_code = ${unit.language_code} and p.status = 'active'
      and ${unit.sample}::int < coalesce(s.samples, ${SAMPLES.default}::int)
    order by p.user_id`
}

const monthlyLimit = (status: string | null) =>
  status === 'active' || status === 'past_due'
    ? AI_VISIBILITY_LIMITS.premium.checksPerMonth
    : AI_VISIBILITY_LIMITS.trial.checksPerMonth

/**
 * Writes what one unit means for each of its users (`answer` null: the unit failed for good, a 'gap') and rewrites
 * their weeks, in one transaction. The first answer of a subject and day is charged to its user; a user over the
 * month's limit with nothing of that subject written that day is skipped.
 */
async function writeResults(unit: Unit, answer: ProviderAnswer | null) {
  await sqlClient().begin(async (tx) => {
    const week = isoWeek(unit.day)
    const weekEnd = addDays(week, 6)
    const month = usageMonth(unit.day)
    const column = tx(unit.kind === 'keyword' ? 'tracked_keyword_id' : 'prompt_id')
    let written = 0
    for (const h of await holders(tx, unit)) {
      // One user's charge and limit are decided under their own lock (users in id order: no deadlock).
      await tx`select pg_advisory_xact_lock(hashtext(${`ai-usage:${h.user_id}`}))`
      const [state] = await tx<{ charged: boolean; started: boolean; used: number }[]>`
        select
          exists (select 1 from ai_results where user_id = ${h.user_id} and day = ${unit.day}
            and ${column} = ${h.subject_id} and status = 'ok') as charged,
          exists (select 1 from ai_results where user_id = ${h.user_id} and day = ${unit.day}
            and ${column} = ${h.subject_id}) as started,
          coalesce((select used from ai_check_usage where user_id = ${h.user_id} and month = ${month}), 0) as used`
      if (!state) continue
      const over = state.used >= monthlyLimit(h.status)
      if (!state.started && over) continue
      if (answer && !state.charged) {
        if (over) continue
        await tx`
          insert into ai_check_usage (user_id, month, used) values (${h.user_id}, ${month}, 1)
          on conflict (user_id, month) do update set used = ai_check_usage.used + 1`
      }
      const domain = h.website
      const brandNames = [...(h.brand_aliases ?? []), ...[nameFromDomain(domain)].filter((n): n is string => !!n)]
      const match = answer
        ? matchAnswer(
            { text: answer.text, references: answer.references },
            { brandNames, domain, competitorDomains: h.competitor_domains ?? [] },
          )
        : null
      const inserted = await tx`
        insert into ai_results (user_id, check_id, subject_kind, tracked_keyword_id, prompt_id, engine, day, sample,
          status, present, mentioned, cited, cited_url, cited_position, competitors_mentioned, competitors_cited)
        values (${h.user_id}, ${unit.id}, ${unit.kind}, ${unit.kind === 'keyword' ? h.subject_id : null},
          ${unit.kind === 'prompt' ? h.subject_id : null}, ${unit.engine}, ${unit.day}, ${unit.sample},
          ${answer ? 'ok' : 'gap'}, ${answer?.present ?? false}, ${match?.mentioned ?? false}, ${match?.cited ?? false},
          ${match?.citedUrl ?? null}, ${match?.citedPosition ?? null}, ${match?.competitorsMentioned ?? []}::text[],
          ${match?.competitorsCited ?? []}::text[])
        on conflict (user_id, check_id) do nothing
        returning check_id`
      if (inserted.length === 0) continue
      written++
      await tx`
        insert into ai_weekly (user_id, subject_kind, subject_id, engine, week, answers, gaps, present, mentioned, cited,
          cited_urls, competitors)
        select ${h.user_id}, ${unit.kind}, ${h.subject_id}, ${unit.engine}, ${week},
          count(*) filter (where r.status = 'ok')::int,
          count(*) filter (where r.status = 'gap')::int,
          count(*) filter (where r.status = 'ok' and r.present)::int,
          count(*) filter (where r.status = 'ok' and r.mentioned)::int,
          count(*) filter (where r.status = 'ok' and r.cited)::int,
          coalesce((select jsonb_object_agg(u.url, u.n) from (
            select x.cited_url as url, count(*)::int as n from ai_results x
            where x.user_id = ${h.user_id} and x.${column} = ${h.subject_id} and x.engine = ${unit.engine}
              and x.day between ${week} and ${weekEnd} and x.status = 'ok' and x.cited_url is not null
            group by x.cited_url) u), '{}'::jsonb),
          coalesce((select jsonb_object_agg(c.domain, c.n) from (
            select d.domain, count(*)::int as n from ai_results x
            cross join lateral (select distinct unnest(x.competitors_mentioned || x.competitors_cited) as domain) d
            where x.user_id = ${h.user_id} and x.${column} = ${h.subject_id} and x.engine = ${unit.engine}
              and x.day between ${week} and ${weekEnd} and x.status = 'ok'
            group by d.domain) c), '{}'::jsonb)
        from ai_results r
        where r.user_id = ${h.user_id} and r.${column} = ${h.subject_id} and r.engine = ${unit.engine}
          and r.day between ${week} and ${weekEnd}
        on conflict (user_id, subject_kind, subject_id, engine, week) do update set
          answers = excluded.answers, gaps = excluded.gaps, present = excluded.present,
          mentioned = excluded.mentioned, cited = excluded.cited, cited_urls = excluded.cited_urls,
          competitors = excluded.competitors`
    }
    return written
  })
}

export type AiCheckRunResult = { checked: number; failed: number; retrying: number; stoppedBecause?: string }

/** One claimed unit: the provider call, then its results (or a retry later that day, or a gap after the last try). */
async function runUnit(unit: Unit, now: Date, result: AiCheckRunResult) {
  let answer: ProviderAnswer
  try {
    answer = await ask(unit)
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500)
    if (unit.attempts >= MAX_AI_CHECK_ATTEMPTS) {
      const [failed] = await sqlClient()`
        update ai_checks set status = 'failed', error = ${reason} where id = ${unit.id} and status = 'running'
        returning id`
      if (failed) await writeResults(unit, null)
      result.failed++
    } else {
      await sqlClient()`
        update ai_checks set status = 'pending', error = ${reason}, next_attempt_at = ${retryAt(now, unit.attempts).toISOString()}
        where id = ${unit.id} and status = 'running'`
      result.retrying++
    }
    return
  }
  const [done] = await sqlClient()`
    update ai_checks set status = 'done', error = null, present = ${answer.present}, answer_text = ${answer.text},
      "references" = ${JSON.stringify(answer.references satisfies AnswerReference[])}::jsonb, fetched_at = now()
    where id = ${unit.id} and status = 'running'
    returning id`
  // A worker that took over this unit's stale claim finished it first: its results stand.
  if (done) await writeResults(unit, answer)
  result.checked++
}

/**
 * Works through up to `max` of the day's units, AI_CHECK_CONCURRENCY at a time. Without DataForSEO nothing is
 * claimed.
 */
export async function runAiChecks(opts: { day: string; now: Date; max: number; concurrency?: number }) {
  const result: AiCheckRunResult = { checked: 0, failed: 0, retrying: 0 }
  if (!services().dataforseo) return { ...result, stoppedBecause: 'not_configured' }
  let taken = 0
  const lane = async () => {
    while (taken < opts.max) {
      taken++
      const unit = await claimNext(opts.day, opts.now)
      if (!unit) return
      await runUnit(unit, opts.now, result)
    }
  }
  const lanes = Math.max(1, Math.min(opts.concurrency ?? AI_CHECK_CONCURRENCY, opts.max))
  await Promise.all(Array.from({ length: lanes }, lane))
  return result
}

/**
 * The hourly tick: closes earlier days, plans today, and works through today's share of the open units, so that the
 * day's checks are spread over the hours left (the last hour takes whatever is left).
 */
export async function aiVisibilityTick(now: Date) {
  const day = utcDay(now)
  const closed = await closeEarlierAiDays(day)
  const planned = await planAiChecks(day)
  const [open] = await sqlClient()<{ n: number }[]>`
    select count(*)::int as n from ai_checks where day = ${day} and status in ('pending', 'running')`
  const run = await runAiChecks({ day, now, max: hourlyShare(open?.n ?? 0, now) })
  return { day, ...closed, ...planned, open: open?.n ?? 0, ...run }
}
