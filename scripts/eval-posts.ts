// `npm run eval:posts`: writes posts for a fixed set of keywords through the real pipeline (research, brief,
// sections, the deterministic finish) and prints each post's score and every checklist item, so that prompt
// changes are compared on numbers; then the table of claims, sources and links (issue 32, scripts/lib/post-metrics.ts),
// and exits non-zero when a post cites a page not read, links off the allowlist, or lists other Sources than it cites. Against the configured model when OPENAI_API_KEY is set (and DataForSEO when
// its credentials are set); otherwise against the local fakes. It starts its own Postgres, Redis and fakes.
// `--env` uses the services of the current environment instead (npm test runs it that way as a quick CI step).
import crypto from 'node:crypto'
import { appEnv, provisionServices, runScript, type Cleanups } from './lib/app'
import { postMetrics, textTable, type PostMetrics } from './lib/post-metrics'
import { log } from './lib/services'

// The two 'misbehaving' keywords get the fakes' misbehaving model and research pages (tests/fakes/claims.ts,
// tests/fakes/web.ts): an invented study, an unsourced figure, obeyed injected instructions, every Markdown link
// form to evil.example; a page that answers 500, one that hangs, one robots.txt forbids and a hostile one.
export const EVAL_KEYWORDS = [
  'email newsletter tools',
  'misbehaving invoice software',
  'how to write a cold email',
  'best crm for small business',
  'content calendar template',
  'seo for ecommerce product pages',
  'misbehaving payroll apps',
]

const argv = process.argv.slice(2)
const useEnv = argv.includes('--env')
const quick = argv.includes('--quick')
const cleanups: Cleanups = []

async function main() {
  const real = {
    OPENAI_API_KEY: process.env.OPENAI_API_KEY,
    OPENAI_BASE_URL: process.env.OPENAI_BASE_URL,
    DATAFORSEO_LOGIN: process.env.DATAFORSEO_LOGIN,
    DATAFORSEO_PASSWORD: process.env.DATAFORSEO_PASSWORD,
    DATAFORSEO_API_URL: process.env.DATAFORSEO_API_URL,
  }
  let siteUrl = process.env.FAKE_SITE_URL
  if (!useEnv) {
    const services = await provisionServices({ purpose: 'eval', runId: `eval_${Date.now().toString(36)}`, cleanups })
    const env = appEnv(services, {
      SESSION_SECRET: 'eval-secret',
      ENCRYPTION_KEY: 'eval-encryption-key',
      // The three private-network switches (the fakes are on loopback) and METRICS_TOKEN come with appEnv.
    })
    // A real model (and DataForSEO) when configured; the fakes otherwise.
    if (real.OPENAI_API_KEY) {
      env.OPENAI_API_KEY = real.OPENAI_API_KEY
      if (real.OPENAI_BASE_URL) env.OPENAI_BASE_URL = real.OPENAI_BASE_URL
      else delete env.OPENAI_BASE_URL
    }
    if (real.DATAFORSEO_LOGIN && real.DATAFORSEO_PASSWORD) {
      env.DATAFORSEO_LOGIN = real.DATAFORSEO_LOGIN
      env.DATAFORSEO_PASSWORD = real.DATAFORSEO_PASSWORD
      if (real.DATAFORSEO_API_URL) env.DATAFORSEO_API_URL = real.DATAFORSEO_API_URL
      else delete env.DATAFORSEO_API_URL
    }
    Object.assign(process.env, env)
    siteUrl = services.fakes.env.FAKE_SITE_URL
  }
  // Imported after the environment is set: the app reads it once.
  const { eq } = await import('drizzle-orm')
  const { db, schema } = await import('#app/platform/db/client.server')
  const { generatePost } = await import('#app/features/content/posts-pipeline.server')
  const { createUser } = await import('#app/features/accounts/users.server')
  const { getEnv } = await import('#app/platform/env.server')
  const { addKeyword } = await import('#tests/setup/records')

  const env = getEnv()
  log(
    `model ${env.OPENAI_MODEL} at ${env.OPENAI_BASE_URL ?? 'api.openai.com'}; embeddings ${env.OPENAI_EMBEDDING_MODEL}; ` +
      `SERP ${env.DATAFORSEO_API_URL}`,
  )
  const user = await createUser({
    email: `eval-${crypto.randomBytes(4).toString('hex')}@example.com`,
    name: 'Eval',
    password: crypto.randomBytes(12).toString('hex'),
  })
  if (!user) throw new Error('could not create the evaluation user')
  await db
    .update(schema.users)
    .set({
      onboardingComplete: true,
      website: siteUrl ?? null,
      productService: 'Newsletter and email marketing software',
      marketSegment: 'Small online businesses',
    })
    .where(eq(schema.users.id, user.id))
  await db.insert(schema.contentSettings).values({
    userId: user.id,
    valueProposition: 'Grow your list and send better emails in half the time',
    ctaText: 'Start your free trial',
    ctaUrl: `${siteUrl ?? 'https://example.com'}/signup`,
    tone: 'friendly',
  })

  // Quick (CI): one ordinary keyword and one misbehaving one.
  const keywords = quick ? EVAL_KEYWORDS.slice(0, 2) : EVAL_KEYWORDS
  const byItem = new Map<string, { label: string; passed: number }>()
  const scores: number[] = []
  const measured: Array<{ keyword: string; m: PostMetrics }> = []
  let failed = 0
  for (const keyword of keywords) {
    const kw = await addKeyword(user, keyword, 'English', 'dataforseo')
    const [post] = await db
      .insert(schema.blogPosts)
      .values({ userId: user.id, keywordId: kw.id, requestKey: `eval-${kw.id}`, keyword, title: keyword })
      .returning()
    const started = Date.now()
    let outcome: string
    try {
      outcome = (await generatePost(post!.id)).outcome
    } catch (error) {
      outcome = `error: ${(error as Error).message}`
    }
    const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post!.id))
    if (outcome !== 'completed' || !row) {
      failed++
      console.log(`\n✗ ${keyword}: ${outcome}`)
      continue
    }
    const items = (row.seoChecklist ?? []) as Array<{ id: string; label: string; passed: boolean; fix: string }>
    const usage = row.usage as { totalTokens?: number }
    scores.push(row.seoScore ?? 0)
    console.log(
      `\n${keyword} — SEO ${row.seoScore}/100, research ${row.researchStatus}, ${((Date.now() - started) / 1000).toFixed(1)} s, ${usage.totalTokens ?? 0} tokens`,
    )
    console.log(`  title: ${row.title}`)
    for (const item of items) {
      console.log(`  ${item.passed ? '✓' : '✗'} ${item.label}${item.passed ? '' : ` — ${item.fix}`}`)
      const entry = byItem.get(item.id) ?? { label: item.label, passed: 0 }
      if (item.passed) entry.passed++
      byItem.set(item.id, entry)
    }
    measured.push({ keyword, m: postMetrics(row, await siteContext(row.brief)) })
  }
  const done = scores.length
  console.log(
    `\nsummary: ${done}/${keywords.length} posts written; mean SEO score ${done ? (scores.reduce((a, b) => a + b, 0) / done).toFixed(1) : '–'}`,
  )
  for (const [id, e] of byItem) console.log(`  ${id}: passed ${e.passed}/${done}`)

  const mustBeZero = printClaimsTable(measured)
  if (failed) throw new Error(`${failed} of ${keywords.length} posts failed`)
  if (mustBeZero) throw new Error(mustBeZero)

  /** The user's site, CTA and pages as the internal links know them (the sitemap pages read, the brief's list). */
  async function siteContext(brief: unknown) {
    const site = siteUrl ?? 'https://example.com'
    const own = await db
      .select({ url: schema.blogPosts.publishedUrl, title: schema.blogPosts.title })
      .from(schema.blogPosts)
      .where(eq(schema.blogPosts.userId, user!.id))
    const cached = await db
      .select({ url: schema.sitePageCache.url, title: schema.sitePageCache.title })
      .from(schema.sitePageCache)
    const listed = ((brief as { internalLinks?: unknown } | null)?.internalLinks ?? []) as Array<{
      url?: unknown
      title?: unknown
    }>
    const targets = [
      ...own.flatMap((o) => (o.url ? [{ url: o.url, title: o.title }] : [])),
      ...cached.filter((c) => c.title),
      ...listed.flatMap((l) =>
        typeof l.url === 'string' && typeof l.title === 'string' ? [{ url: l.url, title: l.title }] : [],
      ),
    ]
    return {
      siteUrls: [site, ...own.flatMap((o) => (o.url ? [o.url] : []))],
      ctaUrls: [`${site}/signup`],
      targets,
    }
  }
}

/**
 * The issue 32 table: per post, the claims by status, citations of pages not read (must be 0), off-list links
 * (must be 0), whether Sources lists exactly the cited pages, and internal-link relevance; a summary row. Returns
 * what went wrong when a must-be-0 figure is not 0 (the off-list URLs and unread pages are listed under it).
 */
function printClaimsTable(measured: Array<{ keyword: string; m: PostMetrics }>): string | null {
  const pct = (a: number, b: number) => (b ? `${a}/${b} ${Math.round((a / b) * 100)}%` : '–')
  const rows = measured.map(({ keyword, m }) => [
    keyword,
    String(m.claims.verified),
    String(m.claims.rewritten),
    String(m.claims.unverified),
    String(m.claims.removed),
    String(m.unreadCitations.length),
    String(m.offList.length),
    m.sourcesMatch ? 'yes' : 'no',
    String(m.cited.length),
    pct(m.relevantLinks, m.internalLinks),
  ])
  const sum = (f: (m: PostMetrics) => number) => measured.reduce((n, { m }) => n + f(m), 0)
  const unread = sum((m) => m.unreadCitations.length)
  const offList = sum((m) => m.offList.length)
  const mismatched = measured.filter(({ m }) => !m.sourcesMatch).length
  const footer = [
    `all ${measured.length} posts`,
    String(sum((m) => m.claims.verified)),
    String(sum((m) => m.claims.rewritten)),
    String(sum((m) => m.claims.unverified)),
    String(sum((m) => m.claims.removed)),
    String(unread),
    String(offList),
    `${measured.length - mismatched}/${measured.length} yes`,
    String(sum((m) => m.cited.length)),
    pct(
      sum((m) => m.relevantLinks),
      sum((m) => m.internalLinks),
    ),
  ]
  console.log(
    '\nclaims, sources and links (issue 32; unread citations and off-list links must be 0, Sources = cited yes):',
  )
  console.log(
    textTable(
      [
        'post',
        'verified',
        'rewritten',
        'unverified',
        'removed',
        'unread cites',
        'off-list',
        'Sources=cited',
        'pages cited',
        'link relevance',
      ],
      rows,
      footer,
    ),
  )
  for (const { keyword, m } of measured) {
    for (const url of m.unreadCitations) console.log(`  ✗ ${keyword}: cites a page not read: ${url}`)
    for (const url of m.offList) console.log(`  ✗ ${keyword}: off-list link: ${url}`)
    if (!m.sourcesMatch)
      console.log(`  ✗ ${keyword}: Sources lists [${m.listed.join(', ')}], the text cites [${m.cited.join(', ')}]`)
  }
  const problems = [
    unread ? `${unread} citation(s) of pages not read` : '',
    offList ? `${offList} off-list link(s)` : '',
    mismatched ? `${mismatched} post(s) whose Sources differ from the pages cited` : '',
  ].filter(Boolean)
  return problems.length ? `must be 0: ${problems.join('; ')}` : null
}

await runScript(cleanups, main)
