import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { chargeLookup, chargeLookupIn, lookupAllowed, LookupOverQuota } from '#app/features/keywords/lookups.server'
import { createTestUser } from '#tests/setup/app'

/**
 * Issue 36, decision 0360: each new kind of keyword lookup (a results page, a clustering run, a domain, a gap)
 * costs one keyword search the first time a user makes it on a UTC day, on a real Postgres: a repeat is free, the
 * limit refuses with nothing written, concurrent lookups never go past the limit, and a lookup whose results
 * could not be saved takes no unit.
 */
const market = { countryCode: '2840', languageCode: 'en' }

async function used(userId: string) {
  const [row] = await db
    .select({ n: schema.subscriptions.keywordSearchCount })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
  return row?.n
}

async function setUsed(userId: string, n: number) {
  await db.update(schema.subscriptions).set({ keywordSearchCount: n }).where(eq(schema.subscriptions.userId, userId))
}

const lookupsOf = (userId: string) =>
  db.select().from(schema.keywordLookups).where(eq(schema.keywordLookups.userId, userId))

describe('keyword lookups count against the plan', () => {
  it('charges the first lookup of a day once, and every kind and subject separately', async () => {
    const user = await createTestUser()
    expect(await used(user.id)).toBe(0)
    const serp = { kind: 'serp' as const, subject: 'kw-1', ...market }
    expect(await chargeLookup(user.id, serp)).toEqual({ ok: true, charged: true })
    expect(await chargeLookup(user.id, serp)).toEqual({ ok: true, charged: false })
    expect(await used(user.id)).toBe(1)
    expect(await chargeLookup(user.id, { ...serp, kind: 'domain', subject: 'example.com' })).toEqual({
      ok: true,
      charged: true,
    })
    // The same subject in another market is another lookup.
    expect(await chargeLookup(user.id, { ...serp, countryCode: '2826' })).toEqual({ ok: true, charged: true })
    expect(await used(user.id)).toBe(3)
    expect(await lookupsOf(user.id)).toHaveLength(3)
  })

  it('refuses at the trial limit and writes nothing, but a lookup already made today stays free', async () => {
    const user = await createTestUser()
    const made = { kind: 'gap' as const, subject: 'rival.com|example.com', ...market }
    expect((await chargeLookup(user.id, made)).ok).toBe(true)
    await setUsed(user.id, 10)
    const fresh = { kind: 'clusters' as const, subject: '2840|en', ...market }
    expect(await lookupAllowed(user.id, fresh)).toBe(false)
    expect(await chargeLookup(user.id, fresh)).toEqual({ ok: false, reason: 'quota' })
    expect(await used(user.id)).toBe(10)
    expect(await lookupsOf(user.id)).toHaveLength(1)
    expect(await lookupAllowed(user.id, made)).toBe(true)
    expect(await chargeLookup(user.id, made)).toEqual({ ok: true, charged: false })
    expect(await used(user.id)).toBe(10)
  })

  it('never goes past the limit when lookups race', async () => {
    const user = await createTestUser()
    await setUsed(user.id, 8)
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => chargeLookup(user.id, { kind: 'serp', subject: `kw-${i}`, ...market })),
    )
    expect(results.filter((r) => r.ok && r.charged)).toHaveLength(2)
    expect(results.filter((r) => !r.ok)).toHaveLength(4)
    expect(await used(user.id)).toBe(10)
    expect(await lookupsOf(user.id)).toHaveLength(2)
  })

  it('rolls the caller’s transaction back whole at the limit, and takes nothing when the save fails', async () => {
    const user = await createTestUser()
    await setUsed(user.id, 10)
    const lookup = { kind: 'domain' as const, subject: 'example.com', ...market }
    await expect(
      db.transaction(async (tx) => {
        await tx.update(schema.users).set({ name: 'Changed in the lookup' }).where(eq(schema.users.id, user.id))
        await chargeLookupIn(tx, user.id, lookup)
      }),
    ).rejects.toBeInstanceOf(LookupOverQuota)
    const [row] = await db.select({ name: schema.users.name }).from(schema.users).where(eq(schema.users.id, user.id))
    expect(row?.name).toBe('Test User')
    expect(await lookupsOf(user.id)).toHaveLength(0)

    await setUsed(user.id, 0)
    await expect(
      db.transaction(async (tx) => {
        await chargeLookupIn(tx, user.id, lookup)
        throw new Error('saving the results failed')
      }),
    ).rejects.toThrow('saving the results failed')
    expect(await used(user.id)).toBe(0)
    const rows = await db
      .select()
      .from(schema.keywordLookups)
      .where(and(eq(schema.keywordLookups.userId, user.id), eq(schema.keywordLookups.kind, 'domain')))
    expect(rows).toHaveLength(0)
  })
})
