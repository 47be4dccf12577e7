import fs from 'node:fs'
import autocannon from 'autocannon'

export type BenchContext = {
  appUrl: string
  env: NodeJS.ProcessEnv
  webPid: number
  fakes: Record<string, string>
  root: string
}

/** Resident memory now and at its peak (VmHWM) of a process, in MiB (Linux /proc). */
export function memoryMiB(pid: number) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const read = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
    return { rss: read('VmRSS'), peak: read('VmHWM') }
  } catch {
    return { rss: NaN, peak: NaN }
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; clock ticks of 10 ms), or NaN. */
export function cpuTimeMs(pid: number) {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

export type LoadResult = {
  name: string
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  /** The server's CPU time per answered request, in ms, when its process id was given (`serverPid`). */
  cpuMsPerRequest?: number
}

/** Concurrent load on one URL with autocannon; latency in ms. */
export async function load(
  name: string,
  url: string,
  opts: {
    connections?: number
    duration?: number
    headers?: Record<string, string>
    method?: 'GET' | 'POST'
    body?: string
    /** The process answering: its CPU time over the run is divided by the requests answered. */
    serverPid?: number
  } = {},
): Promise<LoadResult> {
  const cpuBefore = opts.serverPid ? cpuTimeMs(opts.serverPid) : NaN
  const result = await autocannon({
    url,
    connections: opts.connections ?? 20,
    duration: opts.duration ?? 8,
    method: opts.method ?? 'GET',
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  })
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(opts.serverPid ? { cpuMsPerRequest: (cpuTimeMs(opts.serverPid) - cpuBefore) / result.requests.total } : {}),
  }
}

export function printTable(rows: LoadResult[]) {
  console.log(
    'route'.padEnd(34) +
      'req/s'.padStart(8) +
      'p50 ms'.padStart(9) +
      'p99 ms'.padStart(9) +
      'errors'.padStart(8) +
      'non-2xx'.padStart(9),
  )
  for (const r of rows) {
    console.log(
      r.name.padEnd(34) +
        String(r.rps).padStart(8) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        String(r.errors).padStart(8) +
        String(r.non2xx).padStart(9),
    )
  }
}
