// Records the landing page's intro video (public/intro.webm) and its captions (public/intro.vtt) from the real app:
// the production build on throwaway Postgres and Redis with the local fakes of every provider (as `npm test` runs it),
// the web process and the worker, and the demo account. Chromium walks from a keyword search to a post published on
// a (fake) Ghost blog; the DevTools screencast is encoded with ffmpeg (VP9, no sound). Everything it started is
// stopped at the end. The captions are the scenes the page lists (SCENES in intro-video.tsx, checked by its test).
// Usage: npx tsx scripts/record-intro.ts [--no-build]   (--no-build reuses build/; needs ffmpeg and Chromium)
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Page } from '@playwright/test'
import postgres from 'postgres'
import { SCENES as INTRO_SCENES } from '../app/features/marketing/components/intro-video'
import { DEMO } from './lib/seed'
import {
  appEnv,
  buildApp,
  provisionServices,
  runScript,
  startWeb,
  startWorker,
  waitForApp,
  type Cleanups,
} from './lib/app'
import { ensureChromium, log, run } from './lib/services'

const cleanups: Cleanups = []
const outDir = path.join(process.cwd(), 'public')
const frames: Array<{ file: string; at: number }> = []
const cues: Array<{ start: number; end?: number; text: string }> = []
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rankwell-intro-'))
cleanups.push(async () => fs.rmSync(work, { recursive: true, force: true }))
let t0 = 0
let base = ''

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const now = () => (Date.now() - t0) / 1000

/** The caption box, drawn over the page. Re-drawn after every navigation (a new document has none). */
async function drawCaption(page: Page, text: string) {
  await page
    .evaluate((t) => {
      let el = document.getElementById('intro-caption')
      if (!el) {
        el = document.createElement('div')
        el.id = 'intro-caption'
        el.setAttribute(
          'style',
          'position:fixed;left:50%;bottom:28px;transform:translateX(-50%);z-index:99999;background:rgba(15,23,42,.92);' +
            'color:#fff;font:600 26px/1.3 system-ui,sans-serif;padding:14px 26px;border-radius:14px;max-width:82%;' +
            'text-align:center;box-shadow:0 8px 30px rgba(0,0,0,.3);pointer-events:none',
        )
        document.body.appendChild(el)
      }
      el.textContent = t
    }, text)
    .catch(() => {})
}

/** Starts the scene `index` of INTRO_SCENES: its caption from now until the next scene starts. */
async function scene(page: Page, index: number) {
  const text = INTRO_SCENES[index]!
  const last = cues[cues.length - 1]
  if (last && last.end === undefined) last.end = now()
  cues.push({ start: now(), text })
  await drawCaption(page, text)
}

/** Goes to a page (a full load) and puts the current caption back on it once it has hydrated. */
async function open(page: Page, url: string) {
  await page.goto(base + url)
  await settle(page)
}

async function settle(page: Page) {
  await page.waitForLoadState('load')
  await sleep(500)
  const current = cues[cues.length - 1]
  if (current) await drawCaption(page, current.text)
}

async function scrollTo(page: Page, selector: string, offset = -90) {
  await page.evaluate(
    ([sel, off]) => {
      const el = document.querySelector(sel as string)
      if (el)
        window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY + (off as number), behavior: 'smooth' })
    },
    [selector, offset],
  )
  await sleep(1200)
}

async function type(page: Page, label: string, value: string, delay = 45) {
  const field = page.getByLabel(label, { exact: true })
  await field.click()
  await field.fill('')
  await field.pressSequentially(value, { delay })
}

/** The app with the fakes, the demo account (e-mail verified, so no banner asks for it), signed in in Chromium. */
async function startApp() {
  const runId = `intro${Date.now().toString(36)}`
  const services = await provisionServices({ purpose: 'intro', runId, cleanups })
  const env = appEnv(services, {
    SESSION_SECRET: `intro-${runId}`,
    ENCRYPTION_KEY: `intro-encryption-key-${runId}-0123456789abcdef`,
  })
  if (!process.argv.includes('--no-build') || !fs.existsSync(path.join('build', 'worker', 'index.js'))) {
    log('building the app…')
    if ((await buildApp(env)) !== 0) throw new Error('build failed')
  }
  startWeb(env, { quiet: true, cleanups })
  startWorker(env, { quiet: true, cleanups })
  await waitForApp(env)
  if ((await run(path.join('node_modules', '.bin', 'tsx'), ['scripts/seed.ts'], env)) !== 0)
    throw new Error('seeding the demo account failed')
  const sql = postgres(services.databaseUrl, { max: 1, onnotice: () => {} })
  await sql`update users set email_verified_at = now() where email = ${DEMO.email}`
  await sql.end()
  const ghost = services.fakes.fakes.ghost
  if (!ghost) throw new Error('the Ghost fake did not start')
  return { appUrl: services.appUrl, ghost }
}

async function record() {
  const { appUrl, ghost } = await startApp()
  base = appUrl
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
  })
  cleanups.push(() => browser.close())
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 })
  const page = await context.newPage()
  page.setDefaultTimeout(90_000)

  // Signed in before the recording starts.
  await page.goto(base + '/signin')
  await page.getByLabel('Email', { exact: true }).fill(DEMO.email)
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await page.waitForURL(/\/(keywords|profile|onboarding)/)
  await page.goto(base + '/keywords')
  await settle(page)

  const cdp = await context.newCDPSession(page)
  cdp.on('Page.screencastFrame', (frame: { data: string; sessionId: number }) => {
    const file = path.join(work, `f${String(frames.length).padStart(5, '0')}.jpg`)
    fs.writeFileSync(file, Buffer.from(frame.data, 'base64'))
    frames.push({ file, at: Date.now() })
    void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {})
  })
  t0 = Date.now()
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 85, maxWidth: 1280, maxHeight: 720 })

  // 1. A keyword search.
  await scene(page, 0)
  await sleep(900)
  await type(page, 'Keyword/Topic', 'meal prep for busy parents', 35)
  await sleep(300)
  await page.getByRole('button', { name: 'Find Keywords' }).click()
  const rows = page.locator('tbody tr[data-keyword]')
  await rows.first().waitFor()
  await settle(page)
  await scrollTo(page, 'table')
  await sleep(1500)

  // 2. Create Post on one of the ideas.
  await scene(page, 1)
  await sleep(800)
  const row = rows.first()
  const keyword = await row.getAttribute('data-keyword')
  await row.getByRole('button', { name: 'Create Post' }).click()
  await page.getByText('Your post is being generated!').first().waitFor()
  await sleep(1800)

  // 3. Connect the blog once (while the post is written).
  await scene(page, 2)
  await open(page, '/settings/publishing')
  await sleep(500)
  await page.getByRole('link', { name: 'Add Ghost' }).click()
  await settle(page)
  await type(page, 'Name (optional)', 'Company blog', 30)
  await page.getByLabel('Admin API URL', { exact: true }).fill(ghost.url)
  await page.getByLabel('Admin API key', { exact: true }).fill(ghost.adminApiKey)
  await sleep(300)
  await page.getByRole('button', { name: 'Test connection and save' }).click()
  await page.getByTestId('destination-list').getByText('Company blog').first().waitFor()
  await settle(page)
  await sleep(1500)

  // 4. The written post.
  await open(page, '/blogposts')
  const card = page.locator('[data-testid="post-card"]').first()
  for (let i = 0; i < 60 && (await card.locator('[data-post-status]').count()) > 0; i++) {
    await sleep(1000)
    if (i % 5 === 4) await open(page, '/blogposts')
  }
  await scene(page, 3)
  await sleep(1000)
  await card.getByRole('link', { name: /^Read More/ }).click()
  await page.waitForURL(/\/blogpost\/[^/]+$/)
  await settle(page)
  await sleep(1000)
  for (const y of [420, 420, 420, 420]) {
    await page.mouse.wheel(0, y)
    await sleep(700)
  }
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'smooth' }))
  await sleep(1200)

  // 5. Publish it.
  await scene(page, 4)
  await page.getByRole('link', { name: 'Publish to…' }).click()
  await page.waitForURL(/\/publish$/)
  await settle(page)
  await sleep(1000)
  await page.getByRole('button', { name: 'Publish', exact: true }).click()

  // 6. Published.
  await page.getByTestId('publication-status').filter({ hasText: 'Published' }).first().waitFor({ timeout: 90_000 })
  await settle(page)
  await scene(page, 5)
  await scrollTo(page, '[data-testid="publication-status"]', -200)
  await sleep(2500)

  // 7. Auto Pilot, and the trial.
  await open(page, '/autopilot')
  await scene(page, 6)
  await sleep(3000)
  await open(page, '/')
  await scene(page, 7)
  await sleep(3000)
  cues[cues.length - 1]!.end = now()
  const end = Date.now()
  await cdp.send('Page.stopScreencast')
  if (!ghost.posts().some((p) => p.status === 'published')) throw new Error('the post did not reach the Ghost fake')
  log(`recorded '${keyword}' from search to a published post`)
  return end
}

function encode(end: number) {
  // Frames arrive when the screen changes: each one lasts until the next (ffmpeg concat with durations).
  const list = frames.map(
    (f, i) => `file '${f.file}'\nduration ${(((frames[i + 1]?.at ?? end) - f.at) / 1000).toFixed(3)}`,
  )
  list.push(`file '${frames[frames.length - 1]!.file}'`)
  fs.writeFileSync(path.join(work, 'frames.txt'), list.join('\n'))
  // The frames are anchored to the recording's start (the first frame may come a moment after it).
  const offset = frames[0] ? Math.max(0, (frames[0].at - t0) / 1000) : 0
  const encoded = spawnSync(
    'ffmpeg',
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      path.join(work, 'frames.txt'),
      '-vf',
      `tpad=start_duration=${offset.toFixed(3)}:start_mode=clone,fps=15,format=yuv420p`,
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '0',
      '-crf',
      '42',
      '-row-mt',
      '1',
      '-deadline',
      'good',
      '-cpu-used',
      '4',
      '-an',
      path.join(outDir, 'intro.webm'),
    ],
    { stdio: 'inherit' },
  )
  if (encoded.status !== 0) throw new Error('ffmpeg failed')

  const stamp = (s: number) => {
    const ms = Math.round(s * 1000)
    const h = Math.floor(ms / 3_600_000)
    const m = Math.floor((ms % 3_600_000) / 60_000)
    const sec = ((ms % 60_000) / 1000).toFixed(3).padStart(6, '0')
    return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec}`
  }
  const vtt = [
    'WEBVTT',
    '',
    ...cues.map((c, i) => `${i + 1}\n${stamp(c.start)} --> ${stamp(c.end ?? now())}\n${c.text}\n`),
  ].join('\n')
  fs.writeFileSync(path.join(outDir, 'intro.vtt'), vtt)
  const seconds = Math.round((end - t0) / 1000)
  log(
    `public/intro.webm: ${seconds} s, ${(fs.statSync(path.join(outDir, 'intro.webm')).size / 1024).toFixed(0)} KiB; captions in public/intro.vtt. ` +
      `Set INTRO_VIDEO.duration in intro-video.tsx to ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}.`,
  )
}

await runScript(cleanups, async () => {
  const end = await record()
  encode(end)
})
