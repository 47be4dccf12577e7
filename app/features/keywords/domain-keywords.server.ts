import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv, services } from '#app/platform/env.server'
import { classifyOutage } from '#app/platform/http/outage.server'
import { findCountry, findLanguage } from '#app/platform/markets/markets'
import { blockedHostnameReason } from '#app/platform/security/ssrf.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { chargeLookupIn, lookupAllowed, LookupOverQuota, type Lookup } from './lookups.server'
import { checkDomain, DOMAIN_MESSAGES, isStrikingDistance, STRIKING_DISTANCE } from './domains'
export { WEBSITE_SETTING_PATH } from './domains'
import {
  dataForSeoDomains,
  DOMAIN_KEYWORDS_LIMIT,
  type DomainKeyword,
  type DomainMarket,
} from './providers/dataforseo-domains.server'

/**
 * Issue 36, point 4 (decision 0364): where the user's site already stands. `rankedKeywordsForDomain` asks DataForSEO
 * Labs which keywords the user's domain ranks for (position and page) and `keywordGap` which ones a competitor ranks
 * for and the user's domain does not. Both save what they found in saved_keywords like any search (origin 'domain' or
 * 'gap' for a new row; an existing row keeps its origin and gets only this lookup's own columns — ranked_* or
 * competitor_* — and the metrics it brought), and each counts as one keyword search the first time it is made on a
 * UTC day (lookups.server.ts, decision 0360), charged in the transaction that saves the rows. A provider failure
 * saves and charges nothing.
 *
 * The saved rows are the lists' memory: after a lookup, the rows of that domain (or competitor) and market that it
 * did not find lose their ranked_* (competitor_*) columns, so the rows that keep them are the latest lookup's.
 * A keyword has one competitor slot: the latest gap that found it owns it.
 */

export type DomainMarketInput = { countryCode: string; languageCode: string }

export type DomainKeywordRow = {
  id: string
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
  intent: string | null
  cpc: number | null
  cpcCurrency: string | null
  /** The user's position (a ranked keyword) or the competitor's (a gap). */
  position: number | null
  url: string | null
  /** Positions 4-20 of the user's own domain: the quickest wins. */
  strikingDistance: boolean
}

export type DomainLookupResult =
  | { ok: true; domain: string; competitor: string | null; market: DomainMarket; keywords: DomainKeywordRow[] }
  | {
      ok: false
      reason: 'invalid' | 'no_website' | 'quota' | 'provider_error' | 'unavailable'
      message: string
      /** 'invalid': the field the message is about. */
      field?: 'domain' | 'competitor' | 'market'
    }

export const DOMAIN_LOOKUP_MESSAGES = {
  providerError: 'We could not look up this domain’s keywords just now. Please try again in a few minutes.',
  unavailable: 'Domain keyword lookups need DataForSEO, which is not configured on this server.',
  noWebsite: 'Add your website on your profile first: we look up the keywords its domain ranks for.',
  badWebsite: 'Your website on your profile is not a public domain. Change it there to look up its rankings.',
  sameDomain: 'Enter a competitor’s domain, not your own.',
  market: 'Select a country and a language.',
} as const

function provider() {
  if (!services().dataforseo) return null
  const env = getEnv()
  return dataForSeoDomains({
    apiUrl: env.DATAFORSEO_API_URL,
    login: env.DATAFORSEO_LOGIN!,
    password: env.DATAFORSEO_PASSWORD!,
  })
}

/** A domain as the lookups take it: `checkDomain`, and no local or metadata host name of the SSRF guard. */
export function vetDomain(input: unknown): { ok: true; domain: string } | { ok: false; message: string } {
  const checked = checkDomain(input)
  if (!checked.ok) return checked
  if (blockedHostnameReason(checked.domain)) return { ok: false, message: DOMAIN_MESSAGES.private }
  return checked
}

function resolveMarket(m: DomainMarketInput): DomainMarket | null {
  const country = findCountry(m.countryCode)
  const language = findLanguage(m.languageCode)
  if (!country || !language) return null
  return { countryCode: country.value, languageCode: language.value, languageName: language.label }
}

/** The user's own domain (their website, normalised), or why there is none. */
export async function ownDomain(
  userId: string,
): Promise<{ ok: true; domain: string } | { ok: false; reason: 'no_website'; message: string }> {
  const [user] = await db
    .select({ website: schema.users.website })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
    .limit(1)
  const website = user?.website?.trim()
  if (!website) return { ok: false, reason: 'no_website', message: DOMAIN_LOOKUP_MESSAGES.noWebsite }
  const vetted = vetDomain(website)
  if (!vetted.ok) return { ok: false, reason: 'no_website', message: DOMAIN_LOOKUP_MESSAGES.badWebsite }
  return vetted
}

/** The user's onboarding market, when it is a known one. */
export async function userMarket(userId: string): Promise<DomainMarketInput | null> {
  const [user] = await db
    .select({ countryCode: schema.users.countryCode, languageCode: schema.users.languageCode })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
    .limit(1)
  if (!user?.countryCode || !user.languageCode) return null
  return resolveMarket({ countryCode: user.countryCode, languageCode: user.languageCode })
    ? { countryCode: user.countryCode, languageCode: user.languageCode }
    : null
}

const MAX_KEYWORD_LENGTH = 200

/** One keyword per row (case-insensitive; the first, best placed, wins), cleaned, at most DOMAIN_KEYWORDS_LIMIT. */
function cleanKeywords(found: DomainKeyword[]): DomainKeyword[] {
  const byKey = new Map<string, DomainKeyword>()
  for (const k of found) {
    const keyword = k.keyword.normalize('NFC').replace(/\s+/g, ' ').trim().slice(0, MAX_KEYWORD_LENGTH)
    if (!keyword) continue
    const key = keyword.toLowerCase()
    if (!byKey.has(key)) byKey.set(key, { ...k, keyword })
    if (byKey.size >= DOMAIN_KEYWORDS_LIMIT) break
  }
  // A stable order (by key) so that concurrent upserts lock rows alike.
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, k]) => k)
}

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0]

type Save = { kind: 'domain'; domain: string; at: Date } | { kind: 'gap'; competitor: string; at: Date }

/**
 * Upserts the found keywords as the user's rows (hand-made, not Auto Pilot's) in one statement, then clears this
 * lookup's columns on the rows of the same domain and market it did not find. Metrics the provider did not give keep
 * the row's value (coalesce).
 */
async function saveFound(tx: Tx, userId: string, market: DomainMarket, save: Save, found: DomainKeyword[]) {
  const rows = cleanKeywords(found)
  const country = findCountry(market.countryCode)?.label ?? ''
  const t = schema.savedKeywords
  const origin = save.kind
  const subject = save.kind === 'domain' ? save.domain : save.competitor
  if (rows.length > 0) {
    const values = rows.map(
      (k) =>
        sql`(${userId}::uuid, ${k.keyword}, ${market.countryCode}, ${country}, ${market.languageCode}, ${market.languageName},
          ${k.avgMonthlySearches}::integer, ${k.difficultyScore}::integer, 'dataforseo'::keyword_source, ${subject}, false,
          ${k.intent}, ${k.intent ? 'dataforseo' : null}::keyword_source, ${k.cpc}::double precision,
          ${k.cpc === null ? null : 'USD'}, ${k.competition}::double precision, ${k.competitionLevel},
          ${k.monthlySearches ? JSON.stringify(k.monthlySearches) : null}::jsonb, ${origin},
          ${save.kind === 'domain' ? save.domain : null}, ${save.kind === 'domain' ? k.position : null}::integer,
          ${save.kind === 'domain' ? k.url : null}, ${save.kind === 'domain' ? save.at.toISOString() : null}::timestamptz,
          ${save.kind === 'gap' ? save.competitor : null}, ${save.kind === 'gap' ? k.position : null}::integer,
          ${save.kind === 'gap' ? k.url : null}, ${save.at.toISOString()}::timestamptz, ${save.at.toISOString()}::timestamptz)`,
    )
    const own =
      save.kind === 'domain'
        ? sql`ranked_domain = excluded.ranked_domain, ranked_position = excluded.ranked_position,
            ranked_url = excluded.ranked_url, ranked_at = excluded.ranked_at`
        : sql`competitor_domain = excluded.competitor_domain, competitor_position = excluded.competitor_position,
            competitor_url = excluded.competitor_url`
    const keep = (col: string) => sql.raw(`${col} = coalesce(excluded.${col}, saved_keywords.${col})`)
    await tx.execute(sql`
      insert into ${t} (user_id, keyword, country_code, country_name, language_code, language_name,
        avg_monthly_searches, difficulty_score, source, seed_query, searched_via_auto_pilot,
        intent, intent_source, cpc, cpc_currency, competition, competition_level, monthly_searches, origin,
        ranked_domain, ranked_position, ranked_url, ranked_at, competitor_domain, competitor_position, competitor_url,
        created_at, updated_at)
      values ${sql.join(values, sql`, `)}
      on conflict (user_id, lower(keyword), country_code, language_code, searched_via_auto_pilot) do update set
        ${own},
        ${keep('avg_monthly_searches')}, ${keep('difficulty_score')},
        source = case when excluded.avg_monthly_searches is not null or excluded.difficulty_score is not null
          then excluded.source else saved_keywords.source end,
        ${keep('intent')}, ${keep('intent_source')}, ${keep('cpc')}, ${keep('cpc_currency')},
        ${keep('competition')}, ${keep('competition_level')}, ${keep('monthly_searches')},
        updated_at = excluded.updated_at`)
  }
  const kept = rows.map((k) => k.keyword.toLowerCase())
  const notFound =
    kept.length > 0
      ? sql`and lower(${t.keyword}) not in (${sql.join(
          kept.map((k) => sql`${k}`),
          sql`, `,
        )})`
      : sql``
  const sameMarket = sql`${t.userId} = ${userId} and ${t.countryCode} = ${market.countryCode} and ${t.languageCode} = ${market.languageCode} and ${t.searchedViaAutoPilot} = false`
  if (save.kind === 'domain') {
    await tx.execute(sql`update ${t} set ranked_domain = null, ranked_position = null, ranked_url = null, ranked_at = null
      where ${sameMarket} and ${t.rankedDomain} = ${save.domain} ${notFound}`)
  } else {
    await tx.execute(sql`update ${t} set competitor_domain = null, competitor_position = null, competitor_url = null
      where ${sameMarket} and ${t.competitorDomain} = ${save.competitor} ${notFound}`)
  }
}

/** The provider call, then the save and the charge in one transaction. */
async function lookUp(
  userId: string,
  lookup: Lookup,
  market: DomainMarket,
  save: Save,
  call: () => Promise<DomainKeyword[]>,
): Promise<{ ok: true } | { ok: false; reason: 'quota' | 'provider_error'; message: string }> {
  if (!(await lookupAllowed(userId, lookup)))
    return { ok: false, reason: 'quota', message: (await quotaRefusal(userId, 'keywordSearches')).message }
  let found: DomainKeyword[]
  try {
    found = await call()
  } catch (error) {
    if (classifyOutage(error)) throw error
    console.error(`[keywords] ${lookup.kind} lookup failed:`, error instanceof Error ? error.message : error)
    return { ok: false, reason: 'provider_error', message: DOMAIN_LOOKUP_MESSAGES.providerError }
  }
  try {
    await db.transaction(async (tx) => {
      await chargeLookupIn(tx, userId, lookup)
      await saveFound(tx, userId, market, save, found)
    })
  } catch (error) {
    if (error instanceof LookupOverQuota)
      return { ok: false, reason: 'quota', message: (await quotaRefusal(userId, 'keywordSearches')).message }
    throw error
  }
  return { ok: true }
}

/**
 * The keywords `domain` ranks for in the market, saved (origin 'domain') and read back: striking distance first
 * (positions 4-20, the quickest wins), then the best placed, then by volume.
 */
export async function rankedKeywordsForDomain(
  userId: string,
  input: { domain: string; market: DomainMarketInput },
): Promise<DomainLookupResult> {
  const vetted = vetDomain(input.domain)
  if (!vetted.ok) return { ok: false, reason: 'invalid', message: vetted.message, field: 'domain' }
  const market = resolveMarket(input.market)
  if (!market) return { ok: false, reason: 'invalid', message: DOMAIN_LOOKUP_MESSAGES.market, field: 'market' }
  const p = provider()
  if (!p) return { ok: false, reason: 'unavailable', message: DOMAIN_LOOKUP_MESSAGES.unavailable }
  const domain = vetted.domain
  const done = await lookUp(
    userId,
    { kind: 'domain', subject: domain, countryCode: market.countryCode, languageCode: market.languageCode },
    market,
    { kind: 'domain', domain, at: new Date() },
    () => p.rankedKeywords(domain, market),
  )
  if (!done.ok) return done
  return { ok: true, domain, competitor: null, market, keywords: await savedRanked(userId, domain, market) }
}

/**
 * The keywords `competitor` ranks for and the user's own domain (their website) does not, saved (origin 'gap') and
 * read back, most searched first.
 */
export async function keywordGap(
  userId: string,
  input: { competitor: string; market: DomainMarketInput },
): Promise<DomainLookupResult> {
  const vetted = vetDomain(input.competitor)
  if (!vetted.ok) return { ok: false, reason: 'invalid', message: vetted.message, field: 'competitor' }
  const market = resolveMarket(input.market)
  if (!market) return { ok: false, reason: 'invalid', message: DOMAIN_LOOKUP_MESSAGES.market, field: 'market' }
  const own = await ownDomain(userId)
  if (!own.ok) return own
  const competitor = vetted.domain
  if (competitor === own.domain)
    return { ok: false, reason: 'invalid', message: DOMAIN_LOOKUP_MESSAGES.sameDomain, field: 'competitor' }
  const p = provider()
  if (!p) return { ok: false, reason: 'unavailable', message: DOMAIN_LOOKUP_MESSAGES.unavailable }
  const done = await lookUp(
    userId,
    {
      kind: 'gap',
      subject: `${competitor}|${own.domain}`,
      countryCode: market.countryCode,
      languageCode: market.languageCode,
    },
    market,
    { kind: 'gap', competitor, at: new Date() },
    () => p.keywordGap(competitor, own.domain, market),
  )
  if (!done.ok) return done
  return {
    ok: true,
    domain: own.domain,
    competitor,
    market,
    keywords: await savedGap(userId, competitor, market),
  }
}

const t = schema.savedKeywords
const rowColumns = {
  id: t.id,
  keyword: t.keyword,
  avgMonthlySearches: t.avgMonthlySearches,
  difficultyScore: t.difficultyScore,
  intent: t.intent,
  cpc: t.cpc,
  cpcCurrency: t.cpcCurrency,
}

/** The user's own (not Auto Pilot's) saved keywords of the market: the rows both lists read. */
const inMarket = (userId: string, market: DomainMarketInput) => [
  eq(t.userId, userId),
  eq(t.searchedViaAutoPilot, false),
  eq(t.countryCode, market.countryCode),
  eq(t.languageCode, market.languageCode),
]

const strikingFirst = sql`case when ${t.rankedPosition} between ${STRIKING_DISTANCE.from} and ${STRIKING_DISTANCE.to} then 0 else 1 end`

/** The saved keywords the user's `domain` ranks for in the market (its latest lookup), striking distance first. */
export async function savedRanked(
  userId: string,
  domain: string,
  market: DomainMarketInput,
): Promise<DomainKeywordRow[]> {
  const rows = await db
    .select({ ...rowColumns, position: t.rankedPosition, url: t.rankedUrl })
    .from(t)
    .where(and(...inMarket(userId, market), eq(t.rankedDomain, domain), isNotNull(t.rankedPosition)))
    .orderBy(strikingFirst, t.rankedPosition, sql`${t.avgMonthlySearches} desc nulls last`, t.keyword)
    .limit(DOMAIN_KEYWORDS_LIMIT)
  return rows.map((r) => ({ ...r, strikingDistance: isStrikingDistance(r.position) }))
}

/** The saved gap keywords of `competitor` in the market (its latest lookup), most searched first. */
export async function savedGap(
  userId: string,
  competitor: string,
  market: DomainMarketInput,
): Promise<DomainKeywordRow[]> {
  const rows = await db
    .select({ ...rowColumns, position: t.competitorPosition, url: t.competitorUrl })
    .from(t)
    .where(and(...inMarket(userId, market), eq(t.competitorDomain, competitor)))
    .orderBy(sql`${t.avgMonthlySearches} desc nulls last`, t.competitorPosition, t.keyword)
    .limit(DOMAIN_KEYWORDS_LIMIT)
  return rows.map((r) => ({ ...r, strikingDistance: false }))
}

/** The competitor of the user's latest gap lookup in the market (for the page after a reload), or null. */
export async function latestGapCompetitor(userId: string, market: DomainMarketInput): Promise<string | null> {
  const l = schema.keywordLookups
  const [row] = await db
    .select({ subject: l.subject })
    .from(l)
    .where(
      and(
        eq(l.userId, userId),
        eq(l.kind, 'gap'),
        eq(l.countryCode, market.countryCode),
        eq(l.languageCode, market.languageCode),
      ),
    )
    .orderBy(desc(l.createdAt))
    .limit(1)
  const competitor = row?.subject.split('|')[0]
  return competitor ? (vetDomain(competitor).ok ? competitor : null) : null
}
