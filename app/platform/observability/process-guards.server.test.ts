import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// Each case runs in a child process: the guards act on the whole process (its exit code, its survival).
const guards = path.resolve(__dirname, 'process-guards.server.ts')
function run(body: string) {
  const script = `
    const { installProcessGuards } = await import(${JSON.stringify(guards)})
    const stops = []
    installProcessGuards('web', (reason) => { stops.push(reason); console.log('stop:' + reason) })
    ${body}
  `
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
    cwd: path.resolve(__dirname, '../..'),
  })
  const lines = child.stdout.split('\n').filter(Boolean)
  const json = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
  return { status: child.status, lines, json, stderr: child.stderr }
}

describe('installProcessGuards', { timeout: 30_000 }, () => {
  it('logs a rejection nobody handles, with its stack, and the process goes on', () => {
    const out = run(`
      Promise.reject(new Error('Connection is closed.'))
      setTimeout(() => { console.log('still running'); process.exit() }, 100)
    `)
    expect(out.status).toBe(0)
    expect(out.lines).toContain('still running')
    const line = out.json.find((l) => l.msg === 'unhandled promise rejection')
    expect(line).toMatchObject({ process: 'web', level: 'error', error: 'Error: Connection is closed.' })
    expect(String(line?.stack)).toContain('Connection is closed.')
    expect(out.lines.some((l) => l.startsWith('stop:'))).toBe(false)
  })

  it('stops the process once after an uncaught exception, with exit code 1', () => {
    const out = run(`
      setTimeout(() => { throw new TypeError('boom') }, 10)
      setTimeout(() => { throw new TypeError('again') }, 20)
      setTimeout(() => process.exit(), 200)
    `)
    expect(out.status).toBe(1)
    expect(out.lines.filter((l) => l.startsWith('stop:'))).toEqual(['stop:uncaughtException'])
    const logged = out.json.filter((l) => l.msg === 'uncaught exception: stopping').map((l) => l.error)
    expect(logged).toEqual(['TypeError: boom', 'TypeError: again'])
  })
})
