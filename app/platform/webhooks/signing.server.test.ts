import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import {
  generateWebhookSecret,
  postMessageId,
  randomMessageId,
  signWebhook,
} from '#app/platform/webhooks/signing.server'

describe('Standard Webhooks signatures', () => {
  it('matches the reference test vector', () => {
    const body = '{"type":"article.published","timestamp":"2025-01-01T00:00:00Z","data":{"id":"art_123"}}'
    expect(
      signWebhook(
        'whsec_cmVmZGF0YS10ZXN0LWtleS0wMTIzNDU2Nzg5YWJjZA==',
        'msg_2Zp9testid000000000000001',
        1735689600,
        body,
      ),
    ).toBe('v1,DbDP07Pp2n3pIaz0hxJryqfcAJjEIQKKPSrglVZlSYE=')
  })

  it('is verified by the official standardwebhooks library', () => {
    const secret = generateWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const id = randomMessageId()
    const timestamp = Math.floor(Date.now() / 1000)
    const body = JSON.stringify({ type: 'test', timestamp: new Date().toISOString(), data: {} })
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, id, timestamp, body),
    }
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'test' })
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow()
  })

  it('gives one stable message id per post and event', () => {
    const postId = '6f1c1f8e-1c1a-4a43-9d7b-0a2a5a1c9e11'
    expect(postMessageId(postId, 'post.published')).toBe(postMessageId(postId, 'post.published'))
    expect(postMessageId(postId, 'post.published')).not.toBe(postMessageId(postId, 'post.updated'))
    expect(postMessageId(postId, 'post.published')).toMatch(/^msg_[A-Za-z0-9_-]{27}$/)
    expect(randomMessageId()).not.toBe(randomMessageId())
  })
})
