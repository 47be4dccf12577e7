import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashedPolicy, ifNoneMatchHits, inlineScriptHashes, isPublicDocument, strongEtag } from './http-cache.server'

type Ctx = Parameters<typeof isPublicDocument>[3]
function ctx(opts: { handle?: unknown; root?: unknown; actionData?: unknown; errors?: unknown } = {}): Ctx {
  return {
    staticHandlerContext: {
      matches: [{ route: { id: 'root' } }, { route: { id: 'routes/pricing', handle: opts.handle } }],
      loaderData: { root: opts.root ?? { user: null, toast: null } },
      actionData: opts.actionData ?? null,
      errors: opts.errors ?? null,
    },
  } as unknown as Ctx
}
const get = new Request('http://x/pricing')
const pub = { cache: 'public' }

describe('isPublicDocument', () => {
  it('is public only for an opted-in route, anonymous, without toast, cookie, action data or error', () => {
    expect(isPublicDocument(get, 200, new Headers(), ctx({ handle: pub }))).toBe(true)
    expect(isPublicDocument(get, 200, new Headers(), ctx())).toBe(false)
    expect(isPublicDocument(get, 200, new Headers(), ctx({ handle: pub, root: { user: { id: 'u' } } }))).toBe(false)
    expect(isPublicDocument(get, 200, new Headers(), ctx({ handle: pub, root: { toast: { message: 'Hi' } } }))).toBe(
      false,
    )
    expect(isPublicDocument(get, 200, new Headers({ 'Set-Cookie': 'a=b' }), ctx({ handle: pub }))).toBe(false)
    expect(isPublicDocument(get, 400, new Headers(), ctx({ handle: pub }))).toBe(false)
    expect(isPublicDocument(get, 200, new Headers(), ctx({ handle: pub, actionData: { x: 1 } }))).toBe(false)
    expect(isPublicDocument(get, 200, new Headers(), ctx({ handle: pub, errors: { root: 1 } }))).toBe(false)
    expect(
      isPublicDocument(new Request('http://x/', { method: 'POST' }), 200, new Headers(), ctx({ handle: pub })),
    ).toBe(false)
  })
})

describe('CSP hashes, ETag and If-None-Match', () => {
  it('hashes inline scripts only and replaces the nonce with the hashes', () => {
    const html = '<script>a()</script><script src="/x.js"></script><script type="module">b()</script><script></script>'
    const hashes = inlineScriptHashes(html)
    expect(hashes).toHaveLength(2)
    expect(hashes[0]).toBe(`'sha256-${crypto.createHash('sha256').update('a()').digest('base64')}'`)
    expect(hashedPolicy("script-src 'self' 'nonce-abc' https://x; object-src 'none'", hashes)).toBe(
      `script-src 'self' ${hashes.join(' ')} https://x; object-src 'none'`,
    )
  })

  it('changes the ETag with the content and matches If-None-Match lists, weak tags and *', () => {
    const a = strongEtag('<p>one</p>')
    expect(strongEtag('<p>one</p>')).toBe(a)
    expect(strongEtag('<p>two</p>')).not.toBe(a)
    expect(ifNoneMatchHits(a, a)).toBe(true)
    expect(ifNoneMatchHits(`"other", W/${a}`, a)).toBe(true)
    expect(ifNoneMatchHits('*', a)).toBe(true)
    expect(ifNoneMatchHits('"other"', a)).toBe(false)
    expect(ifNoneMatchHits(null, a)).toBe(false)
  })
})
