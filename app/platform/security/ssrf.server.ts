import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { getEnv, type Env } from '#app/platform/env.server'

/**
 * The SSRF guard for outgoing webhooks. Only http and https; the host is resolved at delivery time and EVERY
 * address it resolves to must be public. The request then connects to one of exactly those vetted addresses
 * (our own `lookup` hands them to the socket), so a DNS answer that changes between check and connect
 * (rebinding) cannot sneak in. Redirects are never followed. `allowPrivate` lifts the address checks for
 * development and tests: one switch per kind of outgoing request (`allowPrivateNetworks`).
 */

/**
 * Issue 34: the kinds of outgoing request whose targets come from users or fetched pages, each with its own switch
 * (off by default, off in production): webhooks (Auto Pilot's), research (pages read for research, the customer's
 * sitemap and site pages, stock photo downloads) and cms (WordPress, Ghost and Webflow calls).
 */
export const PRIVATE_NETWORK_SWITCHES = {
  webhook: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
  research: 'RESEARCH_ALLOW_PRIVATE_NETWORKS',
  cms: 'CMS_ALLOW_PRIVATE_NETWORKS',
} as const satisfies Record<string, keyof Env>

export type OutgoingKind = keyof typeof PRIVATE_NETWORK_SWITCHES

/** Whether requests of this kind may reach private and loopback addresses (its own switch only). */
export function allowPrivateNetworks(kind: OutgoingKind, env: Env = getEnv()): boolean {
  return env[PRIVATE_NETWORK_SWITCHES[kind]]
}

/**
 * One warning line for a production process started with any of the switches on (web and worker log it at start),
 * naming each; null when none is on or outside production.
 */
export function privateNetworkWarning(env: Env): string | null {
  if (env.NODE_ENV !== 'production') return null
  const on = Object.values(PRIVATE_NETWORK_SWITCHES).filter((name) => env[name])
  if (on.length === 0) return null
  return `${on.join(', ')} on in production: the SSRF guard lets these requests reach private and loopback addresses`
}

export class BlockedAddressError extends Error {
  readonly code = 'BLOCKED_ADDRESS'
  constructor(message: string) {
    super(message)
    this.name = 'BlockedAddressError'
  }
}

type V4Range = { base: number; bits: number; label: string }

const v4 = (cidr: string, label: string): V4Range => {
  const [ip, bits] = cidr.split('/') as [string, string]
  return { base: ipv4ToInt(ip)!, bits: Number(bits), label }
}

const BLOCKED_V4: V4Range[] = [
  v4('0.0.0.0/8', 'an unspecified address'),
  v4('10.0.0.0/8', 'a private address'),
  v4('100.64.0.0/10', 'a carrier-grade NAT address'),
  v4('127.0.0.0/8', 'a loopback address'),
  v4('169.254.0.0/16', 'a link-local address (cloud metadata)'),
  v4('172.16.0.0/12', 'a private address'),
  v4('192.0.0.0/24', 'a reserved address'),
  v4('192.0.2.0/24', 'a reserved address'),
  v4('192.88.99.0/24', 'a reserved address'),
  v4('192.168.0.0/16', 'a private address'),
  v4('198.18.0.0/15', 'a reserved address'),
  v4('198.51.100.0/24', 'a reserved address'),
  v4('203.0.113.0/24', 'a reserved address'),
  v4('224.0.0.0/4', 'a multicast address'),
  v4('240.0.0.0/4', 'a reserved address'),
]

type V6Range = { base: bigint; bits: number; label: string }
const v6 = (cidr: string, label: string): V6Range => {
  const [ip, bits] = cidr.split('/') as [string, string]
  return { base: ipv6ToBigInt(ip)!, bits: Number(bits), label }
}

const BLOCKED_V6: V6Range[] = [
  v6('::/128', 'an unspecified address'),
  v6('::1/128', 'a loopback address'),
  v6('100::/64', 'a reserved address'),
  v6('2001:db8::/32', 'a reserved address'),
  v6('fc00::/7', 'a unique-local address'),
  v6('fe80::/10', 'a link-local address'),
  v6('fec0::/10', 'a site-local address'),
  v6('ff00::/8', 'a multicast address'),
]

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits; that address is checked too. */
const EMBEDDED_V4_PREFIXES: Array<{ base: bigint; bits: number }> = [
  { base: ipv6ToBigInt('::ffff:0:0')!, bits: 96 }, // IPv4-mapped
  { base: ipv6ToBigInt('::')!, bits: 96 }, // IPv4-compatible (deprecated)
  { base: ipv6ToBigInt('64:ff9b::')!, bits: 96 }, // NAT64
  { base: ipv6ToBigInt('64:ff9b:1::')!, bits: 48 }, // local-use NAT64
]

/** Names that lead to the machine itself or to a cloud provider's metadata service. */
const BLOCKED_HOSTNAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
])

export function ipv4ToInt(ip: string): number | null {
  if (!net.isIPv4(ip)) return null
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0)
}

export function ipv6ToBigInt(input: string): bigint | null {
  let ip = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!net.isIPv6(ip)) return null
  // A trailing dotted quad (::ffff:127.0.0.1) becomes two 16-bit groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip)
  if (quad) {
    const n = ipv4ToInt(quad[1]!)
    if (n === null) return null
    ip = `${ip.slice(0, -quad[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const halves = ip.split('::')
  if (halves.length > 2) return null
  const toGroups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)))
  let groups: number[]
  if (halves.length === 2) {
    const left = toGroups(halves[0]!)
    const right = toGroups(halves[1]!)
    const fill = 8 - left.length - right.length
    if (fill < 0) return null
    groups = [...left, ...new Array<number>(fill).fill(0), ...right]
  } else {
    groups = toGroups(ip)
  }
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g) || g < 0 || g > 0xffff)) return null
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(g), 0n)
}

const inV6 = (value: bigint, range: { base: bigint; bits: number }) =>
  range.bits === 0 || value >> BigInt(128 - range.bits) === range.base >> BigInt(128 - range.bits)

/** Why an address may not be contacted, or null when it is a public address. */
export function blockedAddressReason(address: string): string | null {
  const ip = address.replace(/^\[|\]$/g, '')
  const asV4 = ipv4ToInt(ip)
  if (asV4 !== null) {
    for (const range of BLOCKED_V4) {
      const size = 2 ** (32 - range.bits)
      if (Math.floor(asV4 / size) === Math.floor(range.base / size)) return range.label
    }
    if (asV4 === 0xffffffff) return 'a broadcast address'
    return null
  }
  const asV6 = ipv6ToBigInt(ip)
  if (asV6 === null) return 'not an IP address'
  for (const range of BLOCKED_V6) if (inV6(asV6, range)) return range.label
  for (const prefix of EMBEDDED_V4_PREFIXES) {
    if (inV6(asV6, prefix)) {
      const embedded = Number(asV6 & 0xffffffffn)
      const dotted = [24, 16, 8, 0].map((s) => (embedded >>> s) & 255).join('.')
      const reason = blockedAddressReason(dotted)
      return reason ? `${reason} (embedded in ${ip})` : null
    }
  }
  // 6to4 carries an IPv4 address in bits 16-48.
  if (asV6 >> 112n === 0x2002n) {
    const embedded = Number((asV6 >> 80n) & 0xffffffffn)
    const dotted = [24, 16, 8, 0].map((s) => (embedded >>> s) & 255).join('.')
    const reason = blockedAddressReason(dotted)
    if (reason) return `${reason} (embedded in ${ip})`
  }
  return null
}

export function blockedHostnameReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (BLOCKED_HOSTNAMES.has(host) || host.endsWith('.localhost')) return `${host} is a local or metadata host name`
  return null
}

export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true })

export type GuardOptions = { allowPrivate: boolean; lookup?: LookupAll }

/**
 * Checks a URL's scheme and host name and resolves it, vetting every address. Returns the vetted addresses;
 * throws BlockedAddressError when something is not allowed (DNS failures are thrown as they are).
 */
export async function vetUrl(
  rawUrl: string | URL,
  opts: GuardOptions,
): Promise<{ url: URL; addresses: Array<{ address: string; family: number }> }> {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    throw new BlockedAddressError('The webhook URL is not a valid URL.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedAddressError(`Only http and https URLs are allowed, not ${url.protocol.replace(':', '')}.`)
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (net.isIP(host)) {
    const reason = opts.allowPrivate ? null : blockedAddressReason(host)
    if (reason) throw new BlockedAddressError(`Refused to connect to ${host}: ${reason}.`)
    return { url, addresses: [{ address: host, family: net.isIPv6(host) ? 6 : 4 }] }
  }
  if (!opts.allowPrivate) {
    const nameReason = blockedHostnameReason(host)
    if (nameReason) throw new BlockedAddressError(`Refused to connect to ${host}: ${nameReason}.`)
  }
  const addresses = await (opts.lookup ?? systemLookup)(host)
  if (addresses.length === 0)
    throw Object.assign(new Error(`${host} did not resolve to any address.`), { code: 'ENOTFOUND' })
  if (!opts.allowPrivate) {
    for (const { address } of addresses) {
      const reason = blockedAddressReason(address)
      if (reason) throw new BlockedAddressError(`Refused to connect to ${host}: it resolves to ${address}, ${reason}.`)
    }
  }
  return { url, addresses }
}

export type SafeResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; durationMs: number }

export class RequestTimeoutError extends Error {
  readonly code = 'ETIMEDOUT'
  constructor(ms: number) {
    super(`No answer within ${Math.round(ms / 1000)} seconds.`)
    this.name = 'RequestTimeoutError'
  }
}

/**
 * POSTs a body to a URL through the guard: vetted addresses only, no redirects followed (a 3xx is returned as
 * it is), a hard time limit for the whole exchange, at most 4 KB of the answer kept.
 */
export async function guardedPost(
  rawUrl: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number } & GuardOptions,
): Promise<SafeResponse> {
  const {
    truncated: _truncated,
    bytes: _bytes,
    ...res
  } = await guardedRequest(rawUrl, {
    ...init,
    method: 'POST',
    maxBytes: 4096,
  })
  return res
}

/**
 * GETs a URL through the guard (a third party's page, a user's sitemap): vetted addresses only, no redirects
 * followed, a hard time limit, at most `maxBytes` of the answer read (the rest is cut off and `truncated` set).
 */
export async function guardedGet(
  rawUrl: string,
  init: { headers?: Record<string, string>; timeoutMs: number; maxBytes: number } & GuardOptions,
): Promise<SafeResponse & { truncated: boolean; bytes: Buffer }> {
  return guardedRequest(rawUrl, { ...init, method: 'GET', headers: init.headers ?? {} })
}

/** Raised by callers that refuse an answer larger than they allow (see `truncated`). */
export class ResponseTooLargeError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE'
  constructor(maxBytes: number) {
    super(`The answer was larger than ${Math.round(maxBytes / 1024)} KB.`)
    this.name = 'ResponseTooLargeError'
  }
}

/**
 * Any method through the guard (CMS APIs on user-supplied hosts, pages, sitemaps): vetted addresses only, no
 * redirects followed, a hard time limit, at most `maxBytes` of the answer read (the rest is cut off and
 * `truncated` set).
 */
export async function guardedRequest(
  rawUrl: string,
  init: {
    method: string
    headers?: Record<string, string>
    body?: string | Buffer
    timeoutMs: number
    maxBytes: number
  } & GuardOptions,
): Promise<SafeResponse & { truncated: boolean; bytes: Buffer }> {
  const started = performance.now()
  const { url, addresses } = await vetUrl(rawUrl, init)
  const vettedLookup: net.LookupFunction = (_hostname, options, callback) => {
    const family = typeof options === 'object' && options?.family ? Number(options.family) : 0
    const usable = family ? addresses.filter((a) => a.family === family) : addresses
    if (usable.length === 0) {
      const err = Object.assign(new Error('No vetted address of the requested family.'), { code: 'ENOTFOUND' })
      ;(callback as (e: Error) => void)(err)
      return
    }
    if (typeof options === 'object' && options?.all) (callback as (e: null, a: typeof usable) => void)(null, usable)
    else (callback as (e: null, a: string, f: number) => void)(null, usable[0]!.address, usable[0]!.family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: init.method,
        headers:
          init.body === undefined
            ? (init.headers ?? {})
            : { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) },
        lookup: vettedLookup,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        let truncated = false
        const finish = () => {
          clearTimeout(timer)
          const bytes = Buffer.concat(chunks).subarray(0, init.maxBytes)
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: bytes.toString('utf8'),
            /** The answer's bytes as they came (binary files: images). */
            bytes,
            durationMs: Math.round(performance.now() - started),
            truncated,
          })
        }
        res.on('data', (chunk: Buffer) => {
          if (size < init.maxBytes) chunks.push(chunk)
          size += chunk.length
          if (size > init.maxBytes && !truncated) {
            truncated = true
            // Enough read: stop downloading the rest.
            finish()
            res.destroy()
          }
        })
        res.on('end', () => {
          if (!truncated) finish()
        })
        res.on('error', (err) => {
          clearTimeout(timer)
          if (!truncated) reject(err)
        })
      },
    )
    const timer = setTimeout(() => req.destroy(new RequestTimeoutError(init.timeoutMs)), init.timeoutMs)
    req.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    req.end(init.body)
  })
}
