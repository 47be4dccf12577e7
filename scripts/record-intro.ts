// Records the landing page's intro video (public/intro.webm) and its captions (public/intro.vtt) from a running
// instance of the app: a scripted walk through the landing page and the free tools in Chromium, captured with the
// DevTools screencast and encoded with ffmpeg (VP9). Re-record after UI changes, ideally against an instance with a
// real OPENAI_API_KEY so the tools show real answers.
// Usage: npx tsx scripts/record-intro.ts http://localhost:3000   (needs ffmpeg and Chromium: apt-get install ffmpeg chromium)
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Page } from '@playwright/test'

const base = (process.argv[2] ?? 'http://localhost:3000').replace(/\/+$/, '')
const outDir = path.join(process.cwd(), 'public')
const frames: Array<{ file: string; at: number }> = []
const cues: Array<{ start: number; end?: number; text: string }> = []
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rankwell-intro-'))
let t0 = 0

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const now = () => (Date.now() - t0) / 1000

async function caption(page: Page, text: string) {
  const last = cues[cues.length - 1]
  if (last && last.end === undefined) last.end = now()
  cues.push({ start: now(), text })
  await page.evaluate((t) => {
    let el = document.getElementById('intro-caption')
    if (!el) {
      el = document.createElement('div')
      el.id = 'intro-caption'
      el.setAttribute(
        'style',
        'position:fixed;left:50%;bottom:28px;transform:translateX(-50%);z-index:9999;background:rgba(15,23,42,.92);color:#fff;' +
          'font:600 26px/1.3 system-ui,sans-serif;padding:14px 26px;border-radius:14px;max-width:80%;text-align:center;box-shadow:0 8px 30px rgba(0,0,0,.3)',
      )
      document.body.appendChild(el)
    }
    el.textContent = t
  }, text)
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
  await sleep(1400)
}

async function runTool(page: Page, url: string, title: string, fields: Record<string, string>, button: string) {
  await page.goto(base + url)
  await caption(page, title)
  await sleep(1200)
  for (const [label, value] of Object.entries(fields)) {
    await page.getByLabel(label).click()
    await page.getByLabel(label).pressSequentially(value, { delay: 55 })
  }
  await sleep(400)
  await page.getByRole('button', { name: button }).click()
  await page.getByTestId('tool-result').waitFor({ timeout: 60_000 })
  await sleep(600)
  await scrollTo(page, '[data-testid="tool-result"]')
  await sleep(2600)
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
})
const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 })
const page = await context.newPage()
await page.goto(base + '/')
const cdp = await context.newCDPSession(page)
cdp.on('Page.screencastFrame', (frame: { data: string; sessionId: number }) => {
  const file = path.join(work, `f${String(frames.length).padStart(5, '0')}.jpg`)
  fs.writeFileSync(file, Buffer.from(frame.data, 'base64'))
  frames.push({ file, at: Date.now() })
  void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {})
})
t0 = Date.now()
await cdp.send('Page.startScreencast', {
  format: 'jpeg',
  quality: 88,
  maxWidth: 1280,
  maxHeight: 720,
  everyNthFrame: 1,
})

await caption(page, 'Rankwell: SEO on Auto Pilot for founders')
await sleep(3000)
await scrollTo(page, '#steps-title')
await caption(page, 'Pick a keyword, generate the post with AI, grow')
await sleep(3000)

await runTool(
  page,
  '/free-keyword-research',
  '1. Find keywords a young site can rank for',
  { 'Content Topic': 'meal prep for busy parents' },
  'Generate Keywords',
)
await runTool(
  page,
  '/free-blog-title',
  '2. Pick a title that uses the space search results give it',
  { 'Main Keyword': 'meal prep for busy parents' },
  'Generate Titles',
)
await runTool(
  page,
  '/free-blog-outline',
  '3. Get the structure of the post',
  { 'Main Topic': 'meal prep for busy parents' },
  'Generate Outline',
)
await runTool(
  page,
  '/free-seo-strategy',
  '4. Plan your next 90 days of SEO',
  { 'Business Type': 'meal kit delivery', 'Market Segment': 'busy parents in Chicago' },
  'Generate My SEO Strategy',
)

await page.goto(base + '/')
await caption(page, 'Or let Auto Pilot research, write and publish every post for you')
await scrollTo(page, '#pricing-title')
await sleep(3200)
await caption(page, 'Start your free 7-day trial. No credit card required.')
await sleep(3200)
cues[cues.length - 1]!.end = now()
const end = Date.now()
await cdp.send('Page.stopScreencast')
await browser.close()

// Frames arrive when the screen changes: each one lasts until the next (ffmpeg concat with durations).
const list = frames.map(
  (f, i) => `file '${f.file}'\nduration ${(((frames[i + 1]?.at ?? end) - f.at) / 1000).toFixed(3)}`,
)
list.push(`file '${frames[frames.length - 1]!.file}'`)
fs.writeFileSync(path.join(work, 'frames.txt'), list.join('\n'))
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
    'fps=24,format=yuv420p',
    '-c:v',
    'libvpx-vp9',
    '-b:v',
    '0',
    '-crf',
    '40',
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
fs.rmSync(work, { recursive: true, force: true })
const seconds = Math.round((end - t0) / 1000)
console.log(
  `public/intro.webm: ${seconds} s, ${(fs.statSync(path.join(outDir, 'intro.webm')).size / 1024).toFixed(0)} KiB; captions in public/intro.vtt`,
)
