// `npm run lighthouse`: builds the app, starts the production server on fresh Postgres and Redis (with local fakes
// for the providers), runs Lighthouse in Chromium on the public pages and prints the four category scores per page,
// plus every audit that did not pass. Target: 100 everywhere, no page below 95.
// Usage: npm run lighthouse [-- --preset=mobile|desktop|both] [-- --page=/free-tools] [-- --serve]
//   --serve  only start the server and wait (for checking pages by hand); Ctrl-C stops it.
import fs from 'node:fs'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig, type Flags } from 'lighthouse'
import { appEnv, buildApp, provisionServices, runScript, startWeb, waitForApp, type Cleanups } from './lib/app'
import { ensureChromium, log, tmpDir } from './lib/services'

const PAGES = [
  '/',
  '/pricing',
  '/free-tools',
  '/free-keyword-research',
  '/free-blog-title',
  '/free-blog-outline',
  '/free-seo-strategy',
  '/blog',
  '/blog/choose-your-first-20-keywords',
]
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const LABELS: Record<(typeof CATEGORIES)[number], string> = {
  performance: 'Perf',
  accessibility: 'A11y',
  'best-practices': 'Best',
  seo: 'SEO',
}

const argv = process.argv.slice(2)
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const presetArg = option('preset') ?? 'both'
const presets =
  presetArg === 'both' ? (['mobile', 'desktop'] as const) : ([presetArg === 'desktop' ? 'desktop' : 'mobile'] as const)
const pages = argv.filter((a) => a.startsWith('--page=')).map((a) => a.slice(7))
const serveOnly = argv.includes('--serve')
const cleanups: Cleanups = []

type Row = { preset: string; page: string; scores: Record<string, number | null>; failing: string[]; error?: string }

async function startApp() {
  const runId = `lh${Date.now().toString(36)}`
  // Its own build folder, so a concurrent `npm test` or `npm run bench` build is never overwritten.
  const services = await provisionServices({ purpose: 'lighthouse', runId, cleanups, ownBuildDir: true })
  // Production mode requires both secrets (app/platform/env.server.ts).
  const env = appEnv(services, {
    SESSION_SECRET: `lighthouse-${runId}`,
    ENCRYPTION_KEY: `lighthouse-encryption-key-${runId}-0123456789abcdef`,
  })
  if ((await buildApp(env)) !== 0) throw new Error('build failed')
  startWeb(env, { quiet: !process.env.LIGHTHOUSE_VERBOSE, cleanups })
  await waitForApp(env)
  return services.appUrl
}

async function audit(
  appUrl: string,
  chromePath: string | undefined,
  preset: 'mobile' | 'desktop',
  page: string,
  reports: string,
): Promise<Row> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  })
  try {
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] }
    // The page is requested once first, as visitors before Lighthouse would have: a public page is then answered from
    // the server's page cache (or a CDN's), as in production, instead of by the first render of a cold process
    // (about 250 ms here, which the simulated mobile network then multiplies).
    await fetch(`${appUrl}${page}`).then((res) => res.arrayBuffer())
    const result = await lighthouse(`${appUrl}${page}`, flags, preset === 'desktop' ? desktopConfig : undefined)
    if (!result) throw new Error(`Lighthouse returned no result for ${page}`)
    const { lhr } = result
    const error = lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : undefined
    const name = `${preset}-${page === '/' ? 'home' : page.slice(1).replace(/\W+/g, '-')}.json`
    fs.writeFileSync(path.join(reports, name), typeof result.report === 'string' ? result.report : JSON.stringify(lhr))
    const scores: Record<string, number | null> = {}
    for (const c of CATEGORIES) {
      const score = lhr.categories[c]?.score
      scores[c] = typeof score === 'number' ? Math.round(score * 100) : null
    }
    const failing: string[] = []
    for (const c of CATEGORIES) {
      for (const ref of lhr.categories[c]?.auditRefs ?? []) {
        const a = lhr.audits[ref.id]
        if (!a || ref.weight === 0) continue
        if (
          a.scoreDisplayMode === 'notApplicable' ||
          a.scoreDisplayMode === 'manual' ||
          a.scoreDisplayMode === 'informative'
        )
          continue
        if (typeof a.score === 'number' && a.score < 1) {
          failing.push(
            `${LABELS[c]}: ${a.id} (${Math.round(a.score * 100)})${a.displayValue ? ` ${a.displayValue}` : ''}`,
          )
        }
      }
    }
    return { preset, page, scores, failing, error }
  } finally {
    await chrome.kill()
  }
}

async function main() {
  const appUrl = await startApp()
  if (serveOnly) {
    log(`serving the production build on ${appUrl} (Ctrl-C stops it)`)
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve())
      process.once('SIGTERM', () => resolve())
    })
  } else {
    const chromePath = ensureChromium()
    const reports = tmpDir('rankwell-lighthouse-reports-')
    const rows: Row[] = []
    for (const preset of presets) {
      for (const page of pages.length ? pages : PAGES) {
        log(`Lighthouse (${preset}) ${page}`)
        // A run that could not record its trace (NO_NAVSTART and the like, under heavy machine load) is retried.
        let row = await audit(appUrl, chromePath, preset, page, reports)
        for (
          let attempt = 2;
          attempt <= 3 && (row.error || CATEGORIES.some((c) => row.scores[c] === null));
          attempt++
        ) {
          log(`  ${row.error ?? 'a category has no score'}; running it again (attempt ${attempt})`)
          row = await audit(appUrl, chromePath, preset, page, reports)
        }
        rows.push(row)
      }
    }
    const pad = (s: string, n: number) => s.padEnd(n)
    const width = Math.max(...rows.map((r) => r.page.length), 4) + 2
    console.log(`\n${pad('preset', 9)}${pad('page', width)}${CATEGORIES.map((c) => pad(LABELS[c], 6)).join('')}`)
    for (const r of rows) {
      console.log(
        `${pad(r.preset, 9)}${pad(r.page, width)}${CATEGORIES.map((c) => pad(String(r.scores[c] ?? '–'), 6)).join('')}`,
      )
    }
    const notPassed = rows.filter((r) => r.failing.length)
    if (notPassed.length) {
      console.log('\nAudits that did not pass:')
      for (const r of notPassed)
        console.log(`  ${r.preset} ${r.page}\n${r.failing.map((f) => `    - ${f}`).join('\n')}`)
    }
    const lowest = Math.min(...rows.flatMap((r) => CATEGORIES.map((c) => r.scores[c] ?? 0)))
    console.log(`\nlowest score: ${lowest}${lowest < 95 ? ' (below the target of 95)' : ''}; full reports: ${reports}`)
    if (lowest < 95) process.exitCode = 1
  }
}

await runScript(cleanups, main)
