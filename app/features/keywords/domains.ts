import { z } from 'zod'
import { findCountry, findLanguage } from '#app/platform/markets/markets'

/**
 * Issue 36 (docs/contracts.md "Keyword depth", decision 0364): the domain a user asks about — their own site, or a
 * competitor's — as DataForSEO Labs wants it: a bare host name in lower case, without a scheme, "www.", path, port or
 * credentials. What people paste ('Example.com', 'https://www.example.com/') is accepted and normalised; anything
 * that is not a public domain is refused with a message for the field: a path, a port, credentials, an IP address,
 * localhost and the reserved or private names (.local, .internal, .test, .example, .invalid, .onion, home.arpa…),
 * a host without a dot, a public suffix alone (co.uk). Internationalised names are kept in their ASCII (punycode)
 * form, which the WHATWG URL parser computes (in the browser and on the server alike).
 *
 * The server adds the SSRF guard's list of local and metadata host names (`blockedHostnameReason` of
 * app/platform/security/ssrf.server.ts) in domain-keywords.server.ts: this module stays pure for the form.
 */

/** Positions 4-20: the keywords a site already ranks for that are closest to the first places (the quickest wins). */
export const STRIKING_DISTANCE = { from: 4, to: 20 } as const

export function isStrikingDistance(position: number | null | undefined): boolean {
  return typeof position === 'number' && position >= STRIKING_DISTANCE.from && position <= STRIKING_DISTANCE.to
}

/** Where the user sets the website whose rankings are looked up (onboarding's website, changed on the profile). */
export const WEBSITE_SETTING_PATH = '/profile'

export const DOMAIN_MESSAGES = {
  required: 'Enter a domain like example.com.',
  path: 'Enter a domain like example.com, without a path.',
  port: 'Enter a domain like example.com, without a port.',
  credentials: 'Enter a domain like example.com, without a user name or password.',
  scheme: 'Enter a domain like example.com (a web address starts with http:// or https://).',
  ip: 'Enter a domain name like example.com, not an IP address.',
  private: 'Enter a public domain like example.com: local, private and reserved names have no rankings.',
  noDot: 'Enter a full domain like example.com.',
  suffix: 'Enter a domain like example.co.uk, not only its ending.',
  invalid: 'Enter a domain like example.com (letters, digits, hyphens and dots).',
  tooLong: 'Enter a domain of at most 253 characters.',
} as const

/** Longest input read at all (a pasted URL with a long path is refused for its path, not its length). */
export const MAX_DOMAIN_INPUT = 2000
const MAX_HOST = 253
const MAX_LABEL = 63

/** Top-level names that never lead to a public site (RFC 2606, 6761, 6762, 7686, 8375 and common private ones). */
const RESERVED_TLDS = new Set([
  'local',
  'localhost',
  'localdomain',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
  'test',
  'example',
  'invalid',
  'onion',
  'arpa',
  'alt',
])

/** Public suffixes of more than one label that people type (a domain needs a name in front of them). */
const MULTI_LABEL_SUFFIXES = new Set([
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'me.uk',
  'ltd.uk',
  'plc.uk',
  'net.uk',
  'com.au',
  'net.au',
  'org.au',
  'edu.au',
  'gov.au',
  'co.nz',
  'org.nz',
  'net.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'co.kr',
  'co.in',
  'net.in',
  'org.in',
  'co.za',
  'org.za',
  'com.br',
  'net.br',
  'org.br',
  'com.mx',
  'com.ar',
  'com.tr',
  'com.cn',
  'com.hk',
  'com.sg',
  'com.tw',
  'co.il',
  'co.id',
  'com.my',
  'com.ph',
  'com.pl',
  'co.th',
  'com.vn',
  'com.ua',
  'com.es',
  'co.at',
  'or.at',
  'com.co',
  'com.pe',
  'com.eg',
  'com.sa',
  'com.ng',
  'co.ke',
  'github.io',
  'herokuapp.com',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'blogspot.com',
  'wordpress.com',
])

export type DomainCheck = { ok: true; domain: string } | { ok: false; message: string }

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const IPV4ISH = /^[0-9.]+$/
const HEXISH_IPV4 = /^(0x[0-9a-f]+|[0-9]+)(\.(0x[0-9a-f]+|[0-9]+)){0,3}$/

/** The host's ASCII form by the WHATWG URL parser (IDNA), or null when it is not a valid host name. */
function toAscii(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return null
  }
}

/**
 * The bare, lower-case, ASCII host of what the user typed, or the message that says what is wrong with it.
 */
export function checkDomain(input: unknown): DomainCheck {
  if (typeof input !== 'string') return { ok: false, message: DOMAIN_MESSAGES.required }
  let rest = input.normalize('NFKC').trim()
  if (!rest) return { ok: false, message: DOMAIN_MESSAGES.required }
  if (rest.length > MAX_DOMAIN_INPUT) return { ok: false, message: DOMAIN_MESSAGES.tooLong }
  if (/\s/.test(rest)) return { ok: false, message: DOMAIN_MESSAGES.invalid }

  // A scheme: http and https are what people paste; anything else (ftp:, javascript:, file:) is not a site.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(rest)
  if (scheme && /^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    if (!/^https?$/i.test(scheme[1]!)) return { ok: false, message: DOMAIN_MESSAGES.scheme }
    rest = rest.slice(scheme[0].length + 2)
  } else if (rest.startsWith('//')) {
    rest = rest.slice(2)
  }

  // The authority ends at the first '/', '?' or '#'; only a lone trailing '/' may follow it.
  const end = rest.search(/[/?#\\]/)
  const authority = end === -1 ? rest : rest.slice(0, end)
  const after = end === -1 ? '' : rest.slice(end)
  if (after !== '' && after !== '/') return { ok: false, message: DOMAIN_MESSAGES.path }
  if (authority.includes('@')) return { ok: false, message: DOMAIN_MESSAGES.credentials }
  if (authority.startsWith('[') || (authority.match(/:/g)?.length ?? 0) > 1)
    return { ok: false, message: DOMAIN_MESSAGES.ip }
  if (/:\d*$/.test(authority)) return { ok: false, message: DOMAIN_MESSAGES.port }
  if (authority.includes(':')) return { ok: false, message: DOMAIN_MESSAGES.scheme }

  let host = authority.replace(/\.$/, '')
  if (!host) return { ok: false, message: DOMAIN_MESSAGES.required }
  if (host.length > MAX_HOST) return { ok: false, message: DOMAIN_MESSAGES.tooLong }
  if (IPV4ISH.test(host) || HEXISH_IPV4.test(host.toLowerCase())) return { ok: false, message: DOMAIN_MESSAGES.ip }

  const ascii = toAscii(host)
  if (!ascii || ascii.startsWith('[')) return { ok: false, message: DOMAIN_MESSAGES.invalid }
  // The URL parser reads '1.2.3.4' in every spelling (octal, hex, fewer parts) as an IPv4 address.
  if (IPV4ISH.test(ascii)) return { ok: false, message: DOMAIN_MESSAGES.ip }
  host = ascii.replace(/\.$/, '').replace(/^www\./, '')
  if (host.length > MAX_HOST) return { ok: false, message: DOMAIN_MESSAGES.tooLong }

  const labels = host.split('.')
  if (labels.some((l) => l.length === 0 || l.length > MAX_LABEL || !LABEL.test(l)))
    return { ok: false, message: DOMAIN_MESSAGES.invalid }
  const tld = labels[labels.length - 1]!
  if (host === 'localhost' || RESERVED_TLDS.has(tld) || host.endsWith('.home.arpa'))
    return { ok: false, message: DOMAIN_MESSAGES.private }
  if (labels.length < 2) return { ok: false, message: DOMAIN_MESSAGES.noDot }
  // A top-level name is letters (or an IDN's xn-- form): a number there is an address, not a domain.
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return { ok: false, message: DOMAIN_MESSAGES.invalid }
  if (MULTI_LABEL_SUFFIXES.has(host)) return { ok: false, message: DOMAIN_MESSAGES.suffix }
  return { ok: true, domain: host }
}

/** The normalised domain, or null when the input is not a public domain (`checkDomain` says why). */
export function normalizeDomain(input: unknown): string | null {
  const checked = checkDomain(input)
  return checked.ok ? checked.domain : null
}

/** A domain field of a form or of the API: a string in, the normalised domain out, the field's message on failure. */
export const domainSchema = z
  .string({ required_error: DOMAIN_MESSAGES.required, invalid_type_error: DOMAIN_MESSAGES.required })
  .transform((value, ctx) => {
    const checked = checkDomain(value)
    if (checked.ok) return checked.domain
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: checked.message })
    return z.NEVER
  })

export const MARKET_MESSAGES = { country: 'Select a country.', language: 'Select a language.' } as const

const marketFields = {
  countryCode: z
    .string({ required_error: MARKET_MESSAGES.country, invalid_type_error: MARKET_MESSAGES.country })
    .trim()
    .refine((code) => Boolean(findCountry(code)), MARKET_MESSAGES.country),
  languageCode: z
    .string({ required_error: MARKET_MESSAGES.language, invalid_type_error: MARKET_MESSAGES.language })
    .trim()
    .refine((code) => Boolean(findLanguage(code)), MARKET_MESSAGES.language),
}

/** 'Check my rankings': the market the user's domain is looked up in. */
export const rankingsFormSchema = z.object(marketFields)

/** The competitor form: a competitor's domain (the message next to the field) and the market. */
export const competitorFormSchema = z.object({ competitor: domainSchema, ...marketFields })

/** GET /api/domain-keywords's query: a domain and, optionally, the market (Google Ads ids). */
export const domainLookupSchema = z.object({
  domain: domainSchema,
  country: z
    .string()
    .trim()
    .refine((c) => Boolean(findCountry(c)), MARKET_MESSAGES.country)
    .optional(),
  language: z
    .string()
    .trim()
    .refine((c) => Boolean(findLanguage(c)), MARKET_MESSAGES.language)
    .optional(),
})
