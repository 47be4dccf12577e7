import { and, gt, inArray, sql } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { services } from '#app/platform/env.server'
import { bareDomain } from './serp'
import { dataForSeoTask } from './serp.server'

/**
 * A domain's strength: DataForSEO Backlinks' rank (`POST /v3/backlinks/bulk_ranks/live`, 0 = no backlinks found, 1000
 * = the strongest sites; computed from the referring domains, as PageRank is), cached for every user in domain_ranks
 * for 30 days. One call asks for every domain the cache misses (up to 1000 targets in its one task). Never fails:
 * a domain whose strength cannot be had (no provider, the call failed, not a domain name) is null, and the screen
 * says the strength is unavailable (issue 36, decision 0362).
 */
export const DOMAIN_RANK_TTL_MS = 30 * 24 * 60 * 60 * 1000
/** The provider's scale: ranks run from 0 to this. */
export const DOMAIN_RANK_MAX = 1000
const MAX_TARGETS = 1000
const BUDGET_MS = 6_000

/** A host name DataForSEO can rank: a registrable-looking name (no IP address, no port, no single label). */
function rankable(domain: string) {
  return (
    domain.length <= 253 &&
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62}$/.test(domain) &&
    !/^\d+(?:\.\d+){3}$/.test(domain)
  )
}

async function cached(domains: string[]) {
  if (!domains.length) return new Map<string, number | null>()
  const rows = await db
    .select({ domain: schema.domainRanks.domain, rank: schema.domainRanks.rank })
    .from(schema.domainRanks)
    .where(
      and(
        inArray(schema.domainRanks.domain, domains),
        gt(schema.domainRanks.fetchedAt, new Date(Date.now() - DOMAIN_RANK_TTL_MS)),
      ),
    )
  return new Map(rows.map((r) => [r.domain, r.rank]))
}

/** The ranks of `targets` from the provider (one task); null when the call failed. */
async function fetchRanks(targets: string[]): Promise<Map<string, number | null> | null> {
  try {
    const result = await dataForSeoTask(
      'backlinks/bulk_ranks/live',
      { targets, rank_scale: 'one_thousand' },
      { budgetMs: BUDGET_MS, attemptTimeoutMs: 4_000 },
    )
    const out = new Map<string, number | null>()
    const items = Array.isArray(result.items) ? (result.items as Array<Record<string, unknown>>) : []
    for (const item of items) {
      if (!item || typeof item.target !== 'string') continue
      const rank = Number(item.rank)
      out.set(
        bareDomain(item.target),
        typeof item.rank === 'number' && Number.isFinite(rank) && rank >= 0
          ? Math.min(DOMAIN_RANK_MAX, Math.round(rank))
          : null,
      )
    }
    return out
  } catch (error) {
    console.warn(`[domain-strength] ranks unavailable: ${error instanceof Error ? error.message : String(error)}`)
    return null
  }
}

/**
 * The strength (0-1000) of each domain, keyed by its bare form (lower case, no "www."): cached ranks younger than
 * 30 days, the others in one provider call (stored for everyone). null where unknown.
 */
export async function domainStrength(domains: string[]): Promise<Map<string, number | null>> {
  const wanted = [...new Set(domains.map((d) => bareDomain(d)).filter(Boolean))]
  const out = new Map<string, number | null>(wanted.map((d) => [d, null]))
  const valid = wanted.filter(rankable)
  if (!valid.length) return out
  const hits = await cached(valid)
  for (const [domain, rank] of hits) out.set(domain, rank)
  const misses = valid.filter((d) => !hits.has(d)).slice(0, MAX_TARGETS)
  if (!misses.length || !services().dataforseo) return out
  const fetched = await fetchRanks(misses)
  if (!fetched) return out
  const rows = misses.filter((d) => fetched.has(d)).map((d) => ({ domain: d, rank: fetched.get(d) ?? null }))
  for (const row of rows) out.set(row.domain, row.rank)
  if (rows.length) {
    await db
      .insert(schema.domainRanks)
      .values(rows)
      .onConflictDoUpdate({
        target: schema.domainRanks.domain,
        set: { rank: sql`excluded.rank`, fetchedAt: sql`now()` },
      })
      .catch((error: unknown) => console.error('[domain-strength] could not cache ranks:', error))
  }
  return out
}
