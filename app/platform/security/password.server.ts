import { hash, verify } from '@node-rs/argon2'

// argon2id with the OWASP minimum parameters: m=19456 KiB, t=2, p=1.
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id */ as const, memoryCost: 19456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string) {
  return hash(password, OPTIONS)
}

export async function verifyPassword(hashValue: string | null | undefined, password: string) {
  if (!hashValue) return false
  try {
    return await verify(hashValue, password)
  } catch {
    return false
  }
}
