import { sql } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { consumeQuota, quotaAvailable } from '#app/features/billing/quota.server'
import { serpDay } from './serp'

/**
 * Issue 36 (docs/contracts.md "Keyword depth"): the new kinds of keyword lookup — a keyword's results page
 * ('serp'), a clustering run ('clusters'), a domain's ranked keywords ('domain') and a competitor gap ('gap') —
 * each count as one keyword search (the `keywordSearches` quota), the first time a user makes that lookup on a UTC
 * day. Opening the same results page again, or looking up the same domain again the same day, is free: the row in
 * keyword_lookups and the quota unit are written in one transaction, and its unique index turns a repeat into a
 * no-op. Decision 0360.
 */
export type LookupKind = 'serp' | 'clusters' | 'domain' | 'gap'
export type Lookup = { kind: LookupKind; subject: string; countryCode: string; languageCode: string }

export type LookupCharge = { ok: true; charged: boolean } | { ok: false; reason: 'quota' }

const key = (userId: string, l: Lookup) => ({
  userId,
  kind: l.kind,
  subject: l.subject.slice(0, 500),
  countryCode: l.countryCode,
  languageCode: l.languageCode,
  lookedUpOn: serpDay(),
})

/** Whether the user already made this lookup today (so it is free), without writing anything. */
export async function lookupMadeToday(userId: string, lookup: Lookup): Promise<boolean> {
  const k = key(userId, lookup)
  const t = schema.keywordLookups
  const rows = await db
    .select({ id: t.id })
    .from(t)
    .where(
      sql`${t.userId} = ${k.userId} and ${t.kind} = ${k.kind} and ${t.subject} = ${k.subject} and ${t.countryCode} = ${k.countryCode} and ${t.languageCode} = ${k.languageCode} and ${t.lookedUpOn} = ${k.lookedUpOn}`,
    )
    .limit(1)
  return rows.length > 0
}

/**
 * Whether the lookup may go ahead: made already today (free) or a unit is available. A read, not a reservation:
 * call it before the provider call, and `chargeLookup` after it succeeded (a failed lookup charges nothing).
 */
export async function lookupAllowed(userId: string, lookup: Lookup): Promise<boolean> {
  if (await lookupMadeToday(userId, lookup)) return true
  return quotaAvailable(userId, 'keywordSearches')
}

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0]

/** Thrown inside the caller's transaction when the quota refuses, so that the transaction rolls back whole. */
export class LookupOverQuota extends Error {
  constructor() {
    super('over the keyword search quota')
    this.name = 'LookupOverQuota'
  }
}

/**
 * Records the lookup and takes one keyword search unit inside the caller's transaction (the one that saves the
 * lookup's results, so that results and charge land together); a lookup already made today is free (false; true
 * when a unit was taken). At the limit it throws LookupOverQuota: let it roll the transaction back, and answer with
 * the plan's message (`quotaRefusal(userId, 'keywordSearches')`).
 */
export async function chargeLookupIn(tx: Tx, userId: string, lookup: Lookup): Promise<boolean> {
  const inserted = await tx
    .insert(schema.keywordLookups)
    .values(key(userId, lookup))
    .onConflictDoNothing()
    .returning({ id: schema.keywordLookups.id })
  if (inserted.length === 0) return false
  const quota = await consumeQuota(userId, 'keywordSearches', tx)
  if (!quota.ok) throw new LookupOverQuota()
  return true
}

/** `chargeLookupIn` in a transaction of its own: `{ ok: false, reason: 'quota' }` at the limit, nothing written. */
export async function chargeLookup(userId: string, lookup: Lookup): Promise<LookupCharge> {
  try {
    const charged = await db.transaction((tx) => chargeLookupIn(tx, userId, lookup))
    return { ok: true, charged }
  } catch (error) {
    if (error instanceof LookupOverQuota) return { ok: false, reason: 'quota' }
    throw error
  }
}
