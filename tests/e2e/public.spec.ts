import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import postgres from 'postgres'
import { hydrated } from '#tests/setup/browser'
import { clearOfWindowEdge, msUntilSafe } from '#tests/setup/clock'
import { fakeControl, waitForSmtpMessage } from '../fakes/client'

/** Every test is its own visitor: a unique client IP, so rate limits never leak between tests. */
const uniqueIp = () => `10.${crypto.randomInt(0, 255)}.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 254)}`
const unique = (text: string) => `${text} ${crypto.randomBytes(4).toString('hex')}`
const isJs = () => test.info().project.name === 'js'

async function asVisitor(page: Page) {
  const ip = uniqueIp()
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip })
  return ip
}

/** With JavaScript, slow the tool's background submission down a little so that its busy label can be seen. */
async function slowDownFetcher(page: Page, path: string) {
  await page.route(
    (url) => url.pathname === path && url.searchParams.has('_data'),
    async (route) => {
      await new Promise((r) => setTimeout(r, 700))
      await route.continue()
    },
  )
}

const TOOLS = [
  {
    path: '/free-keyword-research',
    fields: { 'Content Topic': 'sustainable fashion' },
    button: 'Generate Keywords',
    busy: 'Analyzing Topic...',
    heading: 'Recommended Keywords',
    promo: 'Automate Your Keyword Research',
    closing: 'Ready to Find Better Keywords?',
    error: 'An error occurred while generating keywords. Please try again later.',
  },
  {
    path: '/free-blog-title',
    fields: { 'Main Keyword': 'email marketing' },
    button: 'Generate Titles',
    busy: 'Generating Titles...',
    heading: 'Suggested Blog Titles',
    promo: 'Automate Your Content Creation',
    closing: 'Ready to Boost Your Content?',
    error: 'An error occurred while generating titles. Please try again later.',
  },
  {
    path: '/free-blog-outline',
    fields: { 'Main Topic': 'starting a podcast' },
    button: 'Generate Outline',
    busy: 'Generating Outline...',
    heading: 'Blog Post Structure',
    promo: 'Save 15+ Hours/Month',
    closing: 'Ready to Streamline Your Writing?',
    error: 'An error occurred while generating outline. Please try later.',
  },
  {
    path: '/free-seo-strategy',
    fields: { 'Business Type': 'online bakery', 'Market Segment': 'families in Austin' },
    button: 'Generate My SEO Strategy',
    busy: 'Generating Your Strategy...',
    heading: 'Your SEO Strategy',
    promo: null,
    closing: 'Ready to Grow Your Organic Traffic?',
    error: 'An error occurred while generating the SEO strategy. Please try again later.',
  },
] as const

async function fillTool(page: Page, tool: (typeof TOOLS)[number], suffix: string) {
  for (const [label, value] of Object.entries(tool.fields)) await page.getByLabel(label).fill(`${value} ${suffix}`)
}

/** The stored page views whose path holds `tag`, read over a connection of the test's own (`sql.end()` closes it). */
function pageViews(tag: string) {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} })
  const stored = async () =>
    (
      await sql<
        Array<{ path: string }>
      >`select path from analytics_events where type = 'pageview' and path like ${`%${tag}%`}`
    ).map((r) => r.path)
  return { sql, stored }
}

test.describe('public site: free tools', () => {
  for (const tool of TOOLS) {
    test(`${tool.path} shows a result, then the promo @no-js`, async ({ page }) => {
      await asVisitor(page)
      await page.goto(tool.path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible()
      await expect(page.getByRole('heading', { name: tool.closing })).toBeVisible()
      await expect(page.getByRole('link', { name: 'Explore All Free Tools' })).toHaveAttribute('href', '/free-tools')

      await fillTool(page, tool, crypto.randomBytes(3).toString('hex'))
      if (isJs()) await slowDownFetcher(page, tool.path)
      await page.getByRole('button', { name: tool.button }).click()
      if (isJs()) await expect(page.getByRole('button', { name: tool.busy })).toBeDisabled()

      const result = page.getByTestId('tool-result')
      await expect(result.getByRole('heading', { name: tool.heading })).toBeVisible()
      if (tool.path === '/free-keyword-research') expect(await result.getByRole('listitem').count()).toBeGreaterThan(2)
      if (tool.path === '/free-blog-title') {
        await expect(result.getByText(/^\d+ characters$/).first()).toBeVisible()
        await expect(result.getByText(/^SEO Score: \d+%$/).first()).toBeVisible()
        // The spec's score and the checklist's advice (at most 60 characters) are explained together (issue 35).
        await expect(result.getByTestId('title-score-note')).toContainText('asks for at most 60 characters')
      }
      if (tool.path === '/free-blog-outline') {
        await expect(result.getByRole('heading', { name: 'Introduction' })).toBeVisible()
        await expect(result.getByRole('heading', { name: 'Conclusion' })).toBeVisible()
      }
      if (tool.promo) {
        await expect(page.getByTestId('promo')).toContainText(tool.promo)
        await expect(page.getByTestId('promo').getByRole('link')).toHaveAttribute('href', '/signup')
      }
      // Submitted values are kept (with JS the form stays; without, the page renders them back).
      const [firstLabel] = Object.keys(tool.fields)
      await expect(page.getByLabel(firstLabel!)).not.toHaveValue('')
    })

    test(`${tool.path} shows the model's failure in a red box @no-js`, async ({ page }) => {
      await asVisitor(page)
      const suffix = unique('fails')
      await fakeControl('openai').enqueue({ status: 400, path: '/chat/completions', bodyIncludes: suffix, times: 1 })
      await page.goto(tool.path)
      await fillTool(page, tool, suffix)
      await page.getByRole('button', { name: tool.button }).click()
      await expect(page.getByTestId('tool-error')).toHaveText(tool.error)
      await expect(page.getByTestId('tool-result')).toHaveCount(0)
    })
  }

  test('the free tools are rate-limited per visitor @no-js', async ({ page, request }) => {
    // The limit counts per clock hour: the ten requests and the refused one must fall in the same hour.
    const wait = msUntilSafe(3600, 90_000)
    if (wait > 0) test.setTimeout(wait + 120_000)
    await clearOfWindowEdge(3600)
    const ip = await asVisitor(page)
    for (let i = 0; i < 10; i++) {
      const res = await request.post('/api/public/generate-keywords', {
        data: { topic: 'rate limit warm-up' },
        headers: { 'X-Forwarded-For': ip },
      })
      expect(res.status()).toBe(200)
    }
    await page.goto('/free-blog-title')
    await page.getByLabel('Main Keyword').fill(unique('limited'))
    await page.getByRole('button', { name: 'Generate Titles' }).click()
    await expect(page.getByTestId('tool-error')).toContainText('You have used the free tools 10 times this hour')
  })

  test('a new submission clears the previous result @no-js', async ({ page }) => {
    await asVisitor(page)
    await page.goto('/free-keyword-research')
    await page.getByLabel('Content Topic').fill(unique('first topic'))
    await page.getByRole('button', { name: 'Generate Keywords' }).click()
    await expect(page.getByTestId('tool-result')).toBeVisible()
    const failing = unique('second topic')
    await fakeControl('openai').enqueue({ status: 400, path: '/chat/completions', bodyIncludes: failing, times: 1 })
    if (isJs()) await slowDownFetcher(page, '/free-keyword-research')
    await page.getByLabel('Content Topic').fill(failing)
    await page.getByRole('button', { name: 'Generate Keywords' }).click()
    // With JS the old result disappears while the new request runs; either way only the error is left.
    if (isJs()) await expect(page.getByRole('button', { name: 'Analyzing Topic...' })).toBeVisible()
    await expect(page.getByTestId('tool-result')).toHaveCount(0)
    await expect(page.getByTestId('tool-error')).toBeVisible()
  })

  test('the tools index links to the four tools', async ({ page }) => {
    await page.goto('/free-tools')
    await expect(page.getByRole('heading', { level: 1, name: 'Free SEO Tools' })).toBeVisible()
    for (const [name, href] of [
      ['SEO Strategy Generator', '/free-seo-strategy'],
      ['Blog Outline Generator', '/free-blog-outline'],
      ['Blog Title Generator', '/free-blog-title'],
      ['Keyword Research Tool', '/free-keyword-research'],
    ]) {
      await expect(page.getByRole('link', { name })).toHaveAttribute('href', href)
    }
    await page.getByRole('link', { name: 'Blog Title Generator' }).click()
    await expect(page).toHaveURL(/\/free-blog-title$/)
  })
})

test.describe('public site: ebook', () => {
  for (const which of ['first', 'second'] as const) {
    test(`the ${which} ebook form e-mails the ebook link @no-js`, async ({ page }) => {
      await asVisitor(page)
      const email = `ebook-${crypto.randomBytes(5).toString('hex')}@example.com`
      await page.goto('/seo-guide-ebook')
      const forms = page.getByRole('form', { name: /Get the ebook/ })
      await expect(forms).toHaveCount(2)
      const form = which === 'first' ? forms.first() : forms.last()
      await form.getByLabel('Email address').fill(email)
      await form.getByRole('button', { name: 'Get My Free Ebook' }).click()
      await expect(page.getByTestId('ebook-message')).toHaveText('Success! Check your email for the ebook link.')
      const mail = await waitForSmtpMessage({ to: email })
      const link = /https?:\/\/\S+\/ebook/.exec(mail.text)?.[0]
      expect(link).toBeTruthy()
      await page.goto(link!)
      await expect(page.getByRole('heading', { level: 1, name: 'The Founder’s Guide to SEO' })).toBeVisible()
    })
  }
})

test.describe('public site: landing page', () => {
  test('has every section, and its calls to action lead to sign-up', async ({ page }) => {
    await asVisitor(page)
    const origin = new URL(test.info().project.use.baseURL!).origin
    const foreign: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== origin && !r.url().startsWith('data:')) foreign.push(r.url())
    })
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Grow organic traffic without becoming an SEO expert',
    )
    for (const heading of [
      'SEO works. Doing it yourself doesn’t scale.',
      'From topic to published post in minutes',
      'Everything you need to rank, nothing you don’t',
      'Three steps to organic growth',
      'Simple pricing that pays for itself',
      'Less time writing, more time building',
      'Questions founders ask us',
      'Start ranking this month, not next year',
    ]) {
      await expect(page.getByRole('heading', { name: heading })).toBeVisible()
    }
    await expect(page.getByText('80%', { exact: true })).toBeVisible()
    await expect(page.getByText('time saved on SEO content')).toBeVisible()

    const trial = page.getByTestId('plan-Free Trial')
    await expect(trial).toContainText('$0.00')
    await expect(trial).toContainText('10 keyword analyses')
    const premium = page.getByTestId('plan-Premium')
    await expect(premium).toContainText('$49.90')
    await expect(premium).toContainText('Most Popular')
    await expect(premium).toContainText('500 keyword analyses a month')
    await expect(premium).not.toContainText(/unlimited/i)
    for (const plan of [trial, premium]) await expect(plan.getByRole('link')).toHaveAttribute('href', '/signup')

    const footer = page.getByRole('contentinfo')
    await expect(footer.getByRole('link', { name: /Contact/ })).toHaveAttribute('href', /^mailto:/)
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Rankwell`)

    // The intro video loads nothing until asked to.
    const play = page.getByTestId('intro-video-play')
    await expect(play).toHaveAttribute('href', '/intro.webm')
    await expect(page.locator('video')).toHaveCount(0)
    if (isJs()) {
      await play.click()
      await expect(page.locator('video source')).toHaveAttribute('src', '/intro.webm')
    }
    expect(foreign).toEqual([])

    await page.getByRole('link', { name: 'Start Your Free Trial' }).first().click()
    await expect(page).toHaveURL(/\/signup$/)
  })

  test('the navigation bar links to the ebook, sign-in and sign-up', async ({ page }) => {
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Free Tools' })).toHaveAttribute('href', '/free-tools')
    await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog/')
    await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin')
    await expect(nav.getByRole('link', { name: 'Try Free' })).toHaveAttribute('href', '/signup')
    await nav.getByRole('link', { name: 'Free SEO Ebook' }).click()
    await expect(page).toHaveURL(/\/seo-guide-ebook$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  })

  test('the mobile menu toggles the same links @no-js', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 })
    await page.goto('/')
    const menu = page.locator('[data-mobile-menu]')
    await expect(menu.getByRole('link', { name: 'Free SEO Ebook' })).toBeHidden()
    await menu.locator('summary').click()
    for (const name of ['Home', 'Free Tools', 'Blog', 'Free SEO Ebook', 'Sign In', 'Try Free']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible()
    }
    await menu.getByRole('link', { name: 'Free SEO Ebook' }).click()
    await expect(page).toHaveURL(/\/seo-guide-ebook$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // The menu is closed again on the new page (a fresh page without JS; closed after navigating with JS).
    await expect(menu.getByRole('link', { name: 'Try Free' })).toBeHidden()
    // No horizontal scrolling at 360 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  })

  test('counts a page view of the blog, which runs no script, with JavaScript on and off @no-js', async ({ page }) => {
    // With JavaScript it also loads the home page and navigates in the app: ~35 s on a busy machine.
    test.slow()
    const tag = crypto.randomBytes(4).toString('hex')
    const { sql, stored } = pageViews(tag)
    try {
      await page.goto(`/blog/choose-your-first-20-keywords?ref=${tag}`)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect.poll(stored).toEqual([`/blog/choose-your-first-20-keywords?ref=${tag}`])
      // The page never hydrates (no app script on it), and its links are plain links to the next page.
      expect(await page.locator('html[data-hydrated]').count()).toBe(0)
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Blog' }).click()
      await expect(page).toHaveURL(/\/blog$/)
      await expect(page.getByRole('link', { name: /How to Choose Your First 20 Keywords/ }).first()).toBeVisible()
      if (isJs()) {
        // Reached by a client-side navigation from a running app, the view is counted once (by the app, no image).
        await page.goto('/')
        await hydrated(page)
        const to = `/blog/search-intent-for-founders?ref=${tag}`
        await page.evaluate(
          (path) =>
            (window as unknown as { __remixRouter: { navigate: (to: string) => void } }).__remixRouter.navigate(path),
          to,
        )
        await expect(page.getByRole('heading', { level: 1 })).toContainText('Search Intent')
        await expect.poll(stored).toContain(to)
        await page.waitForLoadState('networkidle')
        expect((await stored()).filter((p) => p === to)).toHaveLength(1)
        expect(await page.locator('img[src^="/api/events/view"]').count()).toBe(0)
      }
    } finally {
      await sql.end()
    }
  })

  test('sends a page view to our own analytics on each navigation (with JavaScript only) @no-js', async ({ page }) => {
    const tag = crypto.randomBytes(4).toString('hex')
    const { sql, stored } = pageViews(tag)
    try {
      await page.goto(`/?utm_source=${tag}`)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      if (isJs()) {
        await expect.poll(stored).toEqual([`/?utm_source=${tag}`])
        // A client-side navigation (no page load) is a location change too.
        await page.evaluate(
          (to) =>
            (window as unknown as { __remixRouter: { navigate: (to: string) => void } }).__remixRouter.navigate(to),
          `/free-tools?ref=${tag}`,
        )
        await expect(page).toHaveURL(new RegExp(`/free-tools\\?ref=${tag}$`))
        await expect.poll(stored).toContain(`/free-tools?ref=${tag}`)
      } else {
        await page.goto(`/free-tools?ref=${tag}`)
        await page.waitForLoadState('networkidle')
        expect(await stored()).toEqual([])
      }
    } finally {
      await sql.end()
    }
  })
})
