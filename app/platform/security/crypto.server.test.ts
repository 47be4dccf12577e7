import { afterEach, describe, expect, it, vi } from 'vitest'

async function load(env: Record<string, string>) {
  vi.resetModules()
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v)
  return import('./crypto.server')
}

describe('secrets at rest', () => {
  afterEach(() => vi.unstubAllEnvs())
  const base = { DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x', SESSION_SECRET: 's1' }

  it('round-trips and never stores the plain text', async () => {
    const { encryptSecret, decryptSecret } = await load({ ...base, ENCRYPTION_KEY: 'k1' })
    const stored = encryptSecret('app password 123')
    expect(stored).not.toContain('app password')
    expect(encryptSecret('app password 123')).not.toBe(stored)
    expect(decryptSecret(stored)).toBe('app password 123')
  })

  it('opens values written with an older key after rotation, and refuses tampering', async () => {
    const old = await load({ ...base, ENCRYPTION_KEY: 'old' })
    const stored = old.encryptSecret('token')
    const rotated = await load({ ...base, ENCRYPTION_KEY: 'new,old' })
    expect(rotated.decryptSecret(stored)).toBe('token')
    expect(rotated.needsReencryption(stored)).toBe(true)
    const parts = stored.split('.')
    parts[4] = Buffer.from('other').toString('base64url')
    expect(() => rotated.decryptSecret(parts.join('.'))).toThrow(rotated.DecryptError)
    const gone = await load({ ...base, ENCRYPTION_KEY: 'new' })
    expect(() => gone.decryptSecret(stored)).toThrow(/no longer configured/)
  })
})
