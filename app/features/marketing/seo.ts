import type { MetaDescriptor } from '@remix-run/node'
import { PLANS, PREMIUM_FEATURES, TRIAL_DAYS, TRIAL_FEATURES } from '#app/features/billing/plans'

/**
 * Our own SEO: every public page's `meta` is built here (title, description, canonical URL, Open Graph and
 * Twitter tags, optional JSON-LD), with absolute URLs from APP_URL (the root loader's `env.APP_URL`).
 */
export const SITE_NAME = 'Rankwell'
export const DEFAULT_APP_URL = 'http://localhost:3000'

type MatchLike = { id: string; data?: unknown }

/** APP_URL from the root route's loader data (present on every page). */
export function appUrlFrom(matches: readonly MatchLike[] | undefined): string {
  const root = matches?.find((m) => m.id === 'root')?.data as { env?: { APP_URL?: string } } | undefined
  return (root?.env?.APP_URL ?? DEFAULT_APP_URL).replace(/\/+$/, '')
}

export function absoluteUrl(appUrl: string, path: string) {
  return new URL(path, `${appUrl.replace(/\/+$/, '')}/`).toString()
}

export type SeoInput = {
  title: string
  description: string
  /** The page's path without query string, e.g. '/free-tools'. */
  path: string
  matches?: readonly MatchLike[]
  appUrl?: string
  /** Keep the page out of search results (it is still crawlable, so the tag is seen). */
  noindex?: boolean
  type?: 'website' | 'article'
  jsonLd?: Array<Record<string, unknown>>
}

export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const appUrl = input.appUrl ?? appUrlFrom(input.matches)
  const url = absoluteUrl(appUrl, input.path)
  const title = input.title.includes(SITE_NAME) ? input.title : `${input.title} | ${SITE_NAME}`
  const meta: MetaDescriptor[] = [
    { title },
    { name: 'description', content: input.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:site_name', content: SITE_NAME },
    { property: 'og:title', content: title },
    { property: 'og:description', content: input.description },
    { property: 'og:url', content: url },
    { property: 'og:locale', content: 'en_US' },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: input.description },
  ]
  if (input.noindex) meta.push({ name: 'robots', content: 'noindex, follow' })
  for (const data of input.jsonLd ?? []) meta.push({ 'script:ld+json': data })
  return meta
}

// ---------------------------------------------------------------------------
// JSON-LD (schema.org)

export function organizationJsonLd(appUrl: string, supportEmail?: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': absoluteUrl(appUrl, '/#organization'),
    name: SITE_NAME,
    url: absoluteUrl(appUrl, '/'),
    logo: absoluteUrl(appUrl, '/favicon.svg'),
    ...(supportEmail
      ? {
          email: supportEmail,
          contactPoint: { '@type': 'ContactPoint', contactType: 'customer support', email: supportEmail },
        }
      : {}),
  }
}

const price = (n: number) => n.toFixed(2)

/** The product with its offers: the free trial and the three Premium plans from plans.ts. */
export function softwareJsonLd(appUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: SITE_NAME,
    url: absoluteUrl(appUrl, '/'),
    applicationCategory: 'BusinessApplication',
    applicationSubCategory: 'SEO software',
    operatingSystem: 'Web',
    description:
      'Keyword research and AI blog writing for founders: find keywords you can rank for, generate SEO blog posts with AI, and publish them on Auto Pilot.',
    publisher: { '@id': absoluteUrl(appUrl, '/#organization') },
    offers: [
      {
        '@type': 'Offer',
        name: 'Free Trial',
        price: '0.00',
        priceCurrency: 'USD',
        description: `${TRIAL_DAYS}-day free trial, no credit card required: ${TRIAL_FEATURES.join(', ')}.`,
        url: absoluteUrl(appUrl, '/signup'),
      },
      ...PLANS.map((plan) => ({
        '@type': 'Offer',
        name: plan.title,
        price: price(plan.price),
        priceCurrency: 'USD',
        description: `${plan.description} ${PREMIUM_FEATURES.join(', ')}.`,
        url: absoluteUrl(appUrl, '/pricing'),
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          price: price(plan.price),
          priceCurrency: 'USD',
          billingDuration: `P${plan.months}M`,
          unitText: plan.period,
        },
      })),
    ],
  }
}

/** Public pages listed in sitemap.xml (signed-in pages and form endpoints stay out). */
export const SITEMAP_PATHS: ReadonlyArray<{ path: string; changefreq: 'weekly' | 'monthly'; priority: number }> = [
  { path: '/', changefreq: 'weekly', priority: 1.0 },
  { path: '/pricing', changefreq: 'monthly', priority: 0.8 },
  { path: '/free-tools', changefreq: 'monthly', priority: 0.8 },
  { path: '/free-keyword-research', changefreq: 'monthly', priority: 0.7 },
  { path: '/free-blog-title', changefreq: 'monthly', priority: 0.7 },
  { path: '/free-blog-outline', changefreq: 'monthly', priority: 0.7 },
  { path: '/free-seo-strategy', changefreq: 'monthly', priority: 0.7 },
  { path: '/seo-guide-ebook', changefreq: 'monthly', priority: 0.6 },
  { path: '/blog', changefreq: 'weekly', priority: 0.7 },
  { path: '/signup', changefreq: 'monthly', priority: 0.5 },
]

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The fixed public pages plus `extra` ones (the blog's articles). */
export function sitemapXml(
  appUrl: string,
  extra: ReadonlyArray<{ path: string; changefreq: 'weekly' | 'monthly'; priority: number; lastmod?: string }> = [],
) {
  const urls = [...SITEMAP_PATHS, ...extra].map(
    (p) =>
      `  <url><loc>${xmlEscape(absoluteUrl(appUrl, p.path))}</loc>${'lastmod' in p && p.lastmod ? `<lastmod>${p.lastmod}</lastmod>` : ''}<changefreq>${p.changefreq}</changefreq><priority>${p.priority.toFixed(1)}</priority></url>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

/** Signed-in areas and endpoints that search engines have no business crawling. */
export const ROBOTS_DISALLOW = [
  '/api/',
  '/keywords',
  '/blogposts',
  '/blogpost/',
  '/onboarding',
  '/profile',
  '/autopilot',
  '/checkout-success',
  '/how-grow',
  '/oauth-callback',
  '/auth/',
  '/billing',
  '/logout',
]

export function robotsTxt(appUrl: string) {
  return [
    'User-agent: *',
    'Allow: /',
    ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${absoluteUrl(appUrl, '/sitemap.xml')}`,
    '',
  ].join('\n')
}
