/**
 * A real Ghost for the publishing tests: the npm package of Ghost GHOST_VERSION, installed once per machine by
 * `npm test` (scripts/lib/services.ts `ensureGhost`, into ~/.cache/rankwell), run privately on loopback as Ghost-CLI
 * lays a site out: a scratch site folder with `config.production.json` (SQLite, mail to a stub, no calls out),
 * `content/` copied from the package (with its default theme, Casper) and `current` → the installed server. The owner
 * is set up through the Admin API as Ghost's own admin screens do, then a custom integration gives the Admin API key.
 * `stop()` ends the server's process group and removes the folder.
 *
 * `npm test` starts one site beside its other stages and announces it to the integration tests (GHOST_SITE_ENV);
 * `ghostForTests()` waits for it, or starts one with `startGhost()` where the tests run without it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, GHOST_VERSION, ghostCacheDir, installedGhost } from '../../scripts/lib/services'

/** The variable naming the file in which `npm test` announces its Ghost site (see ghostForTests). */
export const GHOST_SITE_ENV = 'RANKWELL_GHOST_SITE'

export type GhostSiteInfo = { url: string; adminApiKey: string; siteDir: string; pid: number }

export type GhostSite = GhostSiteInfo & {
  /** Stops the server (the site's folder and database stay). */
  stopServer(): Promise<void>
  /** Starts the server again on the same folder, database and port. */
  startServer(): Promise<void>
  /** Stops the server and removes the site's folder. */
  stop(): Promise<void>
}

// Ghost refuses passwords it deems insecure (common words, the site's title, the e-mail): a random one per process.
const OWNER = {
  name: 'Rankwell Tester',
  email: 'owner@example.test',
  password: `Kx7-${crypto.randomBytes(12).toString('base64url')}-q9`,
}
export const GHOST_SITE_TITLE = 'Rankwell Ghost Test Blog'

/** Why a real Ghost cannot run here, or null when it can. */
export function ghostUnavailable(): string | null {
  if (process.env[GHOST_SITE_ENV]) return null // npm test's site: ghostForTests() says what went wrong, if anything
  if (!installedGhost())
    return `Ghost ${GHOST_VERSION} is not installed in ${ghostCacheDir()} (npm test installs it; --skip-ghost leaves it out)`
  return null
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number, alive?: () => string | null) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const dead = alive?.()
    if (dead) throw new Error(`${what}: ${dead}`)
    if (await check()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`)
}

function tail(file: string, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}

/** Ends a process group (a Ghost server spawned `detached`) and waits until its leader is gone. */
async function killGroup(pid: number) {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name)
      return true
    } catch {
      return false
    }
  }
  const alive = () => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  if (!signal('SIGTERM')) return
  for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100))
  signal('SIGKILL')
  for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100))
}

/** A Ghost server on a site folder: started, answered, stopped (with its whole process group). */
function ghostServer(siteDir: string, url: string) {
  const logFile = path.join(siteDir, 'ghost.log')
  let child: ChildProcess | undefined
  let exit: string | null = null
  return {
    get pid() {
      return child?.pid ?? 0
    },
    async start(timeoutMs = 180_000) {
      exit = null
      const out = fs.openSync(logFile, 'a')
      child = spawn(process.execPath, [path.join(siteDir, 'current', 'index.js')], {
        cwd: siteDir,
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', out, out],
        detached: true, // its own process group: stopped as a whole
      })
      fs.closeSync(out)
      const started = child
      // Its own process group does not end with ours: a process that exits without stop() takes it along.
      const orphan = () => {
        try {
          if (started.pid) process.kill(-started.pid, 'SIGKILL')
        } catch {
          /* gone */
        }
      }
      process.once('exit', orphan)
      started.once('exit', (code, sig) => {
        exit = `Ghost exited (${sig ?? `code ${code}`})`
        process.off('exit', orphan)
      })
      try {
        await waitFor(
          async () => {
            try {
              const res = await fetch(`${url}/ghost/api/admin/site/`, { signal: AbortSignal.timeout(5_000) })
              return res.status === 200
            } catch {
              return false
            }
          },
          `Ghost at ${url}`,
          timeoutMs,
          () => (started.exitCode !== null || started.signalCode ? exit : null),
        )
      } catch (error) {
        if (started.pid) await killGroup(started.pid)
        throw new Error(`${(error as Error).message}; the end of ${logFile}:\n${tail(logFile)}`)
      }
    },
    async stop() {
      if (child?.pid) await killGroup(child.pid)
    },
  }
}

type Json = Record<string, unknown>

/** Sets up the owner, signs in (a session cookie) and creates a custom integration: its Admin API key. */
async function firstRun(url: string): Promise<string> {
  const admin = `${url}/ghost/api/admin`
  const headers = { 'Content-Type': 'application/json', 'Accept-Version': 'v5.0', Origin: url }
  const call = async (method: string, pathname: string, body?: Json, cookie?: string) => {
    const res = await fetch(`${admin}${pathname}`, {
      method,
      headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await res.text()
    if (res.status >= 300) throw new Error(`Ghost ${method} ${pathname}: HTTP ${res.status} ${text.slice(0, 500)}`)
    // Some answers are plain text (the session's 'Created').
    return { res, json: (text.startsWith('{') ? JSON.parse(text) : {}) as Json }
  }
  const setup = (await call('GET', '/authentication/setup/')).json as { setup: Array<{ status: boolean }> }
  if (!setup.setup[0]?.status)
    await call('POST', '/authentication/setup/', { setup: [{ ...OWNER, blogTitle: GHOST_SITE_TITLE }] })
  const session = await call('POST', '/session/', { username: OWNER.email, password: OWNER.password })
  const cookie = session.res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ')
  if (!cookie.includes('ghost-admin-api-session')) throw new Error('Ghost set no admin session cookie')
  const created = (
    await call('POST', '/integrations/?include=api_keys', { integrations: [{ name: 'Rankwell tests' }] }, cookie)
  ).json as { integrations: Array<{ api_keys: Array<{ id: string; type: string; secret: string }> }> }
  const key = created.integrations[0]?.api_keys.find((k) => k.type === 'admin')
  if (!key) throw new Error('Ghost created the integration without an Admin API key')
  // Ghost's Admin API answers the admin key's secret as the whole key (`id:secret`), as its admin screen shows it.
  return key.secret.includes(':') ? key.secret : `${key.id}:${key.secret}`
}

/**
 * Starts a fresh Ghost site on a free loopback port (5-20 s for a new database) and sets it up. Throws with the
 * reason (and the end of Ghost's log) when it cannot; the partial site is removed.
 */
export async function startGhost(opts: { timeoutMs?: number } = {}): Promise<GhostSite> {
  const server = installedGhost()
  if (!server) throw new Error(ghostUnavailable() ?? 'Ghost is not installed')
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rankwell-ghost-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const ghost = ghostServer(siteDir, url)
  const stop = async () => {
    await ghost.stop()
    fs.rmSync(siteDir, { recursive: true, force: true })
  }
  try {
    fs.symlinkSync(server, path.join(siteDir, 'current'))
    fs.cpSync(path.join(server, 'content'), path.join(siteDir, 'content'), { recursive: true })
    fs.mkdirSync(path.join(siteDir, 'content', 'data'), { recursive: true })
    fs.writeFileSync(
      path.join(siteDir, 'config.production.json'),
      JSON.stringify(
        {
          url,
          server: { host: '127.0.0.1', port },
          database: {
            client: 'sqlite3',
            connection: { filename: path.join(siteDir, 'content', 'data', 'ghost.db') },
            useNullAsDefault: true,
          },
          paths: { contentPath: path.join(siteDir, 'content') },
          mail: { transport: 'stub' },
          logging: { level: 'warn', transports: ['stdout'] },
          privacy: { useTinfoil: true },
          security: { staffDeviceVerification: false },
        },
        null,
        2,
      ),
    )
    await ghost.start(opts.timeoutMs)
    const adminApiKey = await firstRun(url)
    return {
      url,
      adminApiKey,
      siteDir,
      get pid() {
        return ghost.pid
      },
      stopServer: () => ghost.stop(),
      startServer: () => ghost.start(),
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * The Ghost site for the tests: the one `npm test` starts beside its other stages (GHOST_SITE_ENV names the file it
 * writes when the site is up, or why it is not; on a new machine the install takes minutes, so this waits up to
 * `timeoutMs`), else a site started here. The handle can stop the server and start it again on the same folder and
 * port; `stop()` stops what was started here (`npm test` removes its own site).
 */
export async function ghostForTests(timeoutMs = 15 * 60_000): Promise<GhostSite> {
  const file = process.env[GHOST_SITE_ENV]
  if (!file) return startGhost()
  const started = Date.now()
  type Announced = ({ ok: true } & GhostSiteInfo) | { ok: false; error: string }
  const read = (): Announced | null => {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Announced
    } catch {
      return null
    }
  }
  let state = read()
  while (!state) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`npm test's Ghost site was not ready within ${timeoutMs / 60_000} minutes`)
    await new Promise((r) => setTimeout(r, 500))
    state = read()
  }
  if (!state.ok) throw new Error(`npm test could not start Ghost: ${state.error}`)
  const info: GhostSiteInfo = { url: state.url, adminApiKey: state.adminApiKey, siteDir: state.siteDir, pid: state.pid }
  let own: ReturnType<typeof ghostServer> | undefined
  return {
    ...info,
    async stopServer() {
      if (own) await own.stop()
      else await killGroup(info.pid)
    },
    async startServer() {
      own ??= ghostServer(info.siteDir, info.url)
      await own.start()
    },
    async stop() {
      await own?.stop()
    },
  }
}

/** Writes the file `ghostForTests()` waits for (npm test's side). */
export function announceGhostSite(file: string, site: GhostSiteInfo | { error: string }) {
  const body =
    'error' in site
      ? { ok: false, error: site.error }
      : { ok: true, url: site.url, adminApiKey: site.adminApiKey, siteDir: site.siteDir, pid: site.pid }
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(body))
  fs.renameSync(`${file}.tmp`, file)
}
