import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Development secrets, generated once per data directory and kept in `<dataDir>/secrets.json` (mode 0600): the
 * session secret that signs cookies and API tokens, and the key for credentials stored at rest. Never a constant
 * in the source, so knowing the code (or a user's id) is not enough to forge a session on a development instance.
 * Production takes both from the environment.
 */
export type DevelopmentSecrets = { SESSION_SECRET: string; ENCRYPTION_KEY: string }

export function developmentSecrets(dataDir: string): DevelopmentSecrets {
  const file = path.join(dataDir, 'secrets.json')
  const fresh = () => crypto.randomBytes(32).toString('base64url')
  let stored: Partial<DevelopmentSecrets> = {}
  try {
    stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DevelopmentSecrets>
  } catch {
    /* first run, or an unreadable file: new secrets below */
  }
  const secrets: DevelopmentSecrets = {
    SESSION_SECRET:
      typeof stored.SESSION_SECRET === 'string' && stored.SESSION_SECRET ? stored.SESSION_SECRET : fresh(),
    ENCRYPTION_KEY:
      typeof stored.ENCRYPTION_KEY === 'string' && stored.ENCRYPTION_KEY ? stored.ENCRYPTION_KEY : fresh(),
  }
  if (secrets.SESSION_SECRET !== stored.SESSION_SECRET || secrets.ENCRYPTION_KEY !== stored.ENCRYPTION_KEY) {
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
  }
  return secrets
}
