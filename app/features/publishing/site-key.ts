/**
 * Which site a destination's secret belongs to (issue 33): a stored Application Password, Admin API key or API token
 * is sent only to the site it was entered (or tested) for. Pure: shared by saving, 'Test connection' and the
 * publishing client.
 */

/** The destination kinds (publishing.ts's DestinationKind; spelled out here so that publishing.ts can import this). */
type DestinationKind = 'wordpress' | 'ghost' | 'webflow'

/** A loopback host as `URL.hostname` spells it: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (host === '[::1]' || host === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/** The origin of an address (scheme, lower-case host, port only when not the default), or '' when unreadable. */
function originOf(url: unknown): string {
  try {
    return new URL(String(url)).origin.toLowerCase()
  } catch {
    return ''
  }
}

/** The site's URL field of a kind (the one whose origin receives the secret), or null for Webflow (a fixed API). */
export function siteUrlOf(kind: DestinationKind, config: Record<string, unknown>): string | null {
  if (kind === 'wordpress') return String(config.siteUrl ?? '')
  if (kind === 'ghost') return String(config.adminUrl ?? '')
  return null
}

/**
 * The site a secret is bound to. WordPress: the site's origin and the user name (an Application Password belongs to
 * one user; user names are case-insensitive there). Ghost: the Admin API's origin. Webflow: the site id (its API
 * host is fixed; a token is issued for one site, so changing the collection within the site keeps it).
 */
export function siteKey(kind: DestinationKind, config: Record<string, unknown>): string {
  switch (kind) {
    case 'wordpress':
      return `wordpress:${originOf(config.siteUrl)}|${String(config.username ?? '')
        .trim()
        .toLowerCase()}`
    case 'ghost':
      return `ghost:${originOf(config.adminUrl)}`
    case 'webflow':
      return `webflow:${String(config.siteId ?? '')
        .trim()
        .toLowerCase()}`
  }
}

/** What the secret was saved for, in words: 'admin on blog.example.com', 'blog.example.com', 'the Webflow site …'. */
export function savedForWords(kind: DestinationKind, config: Record<string, unknown>): string {
  const host = (url: unknown) => {
    try {
      return new URL(String(url)).host
    } catch {
      return 'the previous site'
    }
  }
  if (kind === 'wordpress') return `${String(config.username ?? '')} on ${host(config.siteUrl)}`
  if (kind === 'ghost') return host(config.adminUrl)
  return `the Webflow site ${String(config.siteId ?? '')}`
}

/**
 * Whether a site address may use plain http: never on the open internet (Basic credentials and admin tokens would
 * travel in clear), only for a loopback host and only when `allowLoopbackHttp` (see `loopbackHttpAllowed` in
 * destinations.server.ts: a development server, or one that is itself reached on http loopback).
 */
export function insecureUrlRefused(url: string, allowLoopbackHttp: boolean): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol === 'https:') return false
  return !(parsed.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(parsed.hostname))
}
