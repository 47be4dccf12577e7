import crypto from 'node:crypto'
import { and, desc, eq, getTableColumns, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm'
import { db, preparedQuery, schema } from '#app/platform/db/client.server'
import { API_SCOPES, apiKeyShownPrefix, formatApiKey, looksLikeApiKey, MAX_API_KEYS, type ApiScope } from './api-keys'
import type { SessionUser } from './session.server'

/**
 * Personal API keys (issue 38, decision 0380). A key is shown once, when it is created; the database keeps only the
 * SHA-256 of the whole key (a key is 256 random bits, so a fast hash cannot be reversed by guessing) and its public
 * start (`prefix`). Every request looks the key up again: a revoked key stops working at once (no cache).
 */

export const hashApiKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex')

export type CreatedApiKey = { id: string; key: string; prefix: string }

/**
 * A new key for `userId` with these scopes (already checked by `createApiKeySchema`: 'read' included). Refused when
 * the account has MAX_API_KEYS active keys; the count and the insert run under a per-user lock, so two concurrent
 * requests cannot both take the last place.
 */
export async function createApiKey(
  userId: string,
  input: { name: string; scopes: readonly ApiScope[] },
): Promise<({ ok: true } & CreatedApiKey) | { ok: false; reason: 'limit' }> {
  const key = formatApiKey(crypto.randomBytes(32))
  const scopes = API_SCOPES.filter((s) => input.scopes.includes(s))
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'api-keys:' + userId}))`)
    const [active] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.apiKeys)
      .where(and(eq(schema.apiKeys.userId, userId), isNull(schema.apiKeys.revokedAt)))
    if ((active?.n ?? 0) >= MAX_API_KEYS) return null
    const [created] = await tx
      .insert(schema.apiKeys)
      .values({ userId, name: input.name, prefix: apiKeyShownPrefix(key), secretHash: hashApiKey(key), scopes })
      .returning({ id: schema.apiKeys.id, prefix: schema.apiKeys.prefix })
    return created!
  })
  if (!row) return { ok: false, reason: 'limit' }
  return { ok: true, id: row.id, key, prefix: row.prefix }
}

export type ApiKeyListItem = {
  id: string
  name: string
  prefix: string
  scopes: ApiScope[]
  createdAt: string
  lastUsedAt: string | null
  lastUsedIpPrefix: string | null
  revokedAt: string | null
}

const listColumns = {
  id: schema.apiKeys.id,
  name: schema.apiKeys.name,
  prefix: schema.apiKeys.prefix,
  scopes: schema.apiKeys.scopes,
  createdAt: schema.apiKeys.createdAt,
  lastUsedAt: schema.apiKeys.lastUsedAt,
  lastUsedIpPrefix: schema.apiKeys.lastUsedIpPrefix,
  revokedAt: schema.apiKeys.revokedAt,
}

/**
 * A user's keys, newest first, without any secret: the active ones (for /profile), or every one, revoked included
 * (for the data export).
 */
export async function listApiKeys(userId: string, opts: { includeRevoked?: boolean } = {}): Promise<ApiKeyListItem[]> {
  const rows = await db
    .select(listColumns)
    .from(schema.apiKeys)
    .where(and(eq(schema.apiKeys.userId, userId), opts.includeRevoked ? undefined : isNull(schema.apiKeys.revokedAt)))
    .orderBy(desc(schema.apiKeys.createdAt), desc(schema.apiKeys.id))
  return rows.map(toListItem)
}

type ApiKeyFields = {
  id: string
  name: string
  prefix: string
  scopes: string[]
  createdAt: Date | string
  lastUsedAt: Date | string | null
  lastUsedIpPrefix: string | null
  revokedAt: Date | string | null
}

const iso = (at: Date | string) => new Date(at).toISOString()

function toListItem(r: ApiKeyFields): ApiKeyListItem {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: API_SCOPES.filter((s) => r.scopes.includes(s)),
    createdAt: iso(r.createdAt),
    lastUsedAt: r.lastUsedAt === null ? null : iso(r.lastUsedAt),
    lastUsedIpPrefix: r.lastUsedIpPrefix,
    revokedAt: r.revokedAt === null ? null : iso(r.revokedAt),
  }
}

/**
 * The user's active keys as one column of a statement about the user (issue 39: /profile reads them with its page
 * instead of in a statement of their own), newest first as `listApiKeys` lists them; `toApiKeyList` maps it.
 */
export function activeApiKeysColumn(userId: SQL | Placeholder) {
  const k = schema.apiKeys
  return sql<ApiKeyFields[]>`coalesce((select json_agg(json_build_object(
      'id', ${k.id}, 'name', ${k.name}, 'prefix', ${k.prefix}, 'scopes', ${k.scopes}, 'createdAt', ${k.createdAt},
      'lastUsedAt', ${k.lastUsedAt}, 'lastUsedIpPrefix', ${k.lastUsedIpPrefix}, 'revokedAt', ${k.revokedAt})
      order by ${k.createdAt} desc, ${k.id} desc)
    from ${k} where ${k.userId} = ${userId} and ${k.revokedAt} is null), '[]'::json)`
}

export const toApiKeyList = (rows: ApiKeyFields[]): ApiKeyListItem[] => rows.map(toListItem)

/**
 * Revokes one of this user's keys: from the next request on it is refused. Returns the key's name and prefix, or
 * null when it is not theirs or was already revoked.
 */
export async function revokeApiKey(userId: string, id: string) {
  const [row] = await db
    .update(schema.apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(schema.apiKeys.id, id), eq(schema.apiKeys.userId, userId), isNull(schema.apiKeys.revokedAt)))
    .returning({ id: schema.apiKeys.id, name: schema.apiKeys.name, prefix: schema.apiKeys.prefix })
  return row ?? null
}

export type ApiKeyAuth = {
  keyId: string
  scopes: ApiScope[]
  user: SessionUser
}

/** The key (by its hash) and its user in one prepared statement; revoked keys never match. */
const keyUserQuery = preparedQuery((d) =>
  d
    .select({
      user: getTableColumns(schema.users),
      keyId: schema.apiKeys.id,
      scopes: schema.apiKeys.scopes,
      lastUsedAt: schema.apiKeys.lastUsedAt,
    })
    .from(schema.apiKeys)
    .innerJoin(schema.users, eq(schema.users.id, schema.apiKeys.userId))
    .where(and(eq(schema.apiKeys.secretHash, sql.placeholder('hash')), isNull(schema.apiKeys.revokedAt)))
    .limit(1)
    .prepare('api_key_user'),
)

/** "Last use" (time and the caller's network) is written at most this often per key. */
export const API_KEY_LAST_USED_RESOLUTION_MS = 5 * 60 * 1000

/**
 * The live key behind a Bearer token and its user, or null (malformed, unknown or revoked: the caller answers 401).
 * A string that is not shaped like a key is refused without a query; any other goes through the same one indexed
 * lookup of its hash, found or not. `ipPrefix` is the caller's network, kept as the key's last use.
 */
export async function authenticateApiKey(token: string, ipPrefix: string | null = null): Promise<ApiKeyAuth | null> {
  if (!looksLikeApiKey(token)) return null
  const [row] = await keyUserQuery().execute({ hash: hashApiKey(token) })
  if (!row) return null
  const stale = !row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > API_KEY_LAST_USED_RESOLUTION_MS
  if (stale) {
    await db
      .update(schema.apiKeys)
      .set({ lastUsedAt: sql`now()`, lastUsedIpPrefix: ipPrefix })
      .where(eq(schema.apiKeys.id, row.keyId))
      .catch(() => {})
  }
  return { keyId: row.keyId, scopes: API_SCOPES.filter((s) => row.scopes.includes(s)), user: row.user }
}
