/**
 * Fuzz (issue 12): every route of Remix's route manifest gets hostile input: wrong types, NUL bytes, 200 kB strings,
 * broken multipart, forms sent as JSON, huge id lists, odd query strings and malformed ids, signed in and anonymous.
 * Nothing may answer 5xx or fail to answer within the per-request timeout; /api answers its errors as JSON; the app
 * is healthy afterwards. The cases are chosen per kind of route (each form intent once, each JSON shape once) so that
 * the whole run stays at a few hundred requests.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { flatRoutes } from '@remix-run/dev/dist/config/flat-routes.js'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { appUrl, createTestUser, uniqueIp, type TestUser } from '#tests/setup/app'
import { ignoredRouteFiles } from '../../vite.config'

const APP_DIR = path.resolve('app')
const REQUEST_TIMEOUT_MS = 15_000
/** Requests in flight at once: enough to overlap network waits, few enough for a 2-core machine. */
const CONCURRENCY = 3

type Route = { id: string; file: string; path: string; source: string; hasAction: boolean; hasLoader: boolean }

/** Every route as Remix itself finds it (the same flat-routes convention and ignore list as the build), `:x` → param. */
function routes(param: string): Route[] {
  const manifest = flatRoutes(APP_DIR, ignoredRouteFiles)
  const fullPath = (id: string): string[] => {
    const route = manifest[id]
    if (!route) return []
    return [...fullPath(route.parentId ?? ''), ...(route.path ? route.path.split('/') : [])]
  }
  return Object.values(manifest).map((route) => {
    const source = fs.readFileSync(path.join(APP_DIR, route.file), 'utf8')
    const segments = fullPath(route.id).map((s) => (s === '*' ? 'anything/else' : s.startsWith(':') ? param : s))
    return {
      id: route.id,
      file: route.file.replace(/^routes\//, ''),
      path: `/${segments.join('/')}`,
      source,
      hasAction: /export (async )?function action\b|export const action\b/.test(source),
      hasLoader: /export (async )?function loader\b|export const loader\b/.test(source),
    }
  })
}

/** The intents a form route dispatches on, read from its source (each gets hostile values once). */
function intentsOf(source: string): string[] {
  const found = new Set<string>()
  const patterns = [
    /intent\)?\s*[!=]==\s*'([\w:-]+)'/g,
    /case '([\w-]+)'/g,
    /intent="([\w-]+)"/g,
    /name="intent"\s+value="([\w-]+)"/g,
    /intent: '([\w-]+)'/g,
  ]
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.add(match[1]!)
  return [...found]
}

/** Field names the forms and endpoints read (a hostile value in every one at once). */
const FIELDS = [
  'intent',
  'email',
  'password',
  'name',
  'question',
  'query',
  'countryCode',
  'languageCode',
  'keywordId',
  'postId',
  'deliveryId',
  'requestKey',
  'redirectTo',
  'webhookUrl',
  'priceId',
  'plan',
  'token',
  'website',
  'marketSegment',
  'productService',
  'topic',
  'keyword',
  'business',
  'segment',
  'title',
  'content',
  'contentMarkdown',
  'metaDescription',
  'ids',
  'id',
  'cursor',
  'limit',
  'enabled',
  'cadenceDays',
  'target',
  'action',
  'type',
  'path',
  'date',
  'current',
  'confirm',
]

const NUL = 'a\u0000b'
const HUGE = 'x'.repeat(200_000)
const manyIds = (n: number) => Array.from({ length: n }, () => crypto.randomUUID())
const WRONG_TYPES: unknown[] = [12345, true, null, [], { nested: { deeper: [1, 'two'] } }, -1e308]

type Body = { contentType: string; body: string }
const asJson = (body: string): Body => ({ contentType: 'application/json', body })

/**
 * JSON bodies: every field once with each wrong type (rotated, so that six bodies give every field every type),
 * NUL bytes, 200 kB strings, huge id lists, tops that are not objects, broken JSON.
 */
function jsonBodies(): Body[] {
  const rotated = (offset: number) =>
    JSON.stringify(Object.fromEntries(FIELDS.map((f, i) => [f, WRONG_TYPES[(i + offset) % WRONG_TYPES.length]])))
  return [
    ...WRONG_TYPES.map((_, offset) => rotated(offset)),
    JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, NUL]))),
    JSON.stringify({ ...Object.fromEntries(FIELDS.map((f) => [f, 'ok'])), question: HUGE, name: HUGE, query: HUGE }),
    JSON.stringify({ ids: manyIds(2000), keywordIds: manyIds(2000), targets: manyIds(1000), keywordId: manyIds(1) }),
    '[1,2,3]',
    'null',
    '{"broken": ',
  ].map(asJson)
}

const urlencoded = (value: string, extra: Record<string, string> = {}): Body => ({
  contentType: 'application/x-www-form-urlencoded',
  body: new URLSearchParams({ ...Object.fromEntries(FIELDS.map((f) => [f, value])), ...extra }).toString(),
})

/** Form bodies for a route: NUL and malformed ids in each of its intents, then the shapes no form should choke on. */
function formBodies(intents: string[]): Body[] {
  const first = intents[0] ?? ''
  return [
    ...intents.flatMap((intent) => [urlencoded(NUL, { intent }), urlencoded('not-a-uuid', { intent })]),
    urlencoded(NUL),
    urlencoded(''),
    urlencoded('x', { intent: first, question: HUGE, name: HUGE, content: HUGE }),
    {
      contentType: 'application/x-www-form-urlencoded',
      body: `${manyIds(3000)
        .map((id) => `keywordId=${id}&postId=${id}&id=${id}`)
        .join('&')}&intent=${first}`,
    },
    {
      contentType: 'multipart/form-data; boundary=XYZ',
      body: `--XYZ\r\nContent-Disposition: form-data; name="intent"\r\n\r\n${first}\r\n--XYZ\r\nContent-Disposi`,
    },
    { contentType: 'multipart/form-data', body: 'no boundary at all' },
    { contentType: 'application/json', body: JSON.stringify({ intent: first }) },
    { contentType: 'text/plain', body: NUL },
    { contentType: 'application/x-www-form-urlencoded', body: '%E0%A4%A=%%%&&==' },
  ]
}

type Outcome = { method: string; url: string; status: number; contentType: string; ms: number }
type Auth = { kind: 'cookie' | 'token'; user: TestUser }

async function send(method: string, url: string, opts: { body?: Body; auth?: Auth } = {}): Promise<Outcome> {
  const headers: Record<string, string> = { 'X-Forwarded-For': uniqueIp() }
  if (opts.body) headers['Content-Type'] = opts.body.contentType
  if (opts.auth?.kind === 'cookie') {
    headers.Cookie = opts.auth.user.cookie
    headers.Origin = appUrl()
  }
  if (opts.auth?.kind === 'token') headers.Authorization = `Bearer ${opts.auth.user.token}`
  const started = Date.now()
  const shortUrl = url.length > 160 ? `${url.slice(0, 160)}…(${url.length} chars)` : url
  try {
    const res = await fetch(`${appUrl()}${url}`, {
      method,
      headers,
      body: opts.body?.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    await res.arrayBuffer()
    return {
      method,
      url: shortUrl,
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      ms: Date.now() - started,
    }
  } catch (error) {
    // A timeout or a dropped connection is a finding, reported with the others (with the network error's cause).
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    const why = [(error as Error).name, cause?.code, cause?.message].filter(Boolean).join(': ')
    return { method, url: shortUrl, status: -1, contentType: why, ms: Date.now() - started }
  }
}

/** Runs the requests CONCURRENCY at a time. */
async function all(tasks: Array<() => Promise<Outcome>>): Promise<Outcome[]> {
  const out: Outcome[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++]!
        out.push(await task())
      }
    }),
  )
  return out
}

const isApi = (url: string) => url.startsWith('/api/')
const isJson = (o: Outcome) => o.contentType.includes('application/json')

function problems(outcomes: Outcome[]) {
  return outcomes.filter(
    (o) => o.status < 0 || o.status >= 500 || (isApi(o.url) && o.status >= 400 && o.status !== 405 && !isJson(o)),
  )
}

/**
 * What hostile input must never create or charge: searches, posts and saved keywords made by hand. (A body may
 * legitimately switch Auto Pilot on, `enabled: true`; what Auto Pilot then researches and writes is not counted.)
 */
async function writes(userId: string) {
  const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  const posts = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, userId))
  const keywords = await db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.userId, userId))
  return {
    searches: sub?.keywordSearchCount,
    posts: posts.filter((p) => p.source !== 'autopilot').map((p) => p.title),
    keywords: keywords.filter((k) => !k.searchedViaAutoPilot).map((k) => k.keyword),
  }
}

/** Sign-out and account deletion would end the fuzzing user's session: those routes are fuzzed anonymously only. */
const endsSession = (route: Route) => /^(logout|api\.logout|api\.user)\.tsx?$/.test(route.file)

describe('fuzz: every route survives hostile input', () => {
  it('finds every route of the manifest, with its parameters filled in', () => {
    const found = routes('x')
    expect(found.length).toBeGreaterThan(80)
    const byFile = (file: string) => found.find((r) => r.file === file)
    expect(byFile('blogpost_.$id.publish.tsx')?.path).toBe('/blogpost/x/publish')
    expect(byFile('blogpost.$id.download.ts')?.path).toBe('/blogpost/x/download')
    expect(byFile('robots[.]txt.ts')?.path).toBe('/robots.txt')
    expect(byFile('_index.tsx')?.path).toBe('/')
    expect(byFile('api.$.ts')?.path).toBe('/api/anything/else')
    expect(found.filter((r) => r.hasAction).length).toBeGreaterThan(50)
    expect(intentsOf(byFile('blogposts/route.tsx')!.source)).toEqual(
      expect.arrayContaining(['create-post', 'delete-post', 'retry-post']),
    )
    expect(intentsOf(byFile('calendar.tsx')!.source)).toContain('move')
  })

  it('sends wrong types, NUL bytes, 200 kB strings, broken multipart and huge id lists to every action', async () => {
    const user = await createTestUser()
    const before = await writes(user.id)
    const tasks: Array<() => Promise<Outcome>> = []
    const json = jsonBodies()
    for (const [i, param] of ['not-a-uuid', '%00', crypto.randomUUID()].entries()) {
      for (const route of routes(param)) {
        // A route without a parameter is the same URL for every param: fuzz it once; other ids get a few bodies.
        if (!route.hasAction || (i > 0 && !route.path.includes(param))) continue
        const api = isApi(route.path)
        const bodies = api ? json : formBodies(intentsOf(route.source))
        const signedIn: Auth = { kind: api ? 'token' : 'cookie', user }
        const mine = endsSession(route) ? [] : i === 0 ? bodies : bodies.slice(-4)
        for (const body of mine) tasks.push(() => send('POST', route.path, { body, auth: signedIn }))
        // Anonymous, and for /api a signed-in browser (cookie), other write methods: a few bodies each.
        for (const body of bodies.slice(-3)) tasks.push(() => send('POST', route.path, { body }))
        if (api && !endsSession(route)) {
          tasks.push(() => send('POST', route.path, { body: json[6], auth: { kind: 'cookie', user } }))
          tasks.push(() => send('PUT', route.path, { body: json[0], auth: signedIn }))
          tasks.push(() => send('DELETE', route.path, { body: json[8], auth: signedIn }))
        }
      }
    }
    const outcomes = await all(tasks)
    expect(outcomes.length).toBe(tasks.length)
    expect(problems(outcomes)).toEqual([])
    expect(await writes(user.id)).toEqual(before)
    expect((await fetch(`${appUrl()}/healthz`)).status).toBe(200)
  }, 300_000)

  it('sends hostile query strings and malformed ids to every loader', async () => {
    const user = await createTestUser()
    const queries = [
      `?ids=${manyIds(120).join(',')}&keyword=${crypto.randomUUID()}`,
      `?ids=${Array.from({ length: 2500 }, (_, i) => i).join(',')}`,
      '?q=%00&cursor=%00&limit=-1&page=abc&show=1e309&sort=%00&order=sideways&status=%00&id=%00&view=%00&date=%00',
      `?q=${'x'.repeat(6000)}&cursor=${'y'.repeat(3000)}&market=${'z'.repeat(500)}&from=0000-99-99&to=%00&days=-1`,
      '?session_id=%00&redirectTo=%00%2F%2Fevil.example&token=%00&error=%00&check=1e309&edit=%00&format=%00',
    ]
    const tasks: Array<() => Promise<Outcome>> = []
    for (const [i, param] of ['not-a-uuid', '%00'].entries()) {
      for (const route of routes(param)) {
        if (!route.hasLoader || (i > 0 && !route.path.includes(param))) continue
        const auth: Auth = { kind: isApi(route.path) ? 'token' : 'cookie', user }
        for (const query of queries)
          for (const as of [undefined, auth]) tasks.push(() => send('GET', `${route.path}${query}`, { auth: as }))
      }
    }
    tasks.push(() => send('GET', `/no/such/page/${'z'.repeat(2000)}`))
    tasks.push(() => send('DELETE', '/api/nothing-here'))
    const outcomes = await all(tasks)
    expect(problems(outcomes)).toEqual([])
    expect((await fetch(`${appUrl()}/healthz`)).status).toBe(200)
  }, 300_000)
})
