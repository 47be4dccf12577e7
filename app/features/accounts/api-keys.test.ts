import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  API_KEY_LENGTH,
  API_KEY_PATTERN,
  apiKeyShownPrefix,
  createApiKeySchema,
  formatApiKey,
  looksLikeApiKey,
  redactApiKeys,
  scopeForMethod,
} from './api-keys'

describe('personal API keys (issue 38)', () => {
  it('formats keys scanners can match, checks their checksum, and redacts them', () => {
    const keys = [new Uint8Array(32), new Uint8Array(32).fill(255), crypto.randomBytes(32)].map(formatApiKey)
    for (const key of keys) {
      expect(key).toHaveLength(API_KEY_LENGTH)
      expect(key).toMatch(/^rwk_[0-9A-Za-z]{49}$/)
      expect(API_KEY_PATTERN.test(`token=${key};`)).toBe(true)
      expect(looksLikeApiKey(key)).toBe(true)
      expect(redactApiKeys(`Authorization: Bearer ${key}`)).toBe('Authorization: Bearer rwk_[redacted]')
      expect(apiKeyShownPrefix(key)).toBe(key.slice(0, 12))
    }
    expect(new Set(keys).size).toBe(3)
    // One character changed (a typo, a made-up key): the checksum no longer matches.
    const key = keys[2]!
    const flipped = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11)
    expect(looksLikeApiKey(flipped)).toBe(false)
    for (const bad of [
      '',
      'rwk_',
      key.slice(0, -1),
      `${key}x`,
      key.replace('rwk_', 'rwx_'),
      `${key.slice(0, 20)}-${key.slice(21)}`,
    ])
      expect(looksLikeApiKey(bad)).toBe(false)
    expect(() => formatApiKey(new Uint8Array(16))).toThrow()
  })

  it('reads the create form: a name, scopes with read implied, hostile text refused', () => {
    const ok = createApiKeySchema.safeParse({ name: '  CI  ', scopes: ['publish', 'publish'] })
    expect(ok.success && ok.data).toEqual({ name: 'CI', scopes: ['read', 'publish'] })
    expect(createApiKeySchema.safeParse({ name: 'x', scopes: 'write' }).data?.scopes).toEqual(['read', 'write'])
    const errors = (input: unknown) => createApiKeySchema.safeParse(input).error?.flatten().fieldErrors
    expect(errors({ name: '', scopes: [] })).toEqual({
      name: ['Key name is required.'],
      scopes: ['Choose at least one scope.'],
    })
    expect(errors({ name: 'a'.repeat(61), scopes: ['admin'] })).toEqual({
      name: ['Key name must be at most 60 characters.'],
      scopes: ['Choose scopes from read, write and publish.'],
    })
    expect(errors({ name: 'bad\u0000name', scopes: ['read'] })?.name).toEqual([
      'This field contains characters that are not allowed.',
    ])
    expect(['GET', 'head', 'POST', 'PUT', 'PATCH', 'DELETE'].map(scopeForMethod)).toEqual([
      'read',
      'read',
      'write',
      'write',
      'write',
      'write',
    ])
  })
})
