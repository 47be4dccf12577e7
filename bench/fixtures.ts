import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { createSession, sessionCookie } from '#app/features/accounts/session.server'
import { createUser } from '#app/features/accounts/users.server'
import { KEYWORD_INTENTS, SERP_FEATURES } from '#app/features/keywords/keyword-metrics'
import { db, schema } from '#app/platform/db/client.server'

/** The data several benches share, so that they measure the same thing. */

/**
 * A Premium account done with onboarding, its site https://bench.example in the United States / English (the
 * rankings benches: /rankings and /rankings/ai measure the same account shape).
 */
export async function premiumBenchUser(label: string, name: string) {
  const user = await createUser({
    email: `bench-${label}-${crypto.randomBytes(4).toString('hex')}@example.com`,
    name,
    password: 'correct-horse-battery',
  })
  if (!user) throw new Error('could not create the bench user')
  await db
    .update(schema.users)
    .set({ onboardingComplete: true, website: 'https://bench.example', countryCode: '2840', languageCode: '1000' })
    .where(eq(schema.users.id, user.id))
  await db.update(schema.subscriptions).set({ status: 'active' }).where(eq(schema.subscriptions.userId, user.id))
  return user
}

/** Issue 36's metrics of saved keyword `i`, as a DataForSEO search saves them (a few rows without each). */
export function benchKeywordMetrics(i: number) {
  return {
    intent: i % 9 === 0 ? null : KEYWORD_INTENTS[i % 4],
    intentSource: i % 9 === 0 ? null : ('dataforseo' as const),
    cpc: i % 5 === 0 ? null : ((i * 17) % 1200) / 100,
    cpcCurrency: i % 5 === 0 ? null : 'USD',
    competition: i % 5 === 0 ? null : ((i * 7) % 100) / 100,
    competitionLevel: i % 5 === 0 ? null : (['low', 'medium', 'high'] as const)[i % 3],
    monthlySearches:
      i % 7 === 0
        ? null
        : Array.from({ length: 12 }, (_, m) => ({
            year: 2026,
            month: m + 1,
            searches: ((i + 1) * (m + 3) * 13) % 5000,
          })),
    serpFeatures: SERP_FEATURES.filter((_, f) => (i >> f) % 2 === 1),
    rankedPosition: i % 4 === 0 ? (i % 20) + 1 : null,
    rankedDomain: i % 4 === 0 ? 'example.com' : null,
    rankedUrl: i % 4 === 0 ? `https://example.com/page-${i}` : null,
    competitorDomain: i % 4 === 2 ? 'competitor.com' : null,
    competitorPosition: i % 4 === 2 ? (i % 10) + 1 : null,
  }
}

/**
 * Saved keyword `i` of a bench account: a DataForSEO keyword in the United States / English with every metric (a few
 * rows without volume, difficulty or each metric), a unique text.
 */
export function benchSavedKeyword(userId: string, i: number) {
  return {
    userId,
    keyword: `saved keyword ${i} ${crypto.randomBytes(4).toString('hex')}`,
    countryCode: '2840',
    countryName: 'United States',
    languageCode: '1000',
    languageName: 'English',
    avgMonthlySearches: i % 7 === 0 ? null : (i * 37) % 20000,
    difficultyScore: i % 11 === 0 ? null : (i * 13) % 101,
    source: 'dataforseo' as const,
    seedQuery: 'seed',
    ...benchKeywordMetrics(i),
  }
}

/**
 * The web benches' signed-in user (`npm run bench -- web`, `npm run bench:render`): done with onboarding, in the
 * United States, with `keywords` saved keywords with every metric (the first page of /keywords full, as a DataForSEO
 * search saves them). Answers the session cookie (`name=value`).
 */
export async function webBenchUser(keywords: number) {
  const user = await createUser({
    email: `bench-web-${crypto.randomBytes(4).toString('hex')}@example.com`,
    name: 'Bench',
    password: 'bench-password-123',
  })
  if (!user) throw new Error('could not create the bench user')
  await db
    .update(schema.users)
    .set({ onboardingComplete: true, productService: 'email marketing software', countryCode: '2840' })
    .where(eq(schema.users.id, user.id))
  await db
    .insert(schema.savedKeywords)
    .values(Array.from({ length: keywords }, (_, i) => benchSavedKeyword(user.id, i)))
  const session = await createSession(user.id)
  return (await sessionCookie().serialize(session.id)).split(';')[0]!
}
