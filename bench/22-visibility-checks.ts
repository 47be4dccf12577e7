import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { AI_CHECK_CONCURRENCY, aiVisibilityTick } from '#app/features/visibility/checks.server'
import { normalizeSubject } from '#app/features/visibility/visibility'
import { db, schema, sqlClient } from '#app/platform/db/client.server'
import { createUser } from '#app/features/accounts/users.server'
import { aiControl } from '#tests/fakes/dataforseo-ai'
import type { BenchContext } from './context'

/**
 * Issue 37: the daily AI visibility check of a Premium account with 200 tracked keywords (Google AI Overview and AI
 * Mode) and 20 prompts × 3 samples × 4 assistants, against the DataForSEO fake at 300 ms per call, run by the tick the
 * worker runs (its last hour of the day takes every open unit) on this one process, AI_CHECK_CONCURRENCY units at
 * a time. Target: under 5 minutes, and exactly one provider call per unit (engine, subject, market, day, sample).
 */
const KEYWORDS = 200
const PROMPTS = 20
const SAMPLES = 3
const LATENCY_MS = 300
const DAY = '2031-06-11'

export default async function visibilityChecks(ctx: BenchContext) {
  const user = await createUser({
    email: `bench-visibility-${crypto.randomBytes(4).toString('hex')}@example.com`,
    name: 'Bench Visibility',
    password: 'correct-horse-battery',
  })
  if (!user) throw new Error('could not create the bench user')
  await db
    .update(schema.users)
    .set({
      onboardingComplete: true,
      website: 'https://bench-visibility.example',
      countryCode: '2840',
      languageCode: '1000',
    })
    .where(eq(schema.users.id, user.id))
  await db.update(schema.subscriptions).set({ status: 'active' }).where(eq(schema.subscriptions.userId, user.id))
  await db.insert(schema.aiVisibilitySettings).values({ userId: user.id, samples: SAMPLES, brandAliases: ['Bench Co'] })
  const q = sqlClient()
  await q`
    insert into tracked_keywords (user_id, keyword, keyword_norm, country_code, language_code, country_name, starred)
    select ${user.id}, 'visibility keyword ' || i, 'visibility keyword ' || i, '2840', '1000', 'United States', true
    from generate_series(1, ${KEYWORDS}) as i`
  const prompts = Array.from({ length: PROMPTS }, (_, i) => `Which tool should a founder pick for task ${i + 1}?`)
  await db.insert(schema.aiPrompts).values(
    prompts.map((text) => ({
      userId: user.id,
      text,
      textNorm: normalizeSubject(text),
      countryCode: '2840',
      languageCode: '1000',
    })),
  )

  const ai = aiControl(ctx.fakes)
  await ai.latency(LATENCY_MS)
  await ai.resetCalls()
  try {
    const started = performance.now()
    const result = await aiVisibilityTick(new Date(`${DAY}T23:20:00.000Z`))
    const seconds = (performance.now() - started) / 1000
    const [units] = await q<{ n: number; done: number }[]>`
      select count(*)::int as n, count(*) filter (where status = 'done')::int as done from ai_checks where day = ${DAY}`
    const { calls, total } = await ai.calls()
    const perUnit = Object.values(calls)
    const expected = KEYWORDS * 2 + PROMPTS * SAMPLES * 4
    console.log(
      `daily AI check: ${KEYWORDS} keywords × 2 Google engines + ${PROMPTS} prompts × ${SAMPLES} samples × 4 assistants = ${expected} units, ${LATENCY_MS} ms per provider call, ${AI_CHECK_CONCURRENCY} at a time on one process`,
    )
    console.log(
      `  wall time ${seconds.toFixed(1)} s (target < 300 s); units planned ${units?.n}, done ${units?.done}; provider calls ${total} (must equal the units)`,
    )
    console.log(
      `  tick: ${JSON.stringify(result)}; subjects×markets called ${perUnit.length}, most calls for one (engine, subject, market) ${Math.max(...perUnit)} (= its samples)`,
    )
    if (units?.n !== expected || units.done !== expected || total !== expected)
      throw new Error(`expected ${expected} units done with one call each; got ${JSON.stringify({ units, total })}`)
    if (seconds >= 300) throw new Error(`the daily AI check took ${seconds.toFixed(1)} s (target < 300 s)`)
  } finally {
    await ai.latency(0)
  }
}
