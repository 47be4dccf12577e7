import { z } from 'zod'
import { safeText } from '#app/platform/security/safe-text'

/**
 * Personal API keys (issue 38, decision 0380): what the browser and the server share. A key is
 * `rwk_` + 43 base62 characters of secret (32 random bytes) + 6 base62 characters of checksum (CRC-32 of the secret
 * part), 53 characters in all. The fixed prefix and the fixed length let secret scanners match a leaked key; the
 * checksum lets them (and us) tell a key from a random string without asking the database.
 */

export const API_SCOPES = ['read', 'write', 'publish'] as const
export type ApiScope = (typeof API_SCOPES)[number]

/** What each scope allows, as /profile and the API reference say it. */
export const API_SCOPE_LABELS: Record<ApiScope, { label: string; hint: string }> = {
  read: { label: 'Read', hint: 'See keywords, posts, rankings and settings (GET requests).' },
  write: { label: 'Write', hint: 'Search keywords, create and edit posts, change settings.' },
  publish: { label: 'Publish', hint: 'Publish, unpublish, approve and reject posts.' },
}

export const API_KEY_PREFIX = 'rwk_'
export const API_KEY_SECRET_LENGTH = 43
export const API_KEY_CHECKSUM_LENGTH = 6
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_SECRET_LENGTH + API_KEY_CHECKSUM_LENGTH
/** How much of a key /profile shows (`rwk_` and the first 8 characters of the secret): enough to tell keys apart. */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8
/** Active keys per account. */
export const MAX_API_KEYS = 10

/** The pattern a secret scanner can use (and the log redaction does): `rwk_` and 49 base62 characters. */
export const API_KEY_PATTERN = /\brwk_[0-9A-Za-z]{49}\b/
export const API_KEY_PATTERN_GLOBAL = new RegExp(API_KEY_PATTERN.source, 'g')

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Bytes as base62 digits, left-padded to `length` (big-endian; the value must fit). */
export function base62(bytes: Uint8Array, length: number): string {
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  let out = ''
  while (n > 0n) {
    out = BASE62[Number(n % 62n)]! + out
    n /= 62n
  }
  if (out.length > length) throw new Error('base62: value too large for its length')
  return out.padStart(length, '0')
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let i = 0; i < 256; i++) {
    let c = i
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[i] = c >>> 0
  }
  return table
})()

/** CRC-32 (IEEE) of an ASCII string. */
export function crc32(text: string): number {
  let crc = 0xffffffff
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function checksum(secret: string): string {
  const n = crc32(secret)
  return base62(new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]), API_KEY_CHECKSUM_LENGTH)
}

/** A key from 32 random bytes (the caller brings them: `crypto.randomBytes(32)` on the server). */
export function formatApiKey(random: Uint8Array): string {
  if (random.length !== 32) throw new Error('An API key needs 32 random bytes.')
  const secret = base62(random, API_KEY_SECRET_LENGTH)
  return `${API_KEY_PREFIX}${secret}${checksum(secret)}`
}

/** Whether a string has the form of a key (prefix, length, alphabet, checksum). Says nothing about whether it exists. */
export function looksLikeApiKey(token: string): boolean {
  if (token.length !== API_KEY_LENGTH || !token.startsWith(API_KEY_PREFIX)) return false
  if (!/^[0-9A-Za-z]+$/.test(token.slice(API_KEY_PREFIX.length))) return false
  const secret = token.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_SECRET_LENGTH)
  return token.endsWith(checksum(secret))
}

/** The public start of a key, shown in lists (never enough to use it). */
export const apiKeyShownPrefix = (key: string) => key.slice(0, API_KEY_SHOWN_LENGTH)

/** Replaces anything shaped like a key in a text (logs, error reports). */
export const redactApiKeys = (text: string) => text.replace(API_KEY_PATTERN_GLOBAL, 'rwk_[redacted]')

export const API_KEY_MESSAGES = {
  nameRequired: 'Key name is required.',
  nameTooLong: 'Key name must be at most 60 characters.',
  scopesRequired: 'Choose at least one scope.',
  scopeInvalid: 'Choose scopes from read, write and publish.',
  tooMany: `You can have at most ${MAX_API_KEYS} active API keys. Revoke one first.`,
  created: 'API key created. Copy it now: it is shown only once.',
  revoked: 'API key revoked. It no longer works.',
  alreadyRevoked: 'That API key was already revoked.',
  invalidKey: 'Invalid or revoked API key.',
  missingScope: (scope: ApiScope) => `This API key does not have the '${scope}' scope.`,
  rateLimited: 'Too many requests with this API key. Please wait and try again.',
  logoutWithKey: 'An API key is not a session, so it cannot sign out. Revoke the key on your profile instead.',
  createFailed: 'The API key could not be created. Please try again.',
} as const

/** A key's name: what the owner calls it ("CI", "Claude agent"); plain text, shown escaped. */
export const apiKeyNameSchema = safeText({
  required_error: API_KEY_MESSAGES.nameRequired,
  invalid_type_error: 'Name must be text.',
})
  .trim()
  .min(1, API_KEY_MESSAGES.nameRequired)
  .max(60, API_KEY_MESSAGES.nameTooLong)

const scope = z.enum(API_SCOPES, {
  errorMap: () => ({ message: API_KEY_MESSAGES.scopeInvalid }),
})

/**
 * The scopes chosen (checkboxes named `scopes`, or a JSON array): at least one, duplicates dropped, in API_SCOPES'
 * order. Every key can read: 'write' or 'publish' without 'read' gets 'read' too (a key that cannot look at what it
 * changes is of no use).
 */
export const apiScopesSchema = z.preprocess(
  (value) => (value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value]),
  z
    .array(scope)
    .max(API_SCOPES.length * 2, API_KEY_MESSAGES.scopeInvalid)
    .refine((list) => list.length > 0, API_KEY_MESSAGES.scopesRequired)
    .transform((list) => API_SCOPES.filter((s) => s === 'read' || list.includes(s))),
)

/** /profile's 'Create API key' form (and its JSON twin). `code`: the second factor's, when the account has it on. */
export const createApiKeySchema = z.object({
  name: apiKeyNameSchema,
  scopes: apiScopesSchema,
  code: safeText({ invalid_type_error: 'The code must be text.' }).trim().max(40).optional(),
})
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>

/** The 'Revoke' button of a key's row. */
export const revokeApiKeySchema = z.object({
  keyId: z.string({ required_error: 'Which key?' }).uuid('Which key?'),
})

/** The scope an /api request needs: 'read' to look, 'write' to change, unless the route asks for more. */
export function scopeForMethod(method: string): ApiScope {
  const m = method.toUpperCase()
  return m === 'GET' || m === 'HEAD' || m === 'OPTIONS' ? 'read' : 'write'
}
