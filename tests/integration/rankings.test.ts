import { postImagesOf } from '#app/features/content/images/storage.server'
import crypto from 'node:crypto'
import type { Job } from 'bullmq'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  enqueueRankingsTick,
  enqueueRankingsWeekly,
  enqueueRefreshPost,
  enqueueSearchConsolePull,
} from '#app/features/rankings/jobs/rankings.server'
import { queue, QUEUES } from '#app/platform/queue/queues.server'
import { decryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import { api, appUrl, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import { linkUrls } from '#app/features/content/content'
import { textFragmentUrl } from '#app/features/content/claims'
import { readClaims, readEvidence } from '#app/features/content/evidence'
import { RANKINGS_MESSAGES } from '#app/features/rankings/rankings'
import { scorePost } from '#app/features/content/seo-checklist'
import { comparableUrl } from '#app/features/keywords/serp'
import { covers, listSuggestions, refreshPost } from '#app/features/rankings/rankings-insights.server'
import { fakeControl, googleOAuthControl, serpControl, smtpMessages, waitForSmtpMessage } from '#tests/fakes/client'
import { chatCompletion } from '#tests/setup/openai'
import { addGhost, ghostPosts, waitForPublication } from './publishing-helpers'

/**
 * Rankings against the running app, worker, Postgres, Redis and the DataForSEO / Google fakes. The jobs are driven
 * over simulated days by enqueueing them with a `now` (what the schedulers leave to the system clock). The SERP
 * cache is keyed on the real day, so the test empties it for its own keywords between simulated days.
 */
const US = { countryCode: '2840', languageCode: '1000', countryName: 'United States' }
const serp = serpControl()
const dataforseo = fakeControl('dataforseo')
const oauth = googleOAuthControl()
const tag = crypto.randomBytes(4).toString('hex')

async function finished(job: Job | Promise<Job>, timeout = 60_000) {
  const j = await job
  return waitFor(
    async () => {
      const state = await j.getState()
      if (state === 'completed' || state === 'failed') return { state, job: j }
      return null
    },
    { timeout, interval: 200 },
  )
}

async function userWithSite(domain: string) {
  const user = await createTestUser()
  await db
    .update(schema.users)
    .set({ website: `https://${domain}` })
    .where(eq(schema.users.id, user.id))
  return user
}

async function saveKeyword(userId: string, keyword: string) {
  const [row] = await db
    .insert(schema.savedKeywords)
    .values({ userId, keyword, ...US, languageName: 'English', source: 'dataforseo' })
    .returning()
  return row!
}

async function serpCalls(keyword: string) {
  const requests = await dataforseo.requests({ path: '/serp/' })
  return requests.filter((r) => Array.isArray(r.body) && (r.body[0] as { keyword?: string })?.keyword === keyword)
    .length
}

async function forgetSerp(keyword: string) {
  await db.delete(schema.serpCache).where(eq(schema.serpCache.keyword, keyword))
}

async function positions(trackedId: string) {
  return db
    .select()
    .from(schema.keywordPositions)
    .where(eq(schema.keywordPositions.trackedKeywordId, trackedId))
    .orderBy(schema.keywordPositions.day)
}

/** Waits until no rankings job is waiting or running (the ones the API starts on the real clock). */
async function idle() {
  const q = queue(QUEUES.rankings)
  await waitFor(async () => (await q.getActiveCount()) + (await q.getWaitingCount()) === 0, {
    timeout: 30_000,
  })
}

async function tick(now: string) {
  const { state } = await finished(enqueueRankingsTick({ now }))
  expect(state).toBe('completed')
}

const created: TestUser[] = []
beforeAll(async () => {
  await serp.clearPlacements()
})
afterAll(async () => {
  await oauth.setAuto(null)
  await oauth.searchConsolePageCap(0)
  await serp.clearPlacements()
  for (const u of created) await db.delete(schema.trackedKeywords).where(eq(schema.trackedKeywords.userId, u.id))
})

describe('rankings API', () => {
  it('needs authentication and validates ids', async () => {
    expect((await api('/api/rankings')).status).toBe(401)
    expect((await api(`/api/rankings/${crypto.randomUUID()}/history`)).status).toBe(401)
    expect((await api(`/api/rankings/${crypto.randomUUID()}/track`, { method: 'POST' })).status).toBe(401)
    const user = await createTestUser()
    created.push(user)
    const bad = await api('/api/rankings/not-an-id/track', { method: 'POST', as: user })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('keywordId must be a keyword id.')
    expect((await api(`/api/rankings/${crypto.randomUUID()}/track`, { method: 'POST', as: user })).status).toBe(404)
    const days = await api(`/api/rankings/${crypto.randomUUID()}/history?days=0`, { as: user })
    expect(days.status).toBe(400)
  })

  it('stars saved keywords up to the trial limit, lists them, and removes the star', async () => {
    const user = await createTestUser()
    created.push(user)
    const keywords = await Promise.all(
      Array.from({ length: 11 }, (_, i) => saveKeyword(user.id, `limit test ${tag} ${i}`)),
    )
    for (const k of keywords.slice(0, 10)) {
      const res = await api(`/api/rankings/${k.id}/track`, { method: 'POST', as: user })
      expect(res.status).toBe(201)
    }
    const over = await api(`/api/rankings/${keywords[10]!.id}/track`, { method: 'POST', as: user })
    expect(over.status).toBe(403)
    expect(over.body.message).toContain('10 keywords')
    // Tracking the same keyword again is not a new place.
    expect((await api(`/api/rankings/${keywords[0]!.id}/track`, { method: 'POST', as: user })).status).toBe(201)

    const list = await api('/api/rankings', { as: user })
    expect(list.status).toBe(200)
    const data = list.body.data as Array<{ keyword: string; status: string; savedKeywordId: string }>
    expect(data).toHaveLength(10)
    expect(data.map((d) => d.savedKeywordId).sort()).toEqual(
      keywords
        .slice(0, 10)
        .map((k) => k.id)
        .sort(),
    )
    expect(list.body.usage).toEqual({ tracked: 10, limit: 10 })

    const del = await api(`/api/rankings/${keywords[0]!.id}/track`, { method: 'DELETE', as: user })
    expect(del.status).toBe(200)
    expect(del.body.tracked).toBe(false)
    expect(((await api('/api/rankings', { as: user })).body.data as unknown[]).length).toBe(9)
    // Another user cannot see or remove it.
    const other = await createTestUser()
    created.push(other)
    expect((await api(`/api/rankings/${keywords[1]!.id}/track`, { method: 'DELETE', as: other })).status).toBe(404)
    expect((await api(`/api/rankings/${keywords[1]!.id}/history`, { as: other })).status).toBe(404)
  })
})

describe('daily tracking over simulated days', () => {
  it('shares one SERP call per keyword and market, stores each domain, retries errors and records gaps', async () => {
    const keyword = `rank tracker ${tag}`
    const alpha = `alpha-${tag}.example`
    const beta = `beta-${tag}.example`
    const a = await userWithSite(alpha)
    const b = await userWithSite(beta)
    created.push(a, b)
    const ka = await saveKeyword(a.id, keyword)
    const kb = await saveKeyword(b.id, keyword)
    const ta = await api(`/api/rankings/${ka.id}/track`, { method: 'POST', as: a })
    const tb = await api(`/api/rankings/${kb.id}/track`, { method: 'POST', as: b })
    const aId = ta.body.id as string
    const bId = tb.body.id as string
    // Runs triggered by the stars (today, real clock) are done before the simulated days start.
    await idle()
    await db.delete(schema.keywordPositions).where(sql`tracked_keyword_id in (${aId}, ${bId})`)
    await db.delete(schema.rankChecks).where(eq(schema.rankChecks.keywordNorm, keyword))
    await db
      .update(schema.trackedKeywords)
      .set({ bestPosition: null })
      .where(sql`id in (${aId}, ${bId})`)

    // Day 1: alpha at 7, beta nowhere. One call for both users.
    await forgetSerp(keyword)
    let calls = await serpCalls(keyword)
    await serp.place({ keyword, url: `https://${alpha}/blog/tracker`, position: 7 })
    await tick('2031-03-01T23:10:00.000Z')
    expect((await serpCalls(keyword)) - calls).toBe(1)
    expect((await positions(aId)).map((p) => [p.day, p.status, p.position, p.url])).toEqual([
      ['2031-03-01', 'ranked', 7, `https://${alpha}/blog/tracker`],
    ])
    expect((await positions(bId)).map((p) => [p.day, p.status, p.position])).toEqual([
      ['2031-03-01', 'not_ranked', null],
    ])
    // A second tick the same day calls nobody.
    calls = await serpCalls(keyword)
    await tick('2031-03-01T23:40:00.000Z')
    expect(await serpCalls(keyword)).toBe(calls)

    // Day 2: alpha moves up to 3.
    await forgetSerp(keyword)
    await serp.place({ keyword, url: `https://${alpha}/blog/tracker`, position: 3 })
    await tick('2031-03-02T23:10:00.000Z')
    expect((await positions(aId)).at(-1)).toMatchObject({ day: '2031-03-02', status: 'ranked', position: 3 })

    // Day 3: the SERP API fails at 23:00 (retried half an hour later), then answers at 23:35.
    await forgetSerp(keyword)
    await serp.place({ keyword, url: `https://${alpha}/blog/tracker`, position: 4 })
    await dataforseo.enqueue({ status: 500, path: '/serp/', bodyIncludes: keyword, times: 3 })
    await tick('2031-03-03T23:00:00.000Z')
    expect((await positions(aId)).find((p) => p.day === '2031-03-03')).toBeUndefined()
    const [retrying] = await db
      .select()
      .from(schema.rankChecks)
      .where(and(eq(schema.rankChecks.keywordNorm, keyword), eq(schema.rankChecks.day, '2031-03-03')))
    expect(retrying).toMatchObject({ status: 'pending', attempts: 1 })
    await tick('2031-03-03T23:35:00.000Z')
    expect((await positions(aId)).at(-1)).toMatchObject({ day: '2031-03-03', status: 'ranked', position: 4 })

    // Day 4: every attempt of the day fails; the next day records a gap ('error'), never 'not ranked'.
    await forgetSerp(keyword)
    await dataforseo.enqueue({ status: 500, path: '/serp/', bodyIncludes: keyword, times: 3 })
    await tick('2031-03-04T23:00:00.000Z')
    await forgetSerp(keyword)
    await tick('2031-03-05T23:10:00.000Z')
    const day4 = (await positions(aId)).find((p) => p.day === '2031-03-04')
    expect(day4).toMatchObject({ status: 'error', position: null })
    expect((await positions(bId)).find((p) => p.day === '2031-03-04')).toMatchObject({ status: 'error' })
    expect((await positions(aId)).at(-1)).toMatchObject({ day: '2031-03-05', status: 'ranked', position: 4 })

    // The API and the page show the history with the gap, the best position and the changes.
    const history = await api(`/api/rankings/${aId}/history`, { as: a })
    expect(history.status).toBe(200)
    expect((history.body.data as Array<{ day: string; status: string }>).map((d) => d.status)).toEqual([
      'ranked',
      'ranked',
      'ranked',
      'error',
      'ranked',
    ])
    expect((history.body.keyword as { best: number }).best).toBe(3)
    const list = await api('/api/rankings', { as: a })
    const row = (list.body.data as Array<Record<string, unknown>>).find((r) => r.id === aId)!
    expect(row).toMatchObject({ position: 4, status: 'ranked', best: 3, checkedOn: '2031-03-05' })
    const page = await api(`/rankings?keyword=${aId}`, { as: a, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('data-testid="position-chart-svg"')
    expect(page.text).toContain('1 day without a check')
  })

  it('resumes after a crash: done checks are skipped, a stale claim is taken over, a live claim is left alone', async () => {
    const user = await userWithSite(`gamma-${tag}.example`)
    created.push(user)
    const words = ['done', 'stale', 'live', 'fresh'].map((w) => `resume ${w} ${tag}`)
    const ids: string[] = []
    for (const w of words) {
      const k = await saveKeyword(user.id, w)
      const res = await api(`/api/rankings/${k.id}/track`, { method: 'POST', as: user })
      expect(res.status).toBe(201)
      ids.push(res.body.id as string)
    }
    const day = '2031-04-01'
    const now = new Date('2031-04-01T23:20:00.000Z')
    const market = { countryCode: US.countryCode, languageCode: US.languageCode, day, attempts: 1 }
    await db.insert(schema.rankChecks).values([
      { keywordNorm: words[0]!, ...market, status: 'done' },
      { keywordNorm: words[1]!, ...market, status: 'running', claimedAt: new Date(now.getTime() - 3600_000) },
      { keywordNorm: words[2]!, ...market, status: 'running', claimedAt: new Date(now.getTime() - 60_000) },
    ])
    // The crashed worker had stored the first keyword's position before marking its check done.
    await db.insert(schema.keywordPositions).values({ trackedKeywordId: ids[0]!, day, status: 'not_ranked' })
    await idle()
    for (const w of words) await forgetSerp(w)
    const before = await Promise.all(words.map(serpCalls))
    await tick(now.toISOString())
    const after = await Promise.all(words.map(serpCalls))
    expect(after.map((n, i) => n - before[i]!)).toEqual([0, 1, 0, 1])
    const states = await db
      .select({ k: schema.rankChecks.keywordNorm, status: schema.rankChecks.status })
      .from(schema.rankChecks)
      .where(eq(schema.rankChecks.day, day))
    const byWord = Object.fromEntries(states.map((s) => [s.k, s.status]))
    expect(words.map((w) => byWord[w])).toEqual(['done', 'done', 'running', 'done'])
  })
})

describe('Search Console', () => {
  it('connects with webmasters.readonly, pulls pages of rows, and disables a revoked grant once with an e-mail', async () => {
    const domain = `delta-${tag}.example`
    const user = await userWithSite(domain)
    created.push(user)
    const site = `sc-domain:${domain}`
    const rows = Array.from({ length: 12 }, (_, i) => ({
      date: `2031-05-${String(1 + (i % 4)).padStart(2, '0')}`,
      page: `https://${domain}/blog/post-${i % 3}`,
      query: `query ${i}`,
      clicks: 12 - i,
      impressions: 100 + i,
      position: 5 + i,
    }))
    await oauth.searchConsoleSite(site, rows)
    await oauth.searchConsoleSite(`https://other-${tag}.example/`, [])
    await oauth.searchConsolePageCap(5)
    await oauth.setAuto('allow')

    // The browser's round trip: our connect form → Google's consent → our callback.
    const start = await api('/rankings/search-console/connect', { method: 'POST', as: user, auth: 'cookie' })
    expect(start.status).toBe(302)
    const consent = new URL(start.headers.get('location')!)
    expect(consent.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/webmasters.readonly')
    expect(consent.searchParams.get('access_type')).toBe('offline')
    const stateCookie = start.headers.get('set-cookie')!.split(';')[0]!
    const google = await fetch(consent, { redirect: 'manual' })
    const back = new URL(google.headers.get('location')!)
    expect(back.origin).toBe(new URL(appUrl()).origin)
    const callback = await fetch(back, { headers: { Cookie: `${user.cookie}; ${stateCookie}` }, redirect: 'manual' })
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe('/rankings')

    const [conn] = await db
      .select()
      .from(schema.searchConsoleConnections)
      .where(eq(schema.searchConsoleConnections.userId, user.id))
    expect(conn).toMatchObject({ status: 'active', siteUrl: site })
    expect(conn!.refreshToken).not.toContain('1//0gfake')
    const refreshToken = decryptSecret(conn!.refreshToken)
    expect(refreshToken).toMatch(/^1\/\/0gfake/)

    const { state } = await finished(enqueueSearchConsolePull({ userId: user.id, now: '2031-05-10T06:30:00.000Z' }))
    expect(state).toBe('completed')
    const stored = await db
      .select()
      .from(schema.searchConsoleStats)
      .where(eq(schema.searchConsoleStats.userId, user.id))
    expect(stored).toHaveLength(12)
    expect(stored.find((s) => s.query === 'query 0')).toMatchObject({ clicks: 12, impressions: 100, position: 5 })
    const queries = (await oauth.requests({ path: '/searchAnalytics/query' })).filter((r) =>
      r.path.includes(encodeURIComponent(site)),
    )
    const startRows = queries.map((r) => (r.body as { startRow: number }).startRow)
    // Pages of 5 rows: later pages start past 0, and the loop stops at an empty page.
    expect(startRows.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2)
    const [synced] = await db
      .select({ through: schema.searchConsoleConnections.syncedThrough })
      .from(schema.searchConsoleConnections)
      .where(eq(schema.searchConsoleConnections.userId, user.id))
    expect(synced!.through).toBe('2031-05-08')

    // The account owner revokes the grant: the next pull disables the connection and says so, once.
    await oauth.revoke(refreshToken)
    expect((await finished(enqueueSearchConsolePull({ userId: user.id, now: '2031-05-11T06:30:00.000Z' }))).state).toBe(
      'completed',
    )
    const mail = await waitForSmtpMessage({ to: user.email, predicate: (m) => m.subject.includes('Search Console') })
    expect(mail.text).toContain(`${appUrl()}/rankings`)
    const [disabled] = await db
      .select()
      .from(schema.searchConsoleConnections)
      .where(eq(schema.searchConsoleConnections.userId, user.id))
    expect(disabled!.status).toBe('disabled')
    const beforePull = await oauth.mark()
    await finished(enqueueSearchConsolePull({ userId: user.id, now: '2031-05-12T06:30:00.000Z' }))
    expect(await oauth.requests({ path: '/token', since: beforePull })).toEqual([])
    expect((await smtpMessages(user.email)).filter((m) => m.subject.includes('Search Console'))).toHaveLength(1)
    const page = await api('/rankings', { as: user, auth: 'cookie' })
    expect(page.text).toContain('Google Search Console access was revoked')
  })
})

describe('refresh suggestions, refresh and digest', () => {
  it('finds a slipped post with striking-distance queries, refreshes it into a version for review, and mails the digest', async () => {
    const domain = `epsilon-${tag}.example`
    const user = await userWithSite(domain)
    const optedOut = await userWithSite(`zeta-${tag}.example`)
    created.push(user, optedOut)
    const keyword = `refresh keyword ${tag}`
    const saved = await saveKeyword(user.id, keyword)
    const url = `https://${domain}/blog/refresh`
    const [post] = await db
      .insert(schema.blogPosts)
      .values({
        userId: user.id,
        keywordId: saved.id,
        requestKey: crypto.randomUUID(),
        status: 'completed',
        keyword,
        title: `Refresh keyword ${tag}`,
        slug: `refresh-keyword-${tag}`,
        contentMarkdown: `# Refresh keyword ${tag}\n\nIntro.\n\n## Basics\n\nText.\n\n## Conclusion\n\nThe end.`,
        contentHtml: '<h1>Refresh keyword</h1>',
        publishedUrl: url,
        publishedAt: new Date(),
        completedAt: new Date(),
      })
      .returning()
    // The daily tick tracks the published post's keyword.
    await forgetSerp(keyword)
    await serp.place({ keyword, url, position: 2 })
    await tick('2031-06-01T23:10:00.000Z')
    await forgetSerp(keyword)
    await serp.place({ keyword, url, position: 9 })
    await tick('2031-06-29T23:10:00.000Z')
    const [tracked] = await db.select().from(schema.trackedKeywords).where(eq(schema.trackedKeywords.postId, post!.id))
    expect(tracked).toBeDefined()
    await db.insert(schema.searchConsoleStats).values([
      {
        userId: user.id,
        day: '2031-06-20',
        page: url,
        query: `pricing plans ${tag}`,
        clicks: 1,
        impressions: 120,
        ctr: 0.01,
        position: 11,
      },
      {
        userId: user.id,
        day: '2031-06-20',
        page: url,
        query: `refresh keyword ${tag}`,
        clicks: 5,
        impressions: 300,
        ctr: 0.02,
        position: 9,
      },
    ])
    // Opt-out on /profile, without JavaScript.
    const toggle = await api('/profile', {
      method: 'POST',
      as: optedOut,
      auth: 'cookie',
      body: new URLSearchParams({ intent: 'rankings-digest', digest: 'off' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(toggle.status).toBe(302)
    const ok = await saveKeyword(optedOut.id, `opted out ${tag}`)
    await api(`/api/rankings/${ok.id}/track`, { method: 'POST', as: optedOut })

    expect((await finished(enqueueRankingsWeekly({ now: '2031-06-30T07:00:00.000Z' }))).state).toBe('completed')
    const [suggestion] = await db
      .select()
      .from(schema.refreshSuggestions)
      .where(eq(schema.refreshSuggestions.postId, post!.id))
    expect(suggestion).toBeDefined()
    expect((suggestion!.reasons as Array<{ kind: string }>).map((r) => r.kind).sort()).toEqual([
      'slipped',
      'striking_distance',
    ])
    expect((suggestion!.queries as Array<{ query: string }>).map((q) => q.query)).toEqual([`pricing plans ${tag}`])

    const digest = await waitForSmtpMessage({ to: user.email, predicate: (m) => m.subject.includes('weekly rankings') })
    expect(digest.text).toContain(`Refresh keyword ${tag}`)
    expect(digest.text).toContain(`${appUrl()}/rankings`)
    expect(digest.html).toContain(`href="${appUrl()}/profile"`)
    expect((await smtpMessages(optedOut.email)).filter((m) => m.subject.includes('weekly rankings'))).toHaveLength(0)
    // The same week never mails twice.
    await finished(enqueueRankingsWeekly({ now: '2031-06-30T09:00:00.000Z' }))
    expect((await smtpMessages(user.email)).filter((m) => m.subject.includes('weekly rankings'))).toHaveLength(1)

    // The post lives on Ghost, and the user has another published post to link to.
    const ownPage = `https://${domain}/blog/refresh-keyword-checklist`
    await db.insert(schema.blogPosts).values({
      userId: user.id,
      requestKey: crypto.randomUUID(),
      status: 'completed',
      keyword: `${keyword} checklist`,
      title: `Refresh keyword ${tag} checklist`,
      publishedUrl: ownPage,
      publishedAt: new Date(),
      completedAt: new Date(),
    })
    const ghost = await addGhost(user)
    const publish = await api(`/api/blogpost/${post!.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [ghost] },
    })
    expect(publish.status).toBe(202)
    const live = await waitForPublication(post!.id, ghost, ['published'])
    // The new section comes back with a citation marker and a link the research never gave.
    await fakeControl('openai').enqueue({
      status: 200,
      bodyIncludes: [`Pricing plans ${tag}`, 'Write the body of the section'],
      // Both runs of the job below write the section (either may be the one that lands).
      times: 2,
      body: chatCompletion(
        `Plans start at a fixed monthly price for most tools [F1]. See [this deal](https://evil.example/deal) too. A survey says 97% of buyers switch [F1].`,
      ),
    })

    // 'Refresh this post' without JavaScript: a redirect with a toast, then the job writes the new version.
    const page = await api('/rankings', { as: user, auth: 'cookie' })
    expect(page.text).toContain('Refresh this post')
    const refresh = await api('/rankings', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ intent: 'refresh', suggestionId: suggestion!.id }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(refresh.status).toBe(302)
    // The job runs twice (a retry, a second worker): one version, one suggestion done.
    await finished(enqueueRefreshPost({ suggestionId: suggestion!.id }))
    await idle()
    expect(await refreshPost(suggestion!.id)).toEqual({ outcome: 'skipped' })
    const versions = await db.select().from(schema.postVersions).where(eq(schema.postVersions.postId, post!.id))
    expect(versions.map((v) => v.origin).sort()).toEqual(['generated', 'refresh'])
    const [doneSuggestion] = await db
      .select()
      .from(schema.refreshSuggestions)
      .where(eq(schema.refreshSuggestions.id, suggestion!.id))
    expect(doneSuggestion).toMatchObject({ status: 'done', failureReason: null })

    const [after] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post!.id))
    const md = after!.contentMarkdown
    expect(after!.reviewStatus).toBe('waiting')
    expect(after!.slug).toBe(post!.slug)
    expect(after!.title).toBe(post!.title)
    // The old text stays; the query's section comes before the conclusion.
    expect(md).toContain('## Basics\n\nText.')
    const heading = /^## (.*pricing plans.*)$/im.exec(md)?.[1] ?? ''
    expect(covers(heading, `pricing plans ${tag}`)).toBe(true)
    expect(md.indexOf(`## ${heading}`)).toBeLessThan(md.indexOf('## Conclusion'))
    // Citations of today's facts (to the sentence), the Sources list, no foreign link, an internal link; a
    // figure the cited fact does not state is not kept as sourced.
    const context = (after!.steps as { context: { own: Array<{ url: string }> } }).context
    const evidence = readEvidence(after!.evidence)!
    const research = new Set(evidence.pages.filter((p) => p.status === 'read').map((x) => comparableUrl(x.url)))
    const f1 = evidence.facts.find((f) => f.id === 'F1')!
    expect(md).toContain(`for most tools [[1](${textFragmentUrl(f1.url, f1.sentence)})]`)
    expect(md).toMatch(/\n## Sources\n\n1\. \[/)
    expect(md).not.toContain('evil.example')
    expect(md).not.toContain('97%')
    expect(readClaims(after!.claims).find((c) => c.original?.includes('97%'))).toMatchObject({
      status: 'removed',
      sourceUrl: null,
    })
    const links = linkUrls(md)
    expect(links).toContain(ownPage)
    for (const url of links.filter((u) => !u.startsWith(`https://${domain}/`)))
      expect(research.has(comparableUrl(url))).toBe(true)
    expect(research.has(comparableUrl(live.remoteUrl!))).toBe(false)
    // A fresh score: the checklist computed from what is stored, the same on the version.
    const expected = scorePost({
      keyword,
      title: after!.title,
      slug: after!.slug,
      metaDescription: after!.metaDescription,
      markdown: md,
      targetWords: (after!.steps as { context: { targetWords: number } }).context.targetWords,
      language: 'English',
      ownPages: context.own.map((o) => o.url),
      siteHost: domain,
      claims: after!.claims as Array<{ text: string; sourceUrl: string | null }>,
      images: await postImagesOf(after!.id),
    })
    expect(after!.seoScore).toBe(expected.score)
    expect(after!.seoChecklist).toEqual(expected.items)
    expect(versions.find((v) => v.origin === 'refresh')!.seoScore).toBe(expected.score)
    // Sanitized HTML stored with it.
    expect(after!.contentHtml).toContain(`<h2`)
    expect(after!.contentHtml).toContain(heading)
    expect(after!.contentHtml).not.toContain('<script')
    // The engine's prompts: research and the business in the brief, the voice in the sections.
    const calls = (await fakeControl('openai').requests({ path: '/chat/completions' })).map((r) =>
      JSON.stringify(r.body),
    )
    const brief = calls.find((c) => c.includes('blog_post_refresh') && c.includes(`pricing plans ${tag}`))
    expect(brief).toContain('What ranks in Google today')
    expect(brief).toContain(`Website: https://${domain}`)
    expect(
      calls.some((c) => c.includes('Write the body of the section') && c.includes('Tone:') && c.includes(tag)),
    ).toBe(true)

    // A second click does nothing.
    const again = await api('/rankings', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ intent: 'refresh', suggestionId: suggestion!.id, respond: 'json' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(again.status).toBe(400)

    // Approval publishes the update where the post lives.
    const approve = await api(`/api/blogpost/${post!.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'approve' },
    })
    expect(approve.status).toBe(200)
    const updated = await waitFor(async () =>
      (await ghostPosts()).find((p) => p.slug === post!.slug && String(p.html).includes('for most tools')),
    )
    expect(String(updated.html)).not.toContain('evil.example')
    expect((await ghostPosts()).filter((p) => p.slug === post!.slug)).toHaveLength(1)
    expect((await waitForPublication(post!.id, ghost, ['published'])).action).toBe('update')
    const [approved] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post!.id))
    expect(approved!.reviewStatus).toBe('approved')

    // The post page shows its own chart.
    const postPage = await api(`/blogpost/${post!.id}`, { as: user, auth: 'cookie' })
    expect(postPage.text).toContain('data-testid="position-chart-svg"')
  })

  it('reopens a refresh the model refused with the reason, writes nothing, and refreshes a slipped post on retry', async () => {
    const domain = `eta-${tag}.example`
    const user = await userWithSite(domain)
    created.push(user)
    const keyword = `slipped keyword ${tag}`
    const saved = await saveKeyword(user.id, keyword)
    const original = `# Slipped keyword ${tag}\n\nIntro.\n\n## Basics\n\nText.\n\n## FAQ\n\n### Why?\n\nBecause.`
    const [post] = await db
      .insert(schema.blogPosts)
      .values({
        userId: user.id,
        keywordId: saved.id,
        requestKey: crypto.randomUUID(),
        status: 'completed',
        keyword,
        title: `Slipped keyword ${tag}`,
        slug: `slipped-keyword-${tag}`,
        contentMarkdown: original,
        contentHtml: '<h1>Slipped keyword</h1>',
        seoScore: 41,
        publishedUrl: `https://${domain}/blog/slipped`,
        publishedAt: new Date(),
        completedAt: new Date(),
      })
      .returning()
    const [suggestion] = await db
      .insert(schema.refreshSuggestions)
      .values({
        userId: user.id,
        postId: post!.id,
        week: '2031-W27',
        reasons: [{ kind: 'slipped', from: 3, to: 12 }],
        queries: [],
      })
      .returning()
    const click = () =>
      api('/rankings', {
        method: 'POST',
        as: user,
        auth: 'cookie',
        body: new URLSearchParams({ intent: 'refresh', suggestionId: suggestion!.id }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
    const state = () =>
      db.select().from(schema.refreshSuggestions).where(eq(schema.refreshSuggestions.id, suggestion!.id))

    // The AI service refuses the key: no retry helps, so the suggestion opens again at once with the reason.
    await fakeControl('openai').enqueue({ status: 401, bodyIncludes: ['blog_post_refresh', keyword], times: 1 })
    expect((await click()).status).toBe(302)
    const reopened = await waitFor(async () => {
      const [row] = await state()
      return row?.status === 'open' && row.failureReason ? row : null
    })
    expect(reopened.failureReason).toBe(RANKINGS_MESSAGES.refreshFailed('The AI service refused our credentials.'))
    expect((await listSuggestions(user.id)).find((x) => x.id === suggestion!.id)).toMatchObject({
      status: 'open',
      failureReason: reopened.failureReason,
    })
    const [untouched] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post!.id))
    expect(untouched).toMatchObject({ contentMarkdown: original, seoScore: 41, reviewStatus: null })
    expect(await db.select().from(schema.postVersions).where(eq(schema.postVersions.postId, post!.id))).toEqual([])
    expect((await api('/rankings', { as: user, auth: 'cookie' })).text).toContain('Refresh this post')

    // Tried again: the slipped post gets the sections the top pages cover, before its FAQ, and waits for review.
    expect((await click()).status).toBe(302)
    const done = await waitFor(async () => {
      const [row] = await state()
      return row?.status === 'done' ? row : null
    })
    expect(done.failureReason).toBeNull()
    const [after] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post!.id))
    expect(after!.reviewStatus).toBe('waiting')
    const added = after!.contentMarkdown
      .slice(after!.contentMarkdown.indexOf('Text.'), after!.contentMarkdown.indexOf('## FAQ'))
      .match(/^## .+$/gm)
    expect(added?.length).toBeGreaterThanOrEqual(1)
    expect(added!.length).toBeLessThanOrEqual(3)
    expect(after!.contentMarkdown).toMatch(/\n## Sources\n\n1\. \[/)
    expect(after!.seoScore).not.toBeNull()
    const versions = await db.select().from(schema.postVersions).where(eq(schema.postVersions.postId, post!.id))
    expect(versions.map((v) => v.origin).sort()).toEqual(['generated', 'refresh'])
  })
})
