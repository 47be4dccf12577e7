import { load, memoryMiB, printTable, type BenchContext } from './context'

/** Issue 2: requests per second and latency for / and /healthz under concurrent load, and peak memory. */
export default async function platform(ctx: BenchContext) {
  const idle = memoryMiB(ctx.webPid)
  console.log(`web process memory before load: ${idle.rss.toFixed(0)} MiB resident`)
  // Warm up the server (module loading, connection pools).
  for (let i = 0; i < 50; i++) await fetch(`${ctx.appUrl}/`).then((r) => r.text())
  const rows = [await load('GET /', `${ctx.appUrl}/`), await load('GET /healthz', `${ctx.appUrl}/healthz`)]
  printTable(rows)
  const mem = memoryMiB(ctx.webPid)
  console.log(`web process memory: ${mem.rss.toFixed(0)} MiB resident now, ${mem.peak.toFixed(0)} MiB peak`)
}
