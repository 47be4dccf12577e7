import { defineConfig } from 'vitest/config'
import tsconfigPaths from 'vite-tsconfig-paths'

// Integration tests: HTTP against the running app, real Postgres and Redis, fakes over loopback.
// Started by scripts/test.ts, which provides the environment and one app stack per worker (scripts/lib/stacks.ts):
// files run in parallel, each worker on its own database, Redis, fakes, web process and worker (tests/setup/stack.ts).
// The outage and zero-downtime files stop and start processes and time their answers, and the forgot-password timing
// compares answer times: they run afterwards, alone.
const SERIAL = [
  'tests/integration/outages.test.ts',
  'tests/integration/zero-downtime.test.ts',
  'tests/integration/forgot-password-timing.test.ts',
]
const workers = Number(process.env.RANKWELL_INTEGRATION_WORKERS ?? '1')

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['tests/setup/stack.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['tests/integration/**/*.test.ts', 'tests/fakes/**/*.test.ts'],
          exclude: SERIAL,
          maxWorkers: workers,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'serial', include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
