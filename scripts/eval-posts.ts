// `npm run eval:posts`: writes posts for a fixed set of keywords through the real pipeline (research, brief,
// sections, the deterministic finish) and prints each post's score and every checklist item, so that prompt
// changes are compared on numbers. Against the configured model when OPENAI_API_KEY is set (and DataForSEO when
// its credentials are set); otherwise against the local fakes. It starts its own Postgres, Redis and fakes.
// `--env` uses the services of the current environment instead (npm test runs it that way as a quick CI step).
import crypto from 'node:crypto'
import { appEnv, provisionServices, runScript, type Cleanups } from './lib/app'
import { log } from './lib/services'

export const EVAL_KEYWORDS = [
  'email newsletter tools',
  'how to write a cold email',
  'best crm for small business',
  'content calendar template',
  'seo for ecommerce product pages',
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
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
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

  const keywords = quick ? EVAL_KEYWORDS.slice(0, 2) : EVAL_KEYWORDS
  const byItem = new Map<string, { label: string; passed: number }>()
  const scores: number[] = []
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
  }
  const done = scores.length
  console.log(
    `\nsummary: ${done}/${keywords.length} posts written; mean SEO score ${done ? (scores.reduce((a, b) => a + b, 0) / done).toFixed(1) : '–'}`,
  )
  for (const [id, e] of byItem) console.log(`  ${id}: passed ${e.passed}/${done}`)
  if (failed) throw new Error(`${failed} of ${keywords.length} posts failed`)
}

await runScript(cleanups, main)
