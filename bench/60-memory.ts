import { spawn } from 'node:child_process'
import type { BenchContext } from './context'
import type { ProbeResult } from './memory-probe'

/**
 * Issue 20: memory that does not grow with traffic. In a separate process started with --expose-gc (against the
 * bench's Postgres), bench/memory-probe.ts runs 2,000 post writes (sanitize once + store), 20,000 post views
 * (the post page's loader inside a request scope, as server.ts runs it, serving the stored HTML), 2,000 HTML
 * downloads, and 20,000 each of the other per-request work (Markdown rendering, excerpts, JSON-LD), and reports
 * for each the heap growth after a forced GC, the peak growth during the run and the CPU time per call.
 * Fails when any heap growth reaches TARGET_MIB.
 */
const TARGET_MIB = 10

export default async function memory(ctx: BenchContext) {
  const lines: string[] = []
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/memory-probe.ts'], {
      cwd: ctx.root,
      env: ctx.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let buffered = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      const parts = buffered.split('\n')
      buffered = parts.pop()!
      for (const line of parts) {
        if (line.startsWith('{"probe"')) {
          lines.push(line)
          const { probe } = JSON.parse(line) as { probe: ProbeResult }
          console.log(`  ${probe.name}: done (${probe.calls} calls)`)
        }
      }
    })
    child.once('error', reject)
    child.once('exit', (c) => resolve(c ?? 1))
  })
  if (code !== 0) throw new Error(`the memory probe exited with ${code}`)
  const parsed = lines.map((l) => JSON.parse(l) as { probe: ProbeResult; postBytes: number })
  console.log(`\nPer-request work on a ${Math.round((parsed[0]?.postBytes ?? 0) / 1024)} kB post (node --expose-gc):`)
  console.log(
    'work'.padEnd(34) +
      'calls'.padStart(8) +
      'heap growth MiB'.padStart(17) +
      'peak MiB'.padStart(10) +
      'CPU µs/call'.padStart(13) +
      'wall µs/call'.padStart(14) +
      '  target',
  )
  const failures: string[] = []
  for (const { probe: r } of parsed) {
    const ok = r.heapGrowthMiB < TARGET_MIB
    if (!ok) failures.push(`${r.name}: heap grew ${r.heapGrowthMiB} MiB`)
    console.log(
      r.name.padEnd(34) +
        String(r.calls).padStart(8) +
        r.heapGrowthMiB.toFixed(2).padStart(17) +
        r.peakGrowthMiB.toFixed(1).padStart(10) +
        String(r.cpuUsPerCall).padStart(13) +
        String(r.wallUsPerCall).padStart(14) +
        `  ${ok ? 'ok' : 'FAIL'} (< ${TARGET_MIB} MiB)`,
    )
  }
  if (parsed.length !== 6) throw new Error(`the memory probe reported ${parsed.length} of 6 measurements`)
  if (failures.length) throw new Error(`memory grows with traffic: ${failures.join('; ')}`)
}
