import { defineConfig, devices } from '@playwright/test'

const executablePath = process.env.CHROMIUM_PATH || undefined

// Started by scripts/test.ts, which runs the app and provides BASE_URL.
export default defineConfig({
  testDir: './tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: process.env.BASE_URL ?? 'http://localhost:3000',
    trace: 'retain-on-failure',
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
    { name: 'js', use: { ...devices['Desktop Chrome'], javaScriptEnabled: true } },
    // failures.spec.ts is about requests made by the page's JavaScript (issue 12), so it has no no-js half.
    {
      name: 'no-js',
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: false },
      testIgnore: /failures\.spec\.ts/,
    },
  ],
})
