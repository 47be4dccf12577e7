import fs from 'node:fs'
import path from 'node:path'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
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
/**
 * The files that take longest (a clean run's times, about 15 s and more), longest first. Workers take the next file as
 * they become free: with the long ones first and the short ones filling in at the end, the workers finish together.
 * Vitest's own order uses the times of the previous run on this machine (node_modules/.vite) and the file sizes on a
 * clean clone, so a long file could start last and keep one worker busy while the others wait.
 */
const SLOWEST_FIRST = [
  'tests/integration/operations.test.ts',
  'tests/integration/hardening.test.ts',
  'tests/integration/keywords.test.ts',
  'tests/integration/publishing.test.ts',
  'tests/integration/account-security.test.ts',
  'tests/integration/webhooks.test.ts',
  'tests/integration/billing-trust.test.ts',
  'tests/integration/credentials.test.ts',
  'tests/integration/posts.test.ts',
  'tests/integration/accounts.test.ts',
  'tests/integration/honest-screens.test.ts',
  'tests/integration/platform.test.ts',
  'tests/integration/public.test.ts',
  'tests/integration/failures.test.ts',
  'tests/integration/fuzz.test.ts',
  'tests/integration/publishing-ghost.test.ts',
]

/** The serial group after the parallel one (groupOrder); within a group the slowest files first, then the larger. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const root = this.ctx.config.root
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.indexOf(path.relative(root, file.moduleId))
      return index === -1 ? SLOWEST_FIRST.length : index
    }
    const size = (file: TestSpecification) => fs.statSync(file.moduleId).size
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        size(b) - size(a),
    )
  }
}

const workers = Number(process.env.RANKWELL_INTEGRATION_WORKERS ?? '1')

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['tests/setup/stack.ts'],
    sequence: { sequencer: SlowestFirst },
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
