import { describe, expect, it } from 'vitest'
import {
  checkDomain,
  DOMAIN_MESSAGES,
  domainSchema,
  isStrikingDistance,
  normalizeDomain,
  STRIKING_DISTANCE,
} from './domains'

describe('normalizeDomain', () => {
  it.each([
    ['Example.com', 'example.com'],
    ['https://www.example.com/', 'example.com'],
    ['http://Blog.Example.co.uk', 'blog.example.co.uk'],
    ['  www.example.org.  ', 'example.org'],
    ['//example.io/', 'example.io'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['https://XN--BCHER-KVA.DE/', 'xn--bcher-kva.de'],
    ['例え.jp', 'xn--r8jz45g.jp'],
    ['my-site.example.com', 'my-site.example.com'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected)
  })

  it.each([
    ['', DOMAIN_MESSAGES.required],
    ['   ', DOMAIN_MESSAGES.required],
    ['example.com/blog', DOMAIN_MESSAGES.path],
    ['https://example.com/blog/post?x=1', DOMAIN_MESSAGES.path],
    ['example.com?q=1', DOMAIN_MESSAGES.path],
    ['example.com#top', DOMAIN_MESSAGES.path],
    ['example.com:8080', DOMAIN_MESSAGES.port],
    ['https://example.com:443/', DOMAIN_MESSAGES.port],
    ['user:pass@example.com', DOMAIN_MESSAGES.credentials],
    ['https://admin@example.com', DOMAIN_MESSAGES.credentials],
    ['ftp://example.com', DOMAIN_MESSAGES.scheme],
    ['javascript:alert(1)', DOMAIN_MESSAGES.scheme],
    ['127.0.0.1', DOMAIN_MESSAGES.ip],
    ['http://10.0.0.5/', DOMAIN_MESSAGES.ip],
    ['0x7f.1', DOMAIN_MESSAGES.ip],
    ['2130706433', DOMAIN_MESSAGES.ip],
    ['[::1]', DOMAIN_MESSAGES.ip],
    ['http://[fe80::1]/', DOMAIN_MESSAGES.ip],
    ['localhost', DOMAIN_MESSAGES.private],
    ['app.localhost', DOMAIN_MESSAGES.private],
    ['printer.local', DOMAIN_MESSAGES.private],
    ['metadata.google.internal', DOMAIN_MESSAGES.private],
    ['site.test', DOMAIN_MESSAGES.private],
    ['foo.example', DOMAIN_MESSAGES.private],
    ['bad.invalid', DOMAIN_MESSAGES.private],
    ['hidden.onion', DOMAIN_MESSAGES.private],
    ['router.home.arpa', DOMAIN_MESSAGES.private],
    ['mysite', DOMAIN_MESSAGES.noDot],
    ['co.uk', DOMAIN_MESSAGES.suffix],
    ['https://www.co.uk/', DOMAIN_MESSAGES.suffix],
    ['exa mple.com', DOMAIN_MESSAGES.invalid],
    ['-bad.com', DOMAIN_MESSAGES.invalid],
    ['under_score.com', DOMAIN_MESSAGES.invalid],
    ['example.123', DOMAIN_MESSAGES.invalid],
    ['example..com', DOMAIN_MESSAGES.invalid],
    ['<script>.com', DOMAIN_MESSAGES.invalid],
    [`${'a'.repeat(64)}.com`, DOMAIN_MESSAGES.invalid],
    [`${'abcdefghi.'.repeat(26)}com`, DOMAIN_MESSAGES.tooLong],
    ['x'.repeat(2001), DOMAIN_MESSAGES.tooLong],
  ])('refuses %j', (input, message) => {
    expect(checkDomain(input)).toEqual({ ok: false, message })
  })

  it('refuses what is not a string', () => {
    expect(normalizeDomain(undefined)).toBeNull()
    expect(normalizeDomain(42)).toBeNull()
  })
})

describe('domainSchema', () => {
  it('gives the normalised domain, or the message for the field', () => {
    expect(domainSchema.parse('https://www.Example.com/')).toBe('example.com')
    const failed = domainSchema.safeParse('example.com/blog')
    expect(failed.success).toBe(false)
    expect(failed.error?.issues[0]?.message).toBe('Enter a domain like example.com, without a path.')
  })
})

describe('STRIKING_DISTANCE', () => {
  it('is positions 4 to 20', () => {
    expect(STRIKING_DISTANCE).toEqual({ from: 4, to: 20 })
    expect([1, 3, 4, 12, 20, 21, null].map(isStrikingDistance)).toEqual([false, false, true, true, true, false, false])
  })
})
