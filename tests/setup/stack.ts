/**
 * Integration test files run in parallel, each vitest worker on an app stack of its own (scripts/lib/stacks.ts): this
 * setup file, run before every test file, points the file's process at its worker's stack (database, Redis, fakes,
 * web process and worker) before any module reads the environment. VITEST_POOL_ID 1 keeps the run's own app.
 */
const stacks = JSON.parse(process.env.RANKWELL_TEST_STACKS ?? '[]') as Array<Record<string, string>>
const poolId = Number(process.env.VITEST_POOL_ID ?? '1')
if (poolId > 1) {
  const changes = stacks[poolId - 2]
  // Two workers on one app would see each other's requests, jobs and fake settings.
  if (!changes)
    throw new Error(`vitest worker ${poolId} has no app stack: run integration tests through scripts/test.ts`)
  Object.assign(process.env, changes)
}
