#!/usr/bin/env node
// Entry point of `npm run dev`, `npm test`, `npm run bench` and `npm run lighthouse`.
// Plain Node with no dependencies: it installs the project's packages when they are missing or stale,
// then hands over to the TypeScript script of the same name (scripts/<command>.ts or scripts/<command>/index.ts)
// through tsx.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const [command, ...args] = process.argv.slice(2)
if (!command) {
  console.error('usage: node scripts/bootstrap.mjs <dev|test|bench|lighthouse> [args]')
  process.exit(2)
}

function mtime(file) {
  try {
    return fs.statSync(path.join(root, file)).mtimeMs
  } catch {
    return 0
  }
}

const installed = mtime('node_modules/.package-lock.json')
const stale = !installed || mtime('package.json') > installed || mtime('package-lock.json') > installed
if (stale || !fs.existsSync(path.join(root, 'node_modules/.bin/tsx'))) {
  console.log('[rankwell] installing dependencies (npm install)…')
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    console.error('[rankwell] npm install failed')
    process.exit(result.status ?? 1)
  }
}

const tsx = path.join(root, 'node_modules/.bin/tsx')
// scripts/<command>.ts, or scripts/<command>/index.ts for a script in parts (the soak).
const file = fs.existsSync(path.join(root, 'scripts', command, 'index.ts'))
  ? path.join(root, 'scripts', command, 'index.ts')
  : path.join(root, 'scripts', `${command}.ts`)
const child = spawn(tsx, [file, ...args], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal))
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
