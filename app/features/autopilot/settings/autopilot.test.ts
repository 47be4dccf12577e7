import { describe, expect, it } from 'vitest'
import { difficultyRank } from '#app/features/keywords/difficulty'
import { isRetryableStatus, parseRetryAfter } from '#app/platform/http/http-retry'
import { apiErrors, parseSubmission } from '#app/platform/forms/submission'
import {
  cadenceForm,
  formatWindow,
  parseCadence,
  parseWebhookUrl,
  pickBestKeyword,
  retryDelayMs,
  scheduledTimeOf,
  slotFor,
  WEBHOOK_URL_MESSAGES,
  webhookUrlForm,
} from './autopilot'

describe('parseWebhookUrl', () => {
  it('refuses an empty value with the spec message', () => {
    expect(parseWebhookUrl('')).toEqual({ ok: false, error: WEBHOOK_URL_MESSAGES.empty })
    expect(parseWebhookUrl('   ')).toEqual({ ok: false, error: 'Webhook URL cannot be empty.' })
    expect(parseWebhookUrl(undefined)).toEqual({ ok: false, error: 'Webhook URL cannot be empty.' })
  })

  it.each([
    'not a url',
    'ftp://example.com/hook',
    'http://',
    'example',
    'http://300.1.1.1/',
    'https://exa mple.com',
    'javascript:alert(1)',
    'http://example.com:99999/',
  ])('refuses %s with the spec message', (value) => {
    expect(parseWebhookUrl(value)).toEqual({ ok: false, error: 'Please enter a valid URL.' })
  })

  it('adds https:// when the scheme is missing and keeps port and path', () => {
    expect(parseWebhookUrl('example.com/hooks/rankwell')).toEqual({
      ok: true,
      url: 'https://example.com/hooks/rankwell',
    })
    expect(parseWebhookUrl('api.my-site.co.uk:8443/in')).toEqual({ ok: true, url: 'https://api.my-site.co.uk:8443/in' })
  })

  it('keeps http and https URLs, domains and IPv4 addresses', () => {
    expect(parseWebhookUrl('http://127.0.0.1:4000/hook')).toEqual({ ok: true, url: 'http://127.0.0.1:4000/hook' })
    expect(parseWebhookUrl(' HTTPS://Example.com ')).toEqual({ ok: true, url: 'https://example.com/' })
    expect(parseWebhookUrl('https://example.com/a?b=c')).toEqual({ ok: true, url: 'https://example.com/a?b=c' })
  })
})

describe('cadence and slots', () => {
  it('accepts 1 to 7 days only', () => {
    expect(parseCadence('1')).toBe(1)
    expect(parseCadence('7')).toBe(7)
    expect(parseCadence('0')).toBeNull()
    expect(parseCadence('8')).toBeNull()
    expect(parseCadence('2.5')).toBeNull()
    expect(parseCadence(null)).toBeNull()
  })

  it('derives the slot from the UTC date of the scheduled time', () => {
    expect(slotFor(Date.UTC(2026, 0, 5, 23, 59))).toBe('2026-01-05')
    expect(slotFor(Date.UTC(2026, 0, 6, 0, 0))).toBe('2026-01-06')
  })

  it('reads the scheduled time from a job scheduler job id, else timestamp + delay', () => {
    expect(scheduledTimeOf({ id: 'repeat:autopilot-abc:1767657600000', timestamp: 1, delay: 0 })).toBe(1767657600000)
    expect(scheduledTimeOf({ id: 'custom', timestamp: 1000, delay: 500 })).toBe(1500)
  })
})

describe('pickBestKeyword', () => {
  const k = (keyword: string, volume: number | null, difficulty: number | null) => ({
    id: keyword,
    keyword,
    avgMonthlySearches: volume,
    difficultyScore: difficulty,
  })

  it('takes the easiest band first, then the highest volume', () => {
    const picked = pickBestKeyword(
      [k('hard big', 90000, 70), k('easy small', 100, 5), k('easy big', 5000, 25), k('medium', 80000, 40)],
      [],
    )
    expect(picked?.keyword).toBe('easy big')
  })

  it('never picks a keyword already written (case- and space-insensitive)', () => {
    const picked = pickBestKeyword([k('Easy Big', 5000, 25), k('easy small', 100, 5)], ['easy  big'])
    expect(picked?.keyword).toBe('easy small')
  })

  it('ranks unknown difficulty and volume last, and returns null when nothing is left', () => {
    expect(pickBestKeyword([k('unknown', 99999, null), k('hard', 10, 85)], [])?.keyword).toBe('hard')
    expect(pickBestKeyword([k('a', 10, null), k('b', null, null)], [])?.keyword).toBe('a')
    expect(pickBestKeyword([k('only', 10, 10)], ['ONLY'])).toBeNull()
  })

  it('uses the spec difficulty bands', () => {
    expect([0, 29, 30, 59, 60, 79, 80, null].map(difficultyRank)).toEqual([0, 0, 1, 1, 2, 2, 3, 4])
  })
})

describe('webhook retry schedule', () => {
  const noJitter = () => 0.5
  it('grows 5x from the base delay and is capped at a quarter of the window', () => {
    const opts = { baseMs: 5000, windowMs: 24 * 3600_000, random: noJitter }
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, opts))).toEqual([
      5000, 25000, 125000, 625000, 3125000, 15625000, 21600000, 21600000,
    ])
  })

  it('keeps retrying for about a day with the defaults', () => {
    const opts = { baseMs: 5000, windowMs: 24 * 3600_000, random: noJitter }
    let elapsed = 0
    let retries = 0
    while (elapsed + retryDelayMs(retries + 1, opts) <= opts.windowMs) elapsed += retryDelayMs(++retries, opts)
    expect(retries).toBeGreaterThanOrEqual(8)
    expect(elapsed).toBeGreaterThan(20 * 3600_000)
  })

  it('adds at most ±10% jitter and honours Retry-After up to the cap', () => {
    const opts = { baseMs: 1000, windowMs: 100_000 }
    expect(retryDelayMs(1, { ...opts, random: () => 0 })).toBe(900)
    expect(retryDelayMs(1, { ...opts, random: () => 0.9999 })).toBe(1100)
    expect(retryDelayMs(1, { ...opts, random: noJitter, retryAfterMs: 7000 })).toBe(7000)
    expect(retryDelayMs(1, { ...opts, random: noJitter, retryAfterMs: 10_000_000 })).toBe(25_000)
  })

  it('parses Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('120')).toBe(120_000)
    expect(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000)).toBe(30_000)
    expect(parseRetryAfter('soon')).toBeNull()
    expect(parseRetryAfter(undefined)).toBeNull()
  })

  it('retries on 408, 429 and 5xx only', () => {
    expect([200, 301, 400, 404, 410, 429, 500, 503].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ])
  })

  it('describes windows for people', () => {
    expect(formatWindow(24 * 3600_000)).toBe('24 hours')
    expect(formatWindow(3000)).toBe('3 seconds')
  })
})

describe('the forms of /autopilot', () => {
  it('checks the webhook URL with the spec messages, for the form and the API alike', () => {
    const empty = parseSubmission(new URLSearchParams({ webhookUrl: '  ' }), webhookUrlForm)
    expect(empty.reply().error).toEqual({ webhookUrl: [WEBHOOK_URL_MESSAGES.empty] })
    const bad = webhookUrlForm.safeParse({ webhookUrl: 'not a url' })
    expect(bad.success ? null : apiErrors(bad.error)).toEqual({
      message: WEBHOOK_URL_MESSAGES.invalid,
      errors: { webhookUrl: [WEBHOOK_URL_MESSAGES.invalid] },
    })
    expect(webhookUrlForm.safeParse({ webhookUrl: 42 }).error?.issues[0]?.message).toBe(WEBHOOK_URL_MESSAGES.empty)
    expect(webhookUrlForm.parse({ webhookUrl: 'hooks.example.com/in' })).toEqual({
      webhookUrl: 'https://hooks.example.com/in',
    })
  })

  it('takes a cadence of 1 to 7 days', () => {
    expect(cadenceForm.parse({ cadenceDays: '7' })).toEqual({ cadenceDays: 7 })
    const bad = parseSubmission(new URLSearchParams({ cadenceDays: '8' }), cadenceForm)
    expect(bad.reply().error).toEqual({ cadenceDays: ['Choose how often Auto Pilot writes.'] })
  })
})
