import { beforeEach, describe, expect, it } from 'vitest'
import { finishDocument } from './http-cache.server'
import zlib from 'node:zlib'
import {
  cachedPage,
  clearPageCache,
  encodedBody,
  pageCacheKey,
  pageEncoding,
  PUBLIC_SHARED_MAX_AGE_S,
  rememberPage,
} from './page-cache.server'

const req = (over: Partial<Parameters<typeof pageCacheKey>[0]> = {}) => ({
  method: 'GET',
  protocol: 'https',
  originalUrl: '/pricing',
  headers: { host: 'rankwell.app' } as Record<string, string | undefined>,
  ...over,
})
const page = (text: string) => ({
  status: 200,
  headers: [['etag', `"${text}"`]] as Array<[string, string]>,
  body: Buffer.from(text),
  etag: `"${text}"`,
})

beforeEach(() => clearPageCache())

describe('pageCacheKey', () => {
  it('keys an anonymous GET or HEAD by build, scheme, hosts and the full URL', () => {
    const key = pageCacheKey(req(), 'v1')
    expect(key).toBeTruthy()
    expect(pageCacheKey(req({ method: 'HEAD' }), 'v1')).toBe(key)
    expect(pageCacheKey(req(), 'v2')).not.toBe(key)
    expect(pageCacheKey(req({ protocol: 'http' }), 'v1')).not.toBe(key)
    expect(pageCacheKey(req({ originalUrl: '/pricing?plan=year' }), 'v1')).not.toBe(key)
    expect(pageCacheKey(req({ headers: { host: 'other.example' } }), 'v1')).not.toBe(key)
    expect(pageCacheKey(req({ headers: { host: 'rankwell.app', 'x-forwarded-host': 'a.example' } }), 'v1')).not.toBe(
      key,
    )
  })

  it('refuses writes, any cookie or credentials, and data requests', () => {
    expect(pageCacheKey(req({ method: 'POST' }), 'v1')).toBeNull()
    expect(pageCacheKey(req({ headers: { host: 'rankwell.app', cookie: 'other=1' } }), 'v1')).toBeNull()
    expect(pageCacheKey(req({ headers: { host: 'rankwell.app', authorization: 'Bearer x' } }), 'v1')).toBeNull()
    expect(pageCacheKey(req({ originalUrl: '/pricing?_data=root' }), 'v1')).toBeNull()
    expect(pageCacheKey(req({ originalUrl: '/pricing?a=1&_data' }), 'v1')).toBeNull()
    expect(pageCacheKey(req({ originalUrl: '/blog/big_data' }), 'v1')).not.toBeNull()
  })
})

describe('the page cache', () => {
  it('answers a kept page until its s-maxage has passed', () => {
    const now = 1_000_000
    rememberPage('k', page('a'), now)
    expect(cachedPage('k', now + 1000)?.body.toString()).toBe('a')
    expect(cachedPage('k', now + PUBLIC_SHARED_MAX_AGE_S * 1000 - 1)?.etag).toBe('"a"')
    expect(cachedPage('k', now + PUBLIC_SHARED_MAX_AGE_S * 1000)).toBeUndefined()
    expect(cachedPage('k', now)).toBeUndefined()
  })

  it('keeps at most 200 pages, dropping the least recently used first', () => {
    for (let i = 0; i < 200; i++) rememberPage(`k${i}`, page(String(i)))
    expect(cachedPage('k0')).toBeDefined() // k0 is now the most recently used
    rememberPage('k200', page('200'))
    expect(cachedPage('k1')).toBeUndefined()
    expect(cachedPage('k0')).toBeDefined()
    expect(cachedPage('k200')).toBeDefined()
  })

  it('keeps at most 16 MiB of pages', () => {
    const big = (n: number) => ({ ...page('x'), body: Buffer.alloc(n) })
    for (let i = 0; i < 10; i++) rememberPage(`b${i}`, big(1.9 * 1024 * 1024))
    expect(cachedPage('b0')).toBeUndefined()
    expect(cachedPage('b9')).toBeDefined()
    // A single page over 2 MiB is not kept at all.
    rememberPage('huge', big(3 * 1024 * 1024))
    expect(cachedPage('huge')).toBeUndefined()
  })
})

describe('finishDocument', () => {
  const html = '<!DOCTYPE html><html><body><script>1</script></body></html>'
  const policy = "default-src 'self'; script-src 'self' 'nonce-abc'"
  it('hands a public document to `remember` with its headers, bytes and validator', () => {
    const kept: Array<Parameters<typeof rememberPage>[1]> = []
    const res = finishDocument(new Request('https://x/'), html, {
      status: 200,
      headers: new Headers(),
      isPublic: true,
      policy,
      remember: (p) => kept.push(p),
    })
    expect(kept).toHaveLength(1)
    expect(kept[0]!.body.toString()).toBe(html)
    expect(kept[0]!.etag).toBe(res.headers.get('etag'))
    expect(new Headers(kept[0]!.headers).get('content-security-policy')).toBe(
      res.headers.get('content-security-policy'),
    )
    expect(new Headers(kept[0]!.headers).get('cache-control')).toMatch(/^public, /)
  })

  it('never hands over a private document', () => {
    const kept: unknown[] = []
    finishDocument(new Request('https://x/'), html, {
      status: 200,
      headers: new Headers(),
      isPublic: false,
      policy,
      remember: (p) => kept.push(p),
    })
    expect(kept).toHaveLength(0)
  })
})

describe('pageEncoding', () => {
  it('prefers Brotli, then gzip, honours q=0 and *, and sends none when nothing fits', () => {
    expect(pageEncoding('gzip, deflate, br')).toBe('br')
    expect(pageEncoding('gzip, deflate')).toBe('gzip')
    expect(pageEncoding('br;q=0, gzip')).toBe('gzip')
    expect(pageEncoding('BR ; q=0.0 , GZIP;q=0.2')).toBe('gzip')
    expect(pageEncoding('*')).toBe('br')
    expect(pageEncoding('*;q=0, gzip')).toBe('gzip')
    expect(pageEncoding('deflate, identity')).toBeNull()
    expect(pageEncoding('gzip;q=0, br;q=0')).toBeNull()
    expect(pageEncoding('')).toBeNull()
    expect(pageEncoding(undefined)).toBeNull()
  })
})

describe('encodedBody', () => {
  it('compresses a kept page once per encoding and counts it', () => {
    rememberPage('k', page('<p>same words again</p>'.repeat(500)))
    const kept = cachedPage('k')!
    const br = encodedBody('k', kept, 'br')
    expect(zlib.brotliDecompressSync(br).equals(kept.body)).toBe(true)
    expect(encodedBody('k', kept, 'br')).toBe(br)
    const gz = encodedBody('k', kept, 'gzip')
    expect(zlib.gunzipSync(gz).equals(kept.body)).toBe(true)
    expect(cachedPage('k')!.encoded).toEqual({ br, gzip: gz })
  })
})
