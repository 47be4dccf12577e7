import zlib from 'node:zlib'
/**
 * An in-process copy of the public marketing pages (issue 17, docs/decisions/0174-public-page-micro-cache.md): the
 * same thing the CDN in front of us keeps, held by each web process for the same time, so that an anonymous visit
 * to `/` does not render the whole React tree again. It is exactly as strict as the CDN caching:
 *
 * - only a document the app itself declared public (http-cache.server.ts: a `publicPage` route, status 200, no
 *   user, no toast, no Set-Cookie, no action data or error) is kept, and only as answered to a GET;
 * - it is answered only to a GET or HEAD with no Cookie and no Authorization header at all (nothing a loader could
 *   personalise with) and never to a data request (`_data`);
 * - the key is the build, the request's scheme, hosts and full URL (path and query);
 * - it lives PUBLIC_SHARED_MAX_AGE_S (the `s-maxage` of the page), and the cache is bounded by entries and bytes
 *   (least recently used first out), so the process stays stateless: a restart or another machine just renders.
 *
 * Everything per request still runs for a hit: the request id, metrics and log line, security headers, origin and
 * size checks; the stored headers (Cache-Control, ETag, the hashed CSP) replace the generic ones, and a matching
 * If-None-Match gets a 304.
 */
export const PUBLIC_SHARED_MAX_AGE_S = 300

export type CachedPage = {
  status: number
  headers: Array<[string, string]>
  body: Buffer
  etag: string
  expiresAt: number
  /** The body compressed once per encoding, on the first request that accepts it (see `encodedBody`). */
  encoded?: Partial<Record<PageEncoding, Buffer>>
}

export type PageEncoding = 'br' | 'gzip'

/**
 * The encoding to send a kept page in, from the request's Accept-Encoding (RFC 9110 §12.5.3): Brotli, else gzip,
 * else none. An encoding listed with q=0 is refused; `*` stands for any encoding not listed.
 */
export function pageEncoding(acceptEncoding: string | undefined): PageEncoding | null {
  if (!acceptEncoding) return null
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    weights.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1)
  }
  const accepts = (name: PageEncoding) => (weights.get(name) ?? weights.get('*') ?? 0) > 0
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : null
}

/**
 * A kept page's body in `encoding`, compressed on first use and kept with the page (issue 17): the compression
 * middleware would otherwise compress the same bytes again on every visit (a public page carries its inline
 * stylesheet, decision 0214, and Brotli of ~90 kB cost more than the rest of the answer). Counted in the cache's
 * byte budget; `key` is the page's key in the cache.
 */
export function encodedBody(key: string, page: CachedPage, encoding: PageEncoding): Buffer {
  const kept = page.encoded?.[encoding]
  if (kept) return kept
  const body =
    encoding === 'br'
      ? zlib.brotliCompressSync(page.body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.body.length,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          },
        })
      : zlib.gzipSync(page.body, { level: 6 })
  page.encoded = { ...page.encoded, [encoding]: body }
  // Counted while the page is still the one kept under its key (it may have expired or been replaced meanwhile).
  const s = store()
  if (s.pages.get(key) === page) s.bytes += body.length
  return body
}

type Store = {
  pages: Map<string, CachedPage>
  bytes: number
}

const MAX_ENTRIES = 200
const MAX_BYTES = 16 * 1024 * 1024

declare global {
  var __rankwellPageCache: Store | undefined
}

// On globalThis: server.ts looks pages up, the Remix server build (entry.server.tsx) stores them; each loads this
// module on its own.
function store(): Store {
  globalThis.__rankwellPageCache ??= { pages: new Map(), bytes: 0 }
  return globalThis.__rankwellPageCache
}

/**
 * The cache key of a request that may be answered from (and stored into) the cache, or null when it may not: not a
 * GET/HEAD, any cookie or credentials, or a data request.
 */
export function pageCacheKey(
  req: {
    method: string
    protocol: string
    originalUrl: string
    headers: Record<string, string | string[] | undefined>
  },
  buildVersion: string,
): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null
  const h = req.headers
  if (h.cookie !== undefined || h.authorization !== undefined) return null
  if (DATA_REQUEST.test(req.originalUrl)) return null
  const host = typeof h.host === 'string' ? h.host : ''
  const forwarded = typeof h['x-forwarded-host'] === 'string' ? h['x-forwarded-host'] : ''
  return `${buildVersion}\n${req.protocol}\n${forwarded}\n${host}\n${req.originalUrl}`
}

const DATA_REQUEST = /[?&]_data(?:[=&]|$)/

function forget(s: Store, key: string) {
  const old = s.pages.get(key)
  if (!old) return
  s.pages.delete(key)
  s.bytes -= pageBytes(old)
}

function pageBytes(page: CachedPage) {
  return page.body.length + (page.encoded?.br?.length ?? 0) + (page.encoded?.gzip?.length ?? 0)
}

/** A fresh stored page for `key`, or undefined. */
export function cachedPage(key: string, now = Date.now()): CachedPage | undefined {
  const s = store()
  const page = s.pages.get(key)
  if (!page) return undefined
  if (page.expiresAt <= now) {
    forget(s, key)
    return undefined
  }
  // Least recently used goes first: a hit moves the page to the end.
  s.pages.delete(key)
  s.pages.set(key, page)
  return page
}

/** Keeps a public page rendered for `key`, evicting the least recently used ones over budget. */
export function rememberPage(key: string, page: Omit<CachedPage, 'expiresAt'>, now = Date.now()): void {
  if (page.body.length > MAX_BYTES / 8) return
  const s = store()
  forget(s, key)
  s.pages.set(key, { ...page, expiresAt: now + PUBLIC_SHARED_MAX_AGE_S * 1000 })
  s.bytes += page.body.length
  for (const [oldest] of s.pages) {
    if (s.pages.size <= MAX_ENTRIES && s.bytes <= MAX_BYTES) break
    forget(s, oldest)
  }
}

/** Empties the cache (unit tests). */
export function clearPageCache() {
  globalThis.__rankwellPageCache = { pages: new Map(), bytes: 0 }
}
