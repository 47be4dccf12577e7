import crypto from 'node:crypto'

/**
 * Signing of outgoing webhooks to the Standard Webhooks specification (v1): a `webhook-id` that stays the same on
 * every retry, a `webhook-timestamp` of the attempt and a `webhook-signature` `v1,<base64 HMAC-SHA256>` of
 * `id.timestamp.body` keyed with a `whsec_` secret.
 */

export const SECRET_PREFIX = 'whsec_'

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret() {
  return `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64')}`
}

/** The `webhook-signature` header value for one attempt. */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string) {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')
  const signature = crypto.createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')
  return `v1,${signature}`
}

export function randomMessageId() {
  return `msg_${crypto.randomBytes(18).toString('base64url')}`
}

/** One message per (post, event): the id is derived from both, so a second publication finds it taken. */
export function postMessageId(postId: string, eventType: string) {
  return `msg_${crypto.createHash('sha256').update(`${eventType}:${postId}`).digest('base64url').slice(0, 27)}`
}
