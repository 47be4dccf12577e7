// Honest screens (issue 35, decision 0353): no customer-facing page names a setting or tells the customer what the
// operator must do, whatever this server can do; a missing capability reads in product words, and the operator learns
// it from /healthz and the start-up log. Auto Pilot paused by the plan says so on /autopilot and /calendar.
// Every page is fetched as HTML over HTTP (no JavaScript ran), public and signed in.
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAUSE_MESSAGES } from '#app/features/autopilot/autopilot-pause'
import { LIMITS } from '#app/features/billing/plans'
import { ESTIMATES_NOTICE, SEARCH_UNAVAILABLE_MESSAGE } from '#app/features/keywords/keywords'
import { ENTRY_LABELS } from '#app/features/publishing/calendar'
import { RANKINGS_MESSAGES } from '#app/features/rankings/rankings'
import { db, schema } from '#app/platform/db/client.server'
import { ENV_VARIABLE_NAMES } from '#app/platform/env.server'
import { api, appUrl, createTestUser, uniqueIp, type TestUser } from '#tests/setup/app'
import { startWeb, type WebProcess } from '#tests/setup/processes'
import { PUBLIC_SCREENS, screenPath, seedAccount, SIGNED_IN_SCREENS, type SeededAccount } from '#tests/setup/screens'

/** Every credential of an optional service blank (the offline badge is a developer's aid, off here too). */
const WITHOUT_SERVICES = {
  DATAFORSEO_LOGIN: '',
  DATAFORSEO_PASSWORD: '',
  GOOGLE_ADS_DEVELOPER_TOKEN: '',
  GOOGLE_CLIENT_ID: '',
  GOOGLE_CLIENT_SECRET: '',
  STRIPE_SECRET_KEY: '',
  SMTP_URL: '',
  UNSPLASH_ACCESS_KEY: '',
  PEXELS_API_KEY: '',
  OFFLINE_SERVICES: '',
}

/**
 * Words that speak to the operator: every variable name of the environment schema (and their families, such as
 * GOOGLE_ADS_*), the providers behind the capabilities, and the operator's vocabulary.
 */
const prefixes = [...new Set(ENV_VARIABLE_NAMES.filter((n) => n.includes('_')).map((n) => n.split('_')[0]!))]
const FORBIDDEN: RegExp[] = [
  new RegExp(`\\b(?:${ENV_VARIABLE_NAMES.join('|')})\\b`),
  new RegExp(`\\b(?:${prefixes.join('|')})_[A-Z0-9_*]+`),
  /DataForSEO/i,
  /\bOpenAI\b/i,
  /\bSMTP\b/i,
  // Personal API keys (issue 38) are the customer's own: what must not show is a service's key being missing.
  /\b(?:no|missing|provider'?s?|service'?s?) API key\b/i,
  /\bAPI key (?:is |was )?(?:missing|not set|required)\b/i,
  /\b(?:not |is |was )?configured\b/i,
  /\bon this server\b/i,
  /\benvironment variable/i,
  /\bset up DataForSEO\b/i,
]

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** What a reader sees of a page: its text and the attributes that are read out or shown (no scripts, no data). */
function readable(html: string) {
  const body = html.replace(/<script\b[\s\S]*?<\/script>/gi, ' ').replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
  const attributes = [...body.matchAll(/\s(?:title|alt|placeholder|aria-label|content)="([^"]*)"/gi)].map((m) => m[1])
  return `${body.replace(/<[^>]+>/g, ' ')} ${attributes.join(' ')}`
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (all, code: string) =>
      code.startsWith('#')
        ? String.fromCodePoint(Number.parseInt(code.slice(code[1] === 'x' ? 2 : 1), code[1] === 'x' ? 16 : 10))
        : (ENTITIES[code] ?? all),
    )
    .replace(/\s+/g, ' ')
}

/** The operator's words found on a page, each with a little of the text around it. */
function operatorWords(html: string) {
  const text = readable(html)
  return FORBIDDEN.flatMap((pattern) => {
    const m = pattern.exec(text)
    return m ? [`${pattern}: …${text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60)}…`] : []
  })
}

async function page(base: string, path: string, cookie?: string) {
  const res = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' })
  return { status: res.status, text: await res.text() }
}

/** The free keyword tool's page after a search, as a browser without JavaScript posts it. */
async function afterKeywordSearch(base: string) {
  const res = await fetch(`${base}/free-keyword-research`, {
    method: 'POST',
    body: new URLSearchParams({ topic: `honest screens ${crypto.randomUUID().slice(0, 8)}` }),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': uniqueIp(), Origin: base },
    redirect: 'manual',
  })
  expect(res.status).toBe(200)
  return readable(await res.text())
}

let estimates: WebProcess
let bare: WebProcess
let account: SeededAccount
let newcomer: TestUser

beforeAll(async () => {
  // One server whose keyword data is only estimated (AI writing on), one with no optional service at all.
  ;[estimates, bare, account, newcomer] = await Promise.all([
    startWeb(WITHOUT_SERVICES),
    startWeb({ ...WITHOUT_SERVICES, OPENAI_API_KEY: '' }),
    seedAccount(),
    createTestUser({ onboarded: false }),
  ])
}, 180_000)

afterAll(async () => {
  await Promise.all([estimates?.stop(), bare?.stop()])
})

describe('no customer-facing page speaks to the operator', () => {
  const pages = () => [
    ...PUBLIC_SCREENS.map((path) => ({ path, cookie: undefined as string | undefined })),
    ...SIGNED_IN_SCREENS.map((screen) => ({ path: screenPath(screen, account), cookie: account.user.cookie })),
    { path: '/onboarding', cookie: newcomer.cookie },
    { path: '/checkout-success?session_id=cs_test_unknown', cookie: account.user.cookie },
  ]

  it.each([
    ['with estimated keyword data', () => estimates.url],
    ['with no optional service', () => bare.url],
  ])('%s', async (_, base) => {
    const found: string[] = []
    for (const { path, cookie } of pages()) {
      const res = await page(base(), path, cookie)
      expect([200, 404], `${path} answered ${res.status}`).toContain(res.status)
      found.push(...operatorWords(res.text).map((w) => `${path}: ${w}`))
    }
    expect(found).toEqual([])
  })

  it('words each missing capability in product terms, and promises only what the server does', async () => {
    const cookie = account.user.cookie
    const keywordsBare = readable((await page(bare.url, '/keywords', cookie)).text)
    expect(keywordsBare).toContain(SEARCH_UNAVAILABLE_MESSAGE)
    const keywordsEstimated = readable((await page(estimates.url, '/keywords', cookie)).text)
    expect(keywordsEstimated).toContain(ESTIMATES_NOTICE)
    // No rank checks and no Search Console here: rank tracking is not available, in those words.
    expect(readable((await page(bare.url, '/rankings', cookie)).text)).toContain(RANKINGS_MESSAGES.unavailable)

    // 'Real search volume' only where volumes are measured (the run's own server has the DataForSEO fake). The promo
    // shows after a search (the form, without JavaScript).
    const promo = 'Real search volume and ranking difficulty'
    const estimated = await afterKeywordSearch(estimates.url)
    expect(estimated).toContain('Recommended Keywords')
    expect(estimated).not.toContain(promo)
    // The spec's required copy stays.
    expect(estimated).toContain('Auto Tracking - Monitor keyword rankings 24/7')
    expect(await afterKeywordSearch(appUrl())).toContain(promo)
    expect(readable((await page(estimates.url, '/free-tools')).text)).not.toMatch(/real search volume/i)
    expect(readable((await page(appUrl(), '/free-tools')).text)).toMatch(/real search volume/i)
  })
})

describe('the operator learns what is missing', () => {
  it('/healthz lists the capabilities and what would switch a missing one on; the start-up log says it too', async () => {
    const res = await fetch(`${bare.url}/healthz`)
    expect(res.status).toBe(200)
    const health = (await res.json()) as Record<string, Record<string, unknown>>
    expect(health.capabilities).toMatchObject({
      keywordData: 'none',
      serp: false,
      rankTracking: false,
      searchConsole: false,
      googleSignIn: false,
      writing: false,
      payments: false,
      email: false,
    })
    expect(health.capabilitiesOff!.rankTracking).toContain('DATAFORSEO_LOGIN')
    expect(health.capabilitiesOff!.writing).toContain('OPENAI_API_KEY')

    const full = (await api('/healthz')).body as Record<string, Record<string, unknown>>
    expect(full.capabilities).toMatchObject({ keywordData: 'dataforseo', rankTracking: true, writing: true })
    expect(full.capabilitiesOff!.rankTracking).toBeUndefined()

    expect(bare.output()).toMatch(/rankTracking off; set DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD to switch it on/)
    expect(estimates.output()).toMatch(/keywordData on \(AI estimates\); measured data needs DATAFORSEO_LOGIN/)
  })
})

describe('Auto Pilot paused by the plan', () => {
  /** A signed-in user with Auto Pilot switched on (in the database only: nothing runs) and this subscription. */
  async function pilot(subscription: Partial<typeof schema.subscriptions.$inferInsert>) {
    const user = await createTestUser()
    await db
      .insert(schema.autopilotSettings)
      .values({ userId: user.id, enabled: true })
      .onConflictDoUpdate({ target: schema.autopilotSettings.userId, set: { enabled: true } })
    if (Object.keys(subscription).length)
      await db.update(schema.subscriptions).set(subscription).where(eq(schema.subscriptions.userId, user.id))
    const read = async (path: string) => readable((await api(path, { as: user, auth: 'cookie' })).text)
    return { autopilot: await read('/autopilot'), calendar: await read('/calendar') }
  }

  it('says the trial has ended, with the upgrade, and promises no post on the calendar', async () => {
    const { autopilot, calendar } = await pilot({ trialEndsAt: new Date(Date.now() - 86_400_000) })
    for (const text of [autopilot, calendar]) {
      expect(text).toContain(PAUSE_MESSAGES.trialEnded)
      expect(text).toContain('Upgrade to Premium')
    }
    expect(calendar).not.toContain(ENTRY_LABELS.slot)
  })

  it("says this month's posts are used and when Auto Pilot writes again", async () => {
    const { autopilot, calendar } = await pilot({
      status: 'active',
      plan: 'monthly',
      blogPostCount: LIMITS.premium.blogPosts,
      usagePeriodStart: new Date(),
    })
    for (const text of [autopilot, calendar]) {
      expect(text).toContain(PAUSE_MESSAGES.quota)
      expect(text).toMatch(/Auto Pilot writes again on \w{3} \d{1,2}, \d{4}/)
    }
  })

  it("says the trial's posts are used; a trial with posts left is not paused and its calendar shows the next post", async () => {
    const used = await pilot({ blogPostCount: LIMITS.trial.blogPosts })
    expect(used.autopilot).toContain(PAUSE_MESSAGES.trialQuota)
    expect(used.calendar).not.toContain(ENTRY_LABELS.slot)
    const fresh = await pilot({})
    expect(fresh.autopilot).not.toContain('Paused:')
    expect(fresh.calendar).toContain(ENTRY_LABELS.slot)
  })
})
