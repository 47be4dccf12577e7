import { defineConfig, devices } from '@playwright/test'

const executablePath = process.env.CHROMIUM_PATH || undefined

// Started by scripts/test.ts, which runs the app and provides BASE_URL.
export default defineConfig({
  testDir: './tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // PLAYWRIGHT_WORKERS: how many browsers test at once (default 2, the CI machine's cores).
  workers: Number(process.env.PLAYWRIGHT_WORKERS ?? 2),
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: process.env.BASE_URL ?? 'http://localhost:3000',
    // A failed test keeps its trace: actions, DOM snapshots, network and console. Without the screencast: encoding
    // a frame per paint for every test took a good share of a 2-core machine, for the rare failure that needs it.
    // PLAYWRIGHT_TRACE=off records none (to time the suite without tracing).
    trace:
      process.env.PLAYWRIGHT_TRACE === 'off'
        ? 'off'
        : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // Every test runs with JavaScript.
    { name: 'js', use: { ...devices['Desktop Chrome'], javaScriptEnabled: true } },
    // Without JavaScript, only the tests tagged '@no-js': those of progressive enhancement, where the browser without
    // the app's scripts does something else than with them. The rule for tagging a test:
    // - tag it when it submits a form (without JavaScript a document POST and its redirect or re-rendered page; with
    //   it a fetcher or the router), opens a dialog, a menu or a tooltip, follows a link that JavaScript turns into
    //   something else (Load more, Show more, a Delete that opens a dialog), waits for a page to update itself,
    //   branches on the project (`withJs()`), or checks a screen's rendering (layout, fit, axe) where markup depends
    //   on hydration (`useHydrated`); every screen's phone-width fit and axe checks (screens.spec.ts) are tagged, so
    //   the server's HTML of every screen is seen without JavaScript;
    // - leave it untagged when it only loads pages and reads what the server rendered, or follows plain links: the
    //   HTML is the same with JavaScript off, and the js project checks it (before and after hydration).
    // failures.spec.ts is about requests made by the page's JavaScript (issue 12): none of it is tagged.
    {
      name: 'no-js',
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: false },
      grep: /@no-js/,
    },
  ],
})
