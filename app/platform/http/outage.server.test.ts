import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

async function load() {
  vi.resetModules()
  vi.stubEnv('DATABASE_URL', 'postgres://u:p@db.internal:6543/app')
  vi.stubEnv('REDIS_URL', 'redis://cache.internal:6390')
  vi.stubEnv('SESSION_SECRET', 's1')
  return import('./outage.server')
}

/** An error as node's net module makes it for a refused connection. */
function refused(port: number) {
  return Object.assign(new Error(`connect ECONNREFUSED 10.0.0.1:${port}`), { code: 'ECONNREFUSED', port })
}

class DrizzleQueryError extends Error {
  override name = 'DrizzleQueryError'
}
class PostgresError extends Error {
  override name = 'PostgresError'
  constructor(public code: string) {
    super(`server says ${code}`)
  }
}

describe('classifyOutage', () => {
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => {}))
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  })

  it('recognises Postgres going away, whatever wraps the error', async () => {
    const { classifyOutage } = await load()
    expect(classifyOutage(new DrizzleQueryError('Failed query', { cause: refused(6543) }))).toBe('postgres')
    expect(classifyOutage(refused(6543))).toBe('postgres')
    expect(classifyOutage(Object.assign(new Error('write CONNECT_TIMEOUT'), { code: 'CONNECT_TIMEOUT' }))).toBe(
      'postgres',
    )
    for (const code of ['57P01', '57P03', '57014', '08006', '53300'])
      expect(classifyOutage(new DrizzleQueryError('q', { cause: new PostgresError(code) }))).toBe('postgres')
    // Happy eyeballs: an AggregateError of both address families.
    expect(classifyOutage(new AggregateError([refused(6543), refused(6543)], 'connect failed'))).toBe('postgres')
  })

  it('recognises Redis going away', async () => {
    const { classifyOutage } = await load()
    expect(classifyOutage(new Error('Connection is closed.'))).toBe('redis')
    expect(classifyOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe('redis')
    expect(classifyOutage(Object.assign(new Error('x'), { name: 'MaxRetriesPerRequestError' }))).toBe('redis')
    expect(classifyOutage(Object.assign(new Error('x'), { name: 'QueueTimeoutError' }))).toBe('redis')
    expect(classifyOutage(refused(6390))).toBe('redis')
  })

  it('leaves every other error alone: bugs, bad SQL, other hosts, outgoing HTTP, thrown responses', async () => {
    const { classifyOutage } = await load()
    expect(classifyOutage(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull()
    expect(classifyOutage(new DrizzleQueryError('q', { cause: new PostgresError('23505') }))).toBeNull()
    expect(classifyOutage(refused(587))).toBeNull()
    expect(classifyOutage(new TypeError('fetch failed', { cause: refused(6543) }))).toBeNull()
    expect(classifyOutage(new Response('no', { status: 404 }))).toBeNull()
    expect(classifyOutage('a string')).toBeNull()
  })
})

describe('guardBuild', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  })

  it('turns an outage in a loader or action into a thrown 503 with Retry-After; anything else is rethrown as is', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { guardBuild } = await load()
    const bug = new Error('a bug')
    const module = {
      loader: async (_args: { request: Request }) => {
        throw refused(6543)
      },
      action: async (_args: { request: Request }) => {
        throw bug
      },
      default: () => null,
    }
    const build = { routes: { root: { id: 'root', path: '', module } } } as never
    const guarded = guardBuild(build) as unknown as { routes: { root: { module: typeof module } } }
    const args = { request: new Request('http://app.test/') }
    const thrown = await guarded.routes.root.module.loader(args).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    const response = thrown as Response
    expect(response.status).toBe(503)
    expect(response.headers.get('Retry-After')).toBe('30')
    expect(await response.json()).toEqual({ message: 'Rankwell is briefly unavailable, please try again in a minute.' })
    await expect(guarded.routes.root.module.action(args)).rejects.toBe(bug)
    expect(guarded.routes.root.module.default).toBe(module.default)
  })
})

describe('guardBuild: bad input that reached SQL', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  })

  it('answers a value Postgres refuses (malformed uuid, NUL byte, too many parameters) with 404 from a loader and 400 from an action', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { guardBuild } = await load()
    const refusal = (code: string) => new DrizzleQueryError('Failed query', { cause: new PostgresError(code) })
    let next: unknown = null
    const module = {
      loader: async (_args: { request: Request }) => {
        throw next
      },
      action: async (_args: { request: Request }) => {
        throw next
      },
    }
    const build = { routes: { root: { id: 'root', path: '', module } } } as never
    const guarded = guardBuild(build) as unknown as { routes: { root: { module: typeof module } } }
    const args = { request: new Request('http://app.test/blogpost/not-a-uuid') }
    for (const code of ['22P02', '22021', '22003', '22001', '54000']) {
      next = refusal(code)
      const fromLoader = (await guarded.routes.root.module.loader(args).catch((e: unknown) => e)) as Response
      expect(fromLoader.status, code).toBe(404)
      expect(await fromLoader.json()).toEqual({ message: 'Not found.' })
      const fromAction = (await guarded.routes.root.module.action(args).catch((e: unknown) => e)) as Response
      expect(fromAction.status, code).toBe(400)
      expect(await fromAction.json()).toEqual({
        message: 'Some of what was sent is not valid. Please check it and try again.',
      })
    }
    next = Object.assign(new Error('MAX_PARAMETERS_EXCEEDED'), { code: 'MAX_PARAMETERS_EXCEEDED' })
    expect(((await guarded.routes.root.module.action(args).catch((e: unknown) => e)) as Response).status).toBe(400)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('[bad-input] GET /blogpost/not-a-uuid: Postgres 22P02'))
    // Errors that are not about the input stay what they are: a missing table is a bug (500), a crash an outage.
    next = refusal('42P01')
    await expect(guarded.routes.root.module.loader(args)).rejects.toBe(next)
  })
})
