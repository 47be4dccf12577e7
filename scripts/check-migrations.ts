// `npx tsx scripts/check-migrations.ts`: fails when the schema (app/platform/db/schema/) and the migrations
// (drizzle/) differ, i.e. when `npm run db:generate` would write a migration. It runs drizzle-kit generate on a copy
// of drizzle/ in a temporary folder (nothing is written into the repository, no database is needed), and checks that
// the journal and the SQL files agree (the migrator applies the journal's entries in order, and skips an entry whose
// `when` is not later than the last one applied).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const migrations = path.join(root, 'drizzle')

type Journal = { entries: { idx: number; when: number; tag: string }[] }

/** What is wrong between drizzle/meta/_journal.json and the SQL files beside it (empty when they agree). */
function journalProblems(): string[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta', '_journal.json'), 'utf8')) as Journal
  const problems: string[] = []
  const tags = new Set(journal.entries.map((e) => e.tag))
  for (const file of fs.readdirSync(migrations).filter((f) => f.endsWith('.sql'))) {
    if (!tags.has(file.slice(0, -4))) problems.push(`drizzle/${file} has no entry in drizzle/meta/_journal.json`)
  }
  journal.entries.forEach((entry, i) => {
    if (!fs.existsSync(path.join(migrations, `${entry.tag}.sql`))) {
      problems.push(`journal entry ${entry.tag}: drizzle/${entry.tag}.sql is missing`)
    }
    const previous = journal.entries[i - 1]
    if (previous && !(entry.idx > previous.idx && entry.when > previous.when)) {
      problems.push(`journal entry ${entry.tag}: its idx and when must be greater than ${previous.tag}'s`)
    }
  })
  return problems
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()
}

/** Runs drizzle-kit generate against a copy of drizzle/; returns what it would add (empty when nothing). */
function generateInCopy(): { ok: boolean; added: string[]; output: string; tmp: string } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rankwell-check-migrations-'))
  const out = path.join(tmp, 'drizzle')
  fs.cpSync(migrations, out, { recursive: true })
  const before = new Set(listFiles(out))
  // The project's config with `out` moved to the copy. drizzle-kit reads the snapshots at `./${out}/meta/…`, so `out`
  // must be relative to the working directory (the repository root, where the config's schema path is relative to).
  const config = path.join(tmp, 'drizzle.config.ts')
  fs.writeFileSync(
    config,
    `import config from ${JSON.stringify(path.join(root, 'drizzle.config.ts'))}\n` +
      `export default { ...config, out: ${JSON.stringify(path.relative(root, out))} }\n`,
  )
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'drizzle-kit'), ['generate', '--config', config], {
    cwd: root,
    encoding: 'utf8',
    // No terminal: a question (is this column new or renamed?) cannot be answered and must not wait forever.
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
    env: { ...process.env, FORCE_COLOR: '0' },
  })
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? `\n${result.error.message}` : ''}`
  const added = listFiles(out).filter((f) => !before.has(f))
  const ok = result.status === 0 && /No schema changes, nothing to migrate/.test(output) && added.length === 0
  return { ok, added, output, tmp }
}

const problems = journalProblems()
const { ok, added, output, tmp } = generateInCopy()
try {
  if (!ok) {
    const sql = added
      .filter((f) => f.endsWith('.sql'))
      .map((f) => `--- ${f} ---\n${fs.readFileSync(path.join(tmp, 'drizzle', f), 'utf8')}`)
    problems.push(
      sql.length
        ? 'The schema (app/platform/db/schema/) and the migrations (drizzle/) differ: `npm run db:generate` would ' +
            `write this migration:\n${sql.join('\n')}\n` +
            'Add it with `npm run db:generate -- --name=<what it does>` (review the SQL; commit it with the snapshot ' +
            'and the journal entry), or undo the schema change.'
        : 'drizzle-kit generate did not report "No schema changes" (when it asks whether a table or column was renamed, ' +
            `run \`npm run db:generate\` in a terminal and answer):\n${output.trim()}`,
    )
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true })
}

if (problems.length) {
  console.error(`[check-migrations] FAILED\n${problems.join('\n\n')}`)
  process.exit(1)
}
console.log('[check-migrations] the schema and the migrations agree (drizzle-kit generate: no schema changes)')
