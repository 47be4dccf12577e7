import crypto from 'node:crypto'
import { getEnv } from '#app/platform/env.server'

/**
 * Secrets at rest (CMS credentials, OAuth refresh tokens): AES-256-GCM with a key from ENCRYPTION_KEY.
 * A stored value reads `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts), so that a rotated key list
 * (new key first, old keys after it) still opens values written with an older key.
 */
type Key = { id: string; key: Buffer }

let cachedKeys: { source: string; keys: Key[] } | undefined

function keys(): Key[] {
  const env = getEnv()
  const source = env.ENCRYPTION_KEY ?? ''
  if (cachedKeys?.source === source) return cachedKeys.keys
  let material = source
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (!material.length) {
    if (env.NODE_ENV === 'production') {
      throw new Error('ENCRYPTION_KEY is required in production to store credentials (a long random string)')
    }
    // Tests and scripts without a key: derived from the session secret (random per run; `npm run dev` sets both).
    material = [`derived:${env.SESSION_SECRETS[0]}`]
  }
  const list = material.map((m) => {
    const key = Buffer.from(crypto.hkdfSync('sha256', m, 'rankwell', 'secrets-at-rest-v1', 32))
    const id = crypto.createHash('sha256').update(key).digest('base64url').slice(0, 8)
    return { id, key }
  })
  cachedKeys = { source, keys: list }
  return list
}

export function encryptSecret(plain: string): string {
  const { id, key } = keys()[0]!
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  const tag = cipher.getAuthTag()
  return ['v1', id, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join('.')
}

export class DecryptError extends Error {}

export function decryptSecret(stored: string): string {
  const [version, id, iv, tag, body] = stored.split('.')
  if (version !== 'v1' || !id || !iv || !tag || body === undefined) throw new DecryptError('Unreadable secret')
  const match = keys().find((k) => k.id === id)
  if (!match) throw new DecryptError('This secret was encrypted with a key that is no longer configured')
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', match.key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    throw new DecryptError('Unreadable secret')
  }
}

/** True when a stored value was written with an older key and should be re-encrypted (rotation). */
export function needsReencryption(stored: string): boolean {
  return stored.split('.')[1] !== keys()[0]!.id
}

/** How a value written now starts (`v1.<current key id>.`): stored values without it need re-encrypting. */
export function currentSecretPrefix(): string {
  return `v1.${keys()[0]!.id}.`
}
