/**
 * Issue 34: codes of an authenticator app in the tests, from the key the page shows (or the stored secret), with
 * @epic-web/totp as an app would compute them (RFC 6238: 6 digits, 30-second steps, SHA-1).
 */
import crypto from 'node:crypto'
import { generateTOTP } from '@epic-web/totp'

const PERIOD_MS = 30_000

function base32(key: string) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const c of key.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0')
  const bytes = bits.match(/.{8}/g) ?? []
  return Buffer.from(bytes.map((b) => parseInt(b, 2)))
}

/** RFC 4226's HOTP of one counter (for a step other than the current one, which the library cannot be asked for). */
function hotp(secret: Buffer, counter: number) {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = crypto.createHmac('sha1', secret).update(message).digest()
  const offset = mac[mac.length - 1]! & 0xf
  const value = mac.readUInt32BE(offset) & 0x7fffffff
  return String(value % 1_000_000).padStart(6, '0')
}

/**
 * The code of the step `offset` steps from now (-1, 0, +1: an app whose clock is a step behind or ahead). The current
 * step's code comes from @epic-web/totp's generateTOTP, as an app computes it; the others from RFC 4226 directly.
 */
export async function totpCode(key: string, offset = 0): Promise<string> {
  const secret = key.replace(/\s+/g, '').toUpperCase()
  if (offset === 0) return (await generateTOTP({ secret, period: 30, digits: 6, algorithm: 'SHA-1' })).otp
  return hotp(base32(secret), Math.floor(Date.now() / PERIOD_MS) + offset)
}

/** Waits, when the current step ends in less than `margin` ms, for the next one: a few codes then stay in the window. */
export async function freshStep(margin = 8_000) {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS)
  if (left < margin) await new Promise((r) => setTimeout(r, left + 200))
}

/** The recovery codes of a page's HTML (shown once after turning on, or after asking for new ones). */
export function recoveryCodesIn(html: string): string[] {
  return [...html.matchAll(/data-testid="recovery-code"[^>]*>([a-z0-9]{5}-[a-z0-9]{5})</g)].map((m) => m[1]!)
}

/** The key for typing of a /profile page where two-step sign-in is being set up. */
export function totpKeyIn(html: string): string {
  const match = /data-testid="totp-key"[^>]*>([A-Z2-7 ]+)</.exec(html)
  if (!match) throw new Error('no key for typing on the page')
  return match[1]!.replace(/\s+/g, '')
}
