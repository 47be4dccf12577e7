import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { developmentSecrets } from '../../scripts/lib/secrets'

describe('development secrets (scripts/lib/secrets.ts)', () => {
  it('are random per data directory, written once (mode 0600) and kept', () => {
    const a = fs.mkdtempSync(path.join(os.tmpdir(), 'rw-secrets-'))
    const b = fs.mkdtempSync(path.join(os.tmpdir(), 'rw-secrets-'))
    const first = developmentSecrets(a)
    expect(first.SESSION_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(first.ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(first.ENCRYPTION_KEY).not.toBe(first.SESSION_SECRET)
    expect(developmentSecrets(a)).toEqual(first)
    expect(fs.statSync(path.join(a, 'secrets.json')).mode & 0o777).toBe(0o600)
    const other = developmentSecrets(b)
    expect(other.SESSION_SECRET).not.toBe(first.SESSION_SECRET)
    expect(fs.readFileSync(path.join(__dirname, 'env.server.ts'), 'utf8')).not.toMatch(/development-secret/)
    fs.rmSync(a, { recursive: true })
    fs.rmSync(b, { recursive: true })
  })
})
