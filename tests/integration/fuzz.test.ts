/**
 * Fuzz (issue 12): every route in app/routes gets wrong types, NUL bytes, 200 kB strings, broken multipart, forms
 * sent as JSON and huge id lists, signed in (cookie and Bearer token) and anonymous. Nothing may answer 5xx or take
 * longer than the per-request timeout; /api answers its errors as JSON; the app is healthy afterwards.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { appUrl, createTestUser, uniqueIp, type TestUser } from '#tests/setup/app'

const ROUTES_DIR = path.resolve('app/routes')
const REQUEST_TIMEOUT_MS = 15_000

type Route = { file: string; path: string; hasAction: boolean; hasLoader: boolean }

/** Remix flat routes: dots are slashes, `$x` a param, `[.]` a literal dot, `_index` the parent, `_x` and `x_` pathless. */
function routePath(file: string, param: string): string {
  const name = file.replace(/\.(tsx?|jsx?)$/, '')
  const segments = name
    .replaceAll('[.]', '~dot~')
    .split('.')
    .map((s) => s.replaceAll('~dot~', '.'))
    .filter((s) => s !== '_index' && !s.startsWith('_'))
    .map((s) => (s === '$' ? 'anything/else' : s.startsWith('$') ? param : s.replace(/_$/, '')))
  return `/${segments.join('/')}`
}

function routes(param: string): Route[] {
  return fs
    .readdirSync(ROUTES_DIR)
    .filter((f) => /\.(tsx?|jsx?)$/.test(f) && !f.includes('.server.') && !f.includes('.test.') && !f.startsWith('__'))
    .map((file) => {
      const source = fs.readFileSync(path.join(ROUTES_DIR, file), 'utf8')
      return {
        file,
        path: routePath(file, param),
        hasAction: /export (async )?function action|export const action/.test(source),
        hasLoader: /export (async )?function loader|export const loader/.test(source),
      }
    })
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
  'confirm',
]

const NUL = 'a\u0000b'
const HUGE = 'x'.repeat(200_000)
const manyIds = (n: number) => Array.from({ length: n }, () => crypto.randomUUID())

/** JSON bodies: wrong types everywhere, NUL bytes, one 200 kB string, huge id lists, not-an-object tops. */
function jsonBodies(): string[] {
  const every = (value: unknown) => JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, value])))
  return [
    every(12345),
    every(true),
    every(null),
    every([]),
    every({ nested: { deeper: [1, 'two'] } }),
    every(NUL),
    every(-1e308),
    JSON.stringify({ ...Object.fromEntries(FIELDS.map((f) => [f, 'ok'])), question: HUGE, name: HUGE }),
    JSON.stringify({ ids: manyIds(5000), keywordIds: manyIds(5000), targets: manyIds(2000) }),
    '[1,2,3]',
    '"just a string"',
    'null',
    '{"broken": ',
    '\u0000\u0000',
  ]
}

type Body = { contentType: string; body: string }

function formBodies(): Body[] {
  const urlencoded = (value: string, extra: Record<string, string> = {}) => ({
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams({ ...Object.fromEntries(FIELDS.map((f) => [f, value])), ...extra }).toString(),
  })
  return [
    urlencoded(NUL),
    urlencoded(''),
    urlencoded('not-a-uuid', { intent: 'create-post' }),
    urlencoded(NUL, { intent: 'redeliver' }),
    urlencoded(NUL, { intent: 'update-profile' }),
    urlencoded(NUL, { intent: 'search' }),
    urlencoded('x', { question: HUGE.slice(0, 200_000), name: HUGE.slice(0, 200_000) }),
    {
      contentType: 'application/x-www-form-urlencoded',
      body: `${manyIds(5000)
        .map((id) => `keywordId=${id}`)
        .join('&')}&intent=create-posts`,
    },
    {
      contentType: 'multipart/form-data; boundary=XYZ',
      body: '--XYZ\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsave\r\n--XYZ\r\nContent-Disposi',
    },
    { contentType: 'multipart/form-data', body: 'no boundary at all' },
    { contentType: 'multipart/form-data; boundary=', body: '----\r\n\r\n' },
    { contentType: 'application/json', body: '{"intent": "search"}' },
    { contentType: 'text/plain', body: NUL },
    { contentType: 'application/x-www-form-urlencoded', body: '%E0%A4%A=%%%&&==' },
  ]
}

type Outcome = { method: string; url: string; status: number; contentType: string; ms: number }

async function send(
  method: string,
  url: string,
  opts: { body?: Body; auth?: { kind: 'cookie' | 'token'; user: TestUser } } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = { 'X-Forwarded-For': uniqueIp() }
  if (opts.body) headers['Content-Type'] = opts.body.contentType
  if (opts.auth?.kind === 'cookie') {
    headers.Cookie = opts.auth.user.cookie
    headers.Origin = appUrl()
  }
  if (opts.auth?.kind === 'token') headers.Authorization = `Bearer ${opts.auth.user.token}`
  const started = Date.now()
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
      url,
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      ms: Date.now() - started,
    }
  } catch (error) {
    // A timeout (or a dropped connection) is a finding, reported with the others.
    return { method, url, status: -1, contentType: String((error as Error).name), ms: Date.now() - started }
  }
}

/** Runs the requests a few at a time. */
async function all(tasks: Array<() => Promise<Outcome>>, concurrency = 4): Promise<Outcome[]> {
  const out: Outcome[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
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

describe('fuzz: every route survives hostile input', () => {
  it('finds the routes it fuzzes', () => {
    const found = routes('x')
    expect(found.length).toBeGreaterThan(50)
    expect(found.find((r) => r.file === 'blogpost_.$id.publish.tsx')?.path).toBe('/blogpost/x/publish')
    expect(found.find((r) => r.file === 'robots[.]txt.ts')?.path).toBe('/robots.txt')
    expect(found.find((r) => r.file === '_index.tsx')?.path).toBe('/')
  })

  it('sends wrong types, NUL bytes, 200 kB strings, broken multipart and huge id lists to every action', async () => {
    const user = await createTestUser()
    const tasks: Array<() => Promise<Outcome>> = []
    for (const [i, param] of ['not-a-uuid', '%00', crypto.randomUUID()].entries()) {
      for (const route of routes(param)) {
        // A route without a parameter is the same URL for every param: fuzz it once.
        if (!route.hasAction || (i > 0 && !route.file.includes('$'))) continue
        const api = isApi(route.path)
        // Sign-out and account deletion would end the fuzzing user's session: they get the anonymous share only.
        const auths = /logout|api\.user\.ts/.test(route.file)
          ? [undefined]
          : [undefined, { kind: api ? ('token' as const) : ('cookie' as const), user }]
        if (api && auths.length > 1) auths.push({ kind: 'cookie' as const, user })
        const bodies: Body[] = api
          ? jsonBodies().map((body) => ({ contentType: 'application/json', body }))
          : formBodies()
        for (const auth of auths) {
          for (const body of bodies) tasks.push(() => send('POST', route.path, { body, auth }))
          // Other write methods with a few of the bodies (PUT routes read the same way).
          if (api) for (const body of bodies.slice(4, 7)) tasks.push(() => send('PUT', route.path, { body, auth }))
        }
      }
    }
    const outcomes = await all(tasks)
    expect(outcomes.length).toBe(tasks.length)
    expect(problems(outcomes)).toEqual([])
    expect((await fetch(`${appUrl()}/healthz`)).status).toBe(200)
  }, 900_000)

  it('sends hostile query strings and ids to every loader', async () => {
    const user = await createTestUser()
    const queries = [
      `?ids=${manyIds(300).join(',')}`,
      `?ids=${Array.from({ length: 3000 }, (_, i) => i).join(',')}`,
      '?q=%00&cursor=%00&limit=-1&page=abc&show=1e309&sort=%00&order=sideways&status=%00&id=%00',
      `?q=${'x'.repeat(6000)}&cursor=${'y'.repeat(4000)}`,
      '?session_id=%00&redirectTo=%00%2F%2Fevil.example&token=%00&error=%00',
    ]
    const tasks: Array<() => Promise<Outcome>> = []
    for (const [i, param] of ['not-a-uuid', '%00'].entries()) {
      for (const route of routes(param)) {
        if (!route.hasLoader || (i > 0 && !route.file.includes('$'))) continue
        const auth = { kind: isApi(route.path) ? ('token' as const) : ('cookie' as const), user }
        for (const query of queries)
          for (const as of [undefined, auth]) tasks.push(() => send('GET', `${route.path}${query}`, { auth: as }))
      }
    }
    tasks.push(() => send('GET', `/no/such/page/${'z'.repeat(2000)}`))
    tasks.push(() => send('DELETE', '/api/nothing-here'))
    const outcomes = await all(tasks)
    expect(problems(outcomes)).toEqual([])
    expect((await fetch(`${appUrl()}/healthz`)).status).toBe(200)
  }, 900_000)
})
