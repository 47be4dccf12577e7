import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { db } from '#app/platform/db/client.server'
import { webArgs } from '../scripts/lib/app'
import { freePort, stopProcess, waitForHttp } from '../scripts/lib/services'
import { load, type BenchContext, type LoadResult } from './context'
import { webBenchUser } from './fixtures'

/**
 * Issue 17: Rankwell side by side with a minimal Remix app built from the same packages (bench/anchor/), which
 * renders Rankwell's saved HTML of each page. Interleaved A (anchor), B (Rankwell) per route and round, with and
 * without `Accept-Encoding: gzip, br`; medians of the rounds. With two or more cores, both servers share core 0
 * and the load generator (this process) runs on core 1. Also: a 304 for a cached public page, and Postgres
 * statements per request of the signed-in pages (pg_stat_database.xact_commit: each autocommit statement is one).
 *
 * Issue 39: the anchor sends each saved page once (its loader returns only the title; see bench/anchor/app/routes/
 * $.tsx), so a ratio compares Rankwell's render with the framework's floor for the same bytes. The bench user has
 * 50 saved keywords (the first page of /keywords, every metric shown). Each public page is measured twice: from
 * Rankwell's page cache ('cached') and rendered, the cache bypassed by a cookie that is no session ('rendered').
 * The web process's start time (spawn of the built server → /healthz answers) is the median of three starts.
 * The anchor's document has the saved page's head styles too (a public page inlines its CSS), so the bytes match.
 * Every rendered page is also measured against the React anchor (the same markup as React elements, `?react=1`):
 * B/R says how much of a page's cost is the app's own work (components, hooks, data) beyond React's price for its
 * elements; it has no target and is printed to show where the gap to the fair anchor lies (decision 0390).
 *
 * BENCH_ROUNDS (default 3) and BENCH_DURATION seconds per run (default 4) tune the run length; BENCH_ROUTES (a
 * comma-separated list, e.g. `/profile,/blogposts`) limits the run to those routes while working on one of them,
 * and BENCH_MODES (`cached`, `rendered`, `signed in`) to those rows.
 */
const only = process.env.BENCH_ROUTES ? new Set(process.env.BENCH_ROUTES.split(',')) : undefined
const PUBLIC_ROUTES = ['/', '/pricing', '/free-tools', '/signin', '/blog'].filter((r) => !only || only.has(r))
const SIGNED_IN_ROUTES = ['/keywords', '/blogposts', '/profile'].filter((r) => !only || only.has(r))
/** BENCH_MODES (e.g. `rendered,signed in`): only those rows, while profiling one kind of page. */
const modes = process.env.BENCH_MODES ? new Set(process.env.BENCH_MODES.split(',')) : undefined
const TARGETS = {
  anonymous: 0.6,
  anonymousCompressed: 0.8,
  rendered: 0.6,
  signedIn: 0.5,
  keywordsStatements: 4,
  startSeconds: 3,
}
/** A cookie that is no session: Rankwell's page cache serves only requests without one, so the page is rendered. */
const BYPASS_COOKIE = 'rankwell-bench=render'
const SAVED_KEYWORDS = 50

const root = process.cwd()
const anchorDir = path.join(root, 'bench/anchor')
const savedDir = path.join(anchorDir, 'saved')

/**
 * Seconds from the spawn of another web process of the build (`npm start`'s command) to its first 2xx /healthz;
 * the median of `n` starts, each stopped before the next.
 */
async function startSeconds(env: NodeJS.ProcessEnv, n = 3) {
  const runs: number[] = []
  for (let i = 0; i < n; i++) {
    const port = await freePort()
    const started = performance.now()
    const child = spawn(process.execPath, webArgs(env), {
      env: { ...env, NODE_ENV: 'production', PORT: String(port), METRICS_PORT: '0' },
      stdio: 'ignore',
    })
    try {
      await waitForHttp(`http://localhost:${port}/healthz`, 120_000)
      runs.push((performance.now() - started) / 1000)
    } finally {
      await stopProcess(child)
    }
  }
  return median(runs)
}

function pin(pid: number, cpu: number) {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * The bench's Postgres (its postmaster and every backend: ones forked later inherit the postmaster's affinity) on
 * `cpu`. Only a local server can be pinned: false when its data directory's postmaster.pid is not readable here.
 */
async function pinPostgres(cpu: number) {
  try {
    const [row] = await db.execute<{ setting: string }>(
      sql`select setting from pg_settings where name = 'data_directory'`,
    )
    const postmaster = Number(fs.readFileSync(path.join(row!.setting, 'postmaster.pid'), 'utf8').split('\n')[0])
    if (!pin(postmaster, cpu)) return false
    const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' }).split('\n')
    for (const child of children.filter(Boolean)) pin(Number(child), cpu)
    return true
  } catch {
    return false
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
/** The server's CPU ms per request over a row's runs (median), or '' when not measured. */
const cpuOf = (runs: LoadResult[]) => {
  const values = runs.map((r) => r.cpuMsPerRequest).filter((v): v is number => v !== undefined && Number.isFinite(v))
  return values.length ? median(values).toFixed(2) : ''
}

/**
 * Postgres statements per request: the app database's xact_commit (every autocommit statement is one transaction)
 * over `n` sequential requests, read from a connection to another database so that the reads are not counted.
 * Backends report their counters when idle, so each reading waits until the figure stops moving. Postgres commits
 * transactions of its own in the background (autovacuum, statistics): each run is paired with an idle period of
 * the same length whose count is subtracted, and the figure is the median of three runs.
 */
async function statementsPerRequest(databaseUrl: string, url: string, cookie: string, n = 30) {
  const target = new URL(databaseUrl)
  const dbName = decodeURIComponent(target.pathname.slice(1))
  target.pathname = '/postgres'
  const sql = postgres(target.toString(), { max: 1, onnotice: () => {} })
  try {
    const read = async () => {
      let last = -1
      for (let i = 0; i < 30; i++) {
        await sql`select pg_stat_clear_snapshot()`
        const [row] = await sql<Array<{ n: string }>>`
          select xact_commit::text as n from pg_stat_database where datname = ${dbName}`
        const value = Number(row!.n)
        if (value === last) return value
        last = value
        await new Promise((r) => setTimeout(r, 1500))
      }
      return last
    }
    const runs: number[] = []
    for (let round = 0; round < 3; round++) {
      const before = await read()
      const started = Date.now()
      for (let i = 0; i < n; i++) await fetch(url, { headers: { Cookie: cookie } }).then((r) => r.text())
      const elapsed = Date.now() - started
      const after = await read()
      await new Promise((r) => setTimeout(r, elapsed))
      const idle = (await read()) - after
      runs.push(Math.max(0, after - before - idle) / n)
    }
    return median(runs)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

export default async function web(ctx: BenchContext) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
  const duration = Number(process.env.BENCH_DURATION ?? 4)
  const cookie = await webBenchUser(SAVED_KEYWORDS)
  const ours = (p: string) => `${ctx.appUrl}${p}`

  // 1. Save Rankwell's HTML of each page for the anchor, then build the anchor.
  fs.rmSync(savedDir, { recursive: true, force: true })
  fs.mkdirSync(savedDir, { recursive: true })
  for (const route of [...PUBLIC_ROUTES, ...SIGNED_IN_ROUTES]) {
    const signedIn = SIGNED_IN_ROUTES.includes(route)
    const res = await fetch(ours(route), { headers: signedIn ? { Cookie: cookie } : {} })
    if (res.status !== 200) throw new Error(`GET ${route}: ${res.status}`)
    fs.writeFileSync(path.join(savedDir, `${encodeURIComponent(route)}.html`), await res.text())
  }
  console.log('building the anchor app (bench/anchor) ...')
  execFileSync(path.join(root, 'node_modules/.bin/remix'), ['vite:build', '--config', 'bench/anchor/vite.config.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  const anchorPort = await freePort()
  const anchor = spawn(process.execPath, ['--import', 'tsx', 'bench/anchor/server.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(anchorPort), ANCHOR_SAVED_DIR: savedDir },
    stdio: 'ignore',
  })
  try {
    const anchorUrl = `http://localhost:${anchorPort}`
    // A saved page (the anchor answers 404 for any other, "/" included when it is not in the run).
    await waitForHttp(`${anchorUrl}${[...PUBLIC_ROUTES, ...SIGNED_IN_ROUTES][0]}`)
    // Before the load and the pinning: the machine as quiet as this run gets it.
    const startTime = await startSeconds(ctx.env)

    const cores = os.availableParallelism()
    const pinned = cores >= 2 && pin(ctx.webPid, 0) && pin(anchor.pid!, 0) && pin(process.pid, 1)
    // Postgres off the servers' core, as in production (a managed database on another machine): left to the
    // scheduler it shared core 0 with Rankwell's server at times (the anchor uses no database), which moved the
    // signed-in ratios by ±0.05 from run to run.
    const databasePinned = pinned && (await pinPostgres(1))
    console.log(
      `${cores} cores; ${pinned ? `servers on core 0, load generator${databasePinned ? ' and Postgres' : ''} on core 1` : 'not pinned'}; ` +
        `${rounds} rounds × ${duration} s per run, 20 connections; load average ${os.loadavg()[0]!.toFixed(1)}`,
    )

    // Warm-up: module loading, connection pools, JIT.
    for (const route of [...PUBLIC_ROUTES, ...SIGNED_IN_ROUTES]) {
      const headers: Record<string, string> = { Cookie: SIGNED_IN_ROUTES.includes(route) ? cookie : BYPASS_COOKIE }
      await load('warm', ours(route), { duration: 1, headers })
      await load('warm', `${anchorUrl}${route}`, { duration: 1 })
    }

    type Mode = 'cached' | 'rendered' | 'signed in'
    type Row = {
      route: string
      enc: 'identity' | 'gzip, br'
      mode: Mode
      a: LoadResult[]
      r: LoadResult[]
      b: LoadResult[]
    }
    const rows: Row[] = []
    const variants = [
      ...PUBLIC_ROUTES.flatMap((route) => [
        { route, enc: 'identity' as const, mode: 'cached' as const },
        { route, enc: 'gzip, br' as const, mode: 'cached' as const },
        { route, enc: 'identity' as const, mode: 'rendered' as const },
      ]),
      ...SIGNED_IN_ROUTES.map((route) => ({ route, enc: 'identity' as const, mode: 'signed in' as const })),
    ]
    for (const v of variants) if (!modes || modes.has(v.mode)) rows.push({ ...v, a: [], r: [], b: [] })
    const cookieOf = (mode: Mode): Record<string, string> =>
      mode === 'signed in' ? { Cookie: cookie } : mode === 'rendered' ? { Cookie: BYPASS_COOKIE } : {}
    for (let round = 0; round < rounds; round++) {
      for (const row of rows) {
        const headers: Record<string, string> = { 'Accept-Encoding': row.enc }
        const anchorPid = anchor.pid
        row.a.push(
          await load(`A ${row.route}`, `${anchorUrl}${row.route}`, { duration, headers, serverPid: anchorPid }),
        )
        // The React anchor for every rendered page (a cached page is not rendered at all).
        if (row.mode !== 'cached')
          row.r.push(
            await load(`R ${row.route}`, `${anchorUrl}${row.route}?react=1`, {
              duration,
              headers,
              serverPid: anchorPid,
            }),
          )
        const own = { ...headers, ...cookieOf(row.mode) }
        row.b.push(await load(`B ${row.route}`, ours(row.route), { duration, headers: own, serverPid: ctx.webPid }))
      }
    }

    console.log(
      '\nmedians of the rounds (A = fair anchor: the saved page as one string; R = React anchor: the same markup as ' +
        'React elements; B = Rankwell); ratio = B req/s ÷ A req/s (the target), B/R = B req/s ÷ R req/s; cpu = the ' +
        "server process's CPU ms per request",
    )
    console.log(
      'route'.padEnd(14) +
        'page'.padEnd(11) +
        'encoding'.padEnd(10) +
        'A req/s'.padStart(9) +
        'R req/s'.padStart(9) +
        'B req/s'.padStart(9) +
        'ratio'.padStart(7) +
        'B/R'.padStart(6) +
        'A p50'.padStart(7) +
        'A p99'.padStart(7) +
        'B p50'.padStart(7) +
        'B p99'.padStart(7) +
        'A cpu'.padStart(7) +
        'R cpu'.padStart(7) +
        'B cpu'.padStart(7) +
        'target'.padStart(8) +
        'errors'.padStart(8),
    )
    const failures: string[] = []
    for (const row of rows) {
      const a = median(row.a.map((r) => r.rps))
      const b = median(row.b.map((r) => r.rps))
      const r = row.r.length ? median(row.r.map((x) => x.rps)) : undefined
      const ratio = a > 0 ? b / a : 0
      const target =
        row.mode === 'signed in'
          ? TARGETS.signedIn
          : row.mode === 'rendered'
            ? TARGETS.rendered
            : row.enc === 'identity'
              ? TARGETS.anonymous
              : TARGETS.anonymousCompressed
      const errors = [...row.a, ...row.r, ...row.b].reduce((n, x) => n + x.errors + x.non2xx, 0)
      if (ratio < target) failures.push(`${row.route} (${row.mode}, ${row.enc}) ${ratio.toFixed(2)} < ${target}`)
      console.log(
        row.route.padEnd(14) +
          row.mode.padEnd(11) +
          (row.enc === 'identity' ? 'none' : 'gzip, br').padEnd(10) +
          String(a).padStart(9) +
          (r === undefined ? '' : String(r)).padStart(9) +
          String(b).padStart(9) +
          ratio.toFixed(2).padStart(7) +
          (r ? (b / r).toFixed(2) : '').padStart(6) +
          String(median(row.a.map((r) => r.p50))).padStart(7) +
          String(median(row.a.map((r) => r.p99))).padStart(7) +
          String(median(row.b.map((r) => r.p50))).padStart(7) +
          String(median(row.b.map((r) => r.p99))).padStart(7) +
          cpuOf(row.a).padStart(7) +
          cpuOf(row.r).padStart(7) +
          cpuOf(row.b).padStart(7) +
          `≥${target}`.padStart(8) +
          String(errors).padStart(8),
      )
    }
    console.log(
      `\nweb process start (built server, spawn → /healthz answers, median of 3): ${startTime.toFixed(2)} s (target < ${TARGETS.startSeconds} s)`,
    )
    if (startTime >= TARGETS.startSeconds) failures.push(`start ${startTime.toFixed(2)} s`)

    // A cached public page: 304 to If-None-Match.
    const first = await fetch(ours('/'))
    const etag = first.headers.get('etag')
    await first.text()
    const revalidated = etag ? await fetch(ours('/'), { headers: { 'If-None-Match': etag } }) : undefined
    console.log(
      `\nGET / with If-None-Match: ${revalidated?.status ?? 'no ETag'} (Cache-Control: ${first.headers.get('cache-control')})`,
    )
    if (revalidated?.status !== 304) failures.push('no 304 for a cached public page')

    console.log('Postgres statements per request (signed in, sequential requests):')
    for (const route of SIGNED_IN_ROUTES) {
      const perRequest = await statementsPerRequest(ctx.env.DATABASE_URL!, ours(route), cookie)
      console.log(`  ${route.padEnd(12)} ${perRequest.toFixed(2)}`)
      if (route === '/keywords' && perRequest > TARGETS.keywordsStatements)
        failures.push(`/keywords: ${perRequest.toFixed(2)} statements per request`)
    }
    console.log(failures.length ? `\ntargets missed: ${failures.join('; ')}` : '\nall targets met')
  } finally {
    await stopProcess(anchor)
  }
}
