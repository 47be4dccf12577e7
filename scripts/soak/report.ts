// The soak's report: a row per fault, its window running from its start to the next fault's (the first row is the
// traffic before any fault), with every assertion of the soak counted in that window; then a row per kind of
// request, the posts, the memory, and the violations.
import type { Check, Figures, Limits, Verdict } from './judge'

export function printReport(opts: {
  figures: Figures
  verdict: Verdict
  minutes: number
  virtualUsers: number
  chaos: boolean
}) {
  const { figures, verdict, minutes, virtualUsers, chaos } = opts
  const { soakStartedAt, trafficEndedAt, faults, unfinished, memory } = figures
  const { samples, acceptedAt, acceptedPosts } = figures.traffic
  const { violations } = verdict
  const limits: Limits = figures.limits
  const windows = [
    { name: chaos ? 'before the first fault' : 'no fault (without --chaos)', from: soakStartedAt, fault: undefined },
    ...faults.map((f) => ({ name: f.name, from: f.startedAt, fault: f })),
  ]
    .map((w, i, all) => ({ ...w, to: all[i + 1]?.from ?? trafficEndedAt }))
    .filter((w) => w.to > w.from)
  const inWindow = (w: { from: number; to: number }, from: number, to = from) => from < w.to && to >= w.from
  const columns: Array<[string, number]> = [
    ['fault (window: until the next)', 32],
    ['at s', 6],
    ['lasted s', 9],
    ['requests', 9],
    ['503+RA', 7],
    ['cut', 4],
    ['max ms', 7],
    ['>5s/5xx', 8],
    ['recovered', 10],
    ['posts', 6],
    ['lost', 5],
    ['twice', 6],
    ['quota', 6],
    ['RSS MiB', 8],
    ['', 6],
  ]
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(columns[i]![1]) : c.padStart(columns[i]![1]))).join('')
  console.log(
    `\nSoak: ${minutes} min, ${virtualUsers} virtual users, ${samples.length} requests${chaos ? ', chaos' : ''}` +
      ` (limits: answer within ${limits.answerWithinMs} ms or 503 + Retry-After, recovery within ${limits.recoverWithinMs} ms` +
      ` of the fault's end, RSS under ${limits.maxRssMiB} MiB)`,
  )
  console.log(row(columns.map(([title]) => title)))
  for (const w of windows) {
    const reqs = samples.filter((x) => x.at >= w.from && x.at < w.to)
    const own = violations.filter((v) => inWindow(w, v.from, v.to))
    const count = (check: Check, pattern?: RegExp) =>
      own.filter((v) => v.check === check && (!pattern || pattern.test(v.text))).length
    const accepted = [...acceptedAt].filter(([, at]) => at >= w.from && at < w.to).map(([id]) => id)
    const rss = [...memory.values()].flat().filter((v) => v.at >= w.from && v.at < w.to)
    const f = w.fault
    console.log(
      row([
        w.name,
        ((w.from - soakStartedAt) / 1000).toFixed(0),
        f ? ((f.endedAt - f.startedAt) / 1000).toFixed(1) : '-',
        String(reqs.length),
        String(reqs.filter((x) => x.status === 503).length),
        String(reqs.filter((x) => x.cut).length),
        String(Math.max(0, ...reqs.map((x) => x.ms))),
        String(count('requests')),
        f ? (f.recoveredAt ? `${f.recoveredAt - f.endedAt} ms` : 'never') : '-',
        String(accepted.length),
        String(accepted.filter((id) => unfinished.includes(id)).length),
        String(count('posts', /written \d+ times|posts in Postgres/)),
        String(count('quota')),
        rss.length ? Math.max(...rss.map((v) => v.mib)).toFixed(0) : '-',
        own.length ? 'FAIL' : 'ok',
      ]),
    )
  }
  console.log(
    '\nrecovered: from the end of the fault until the probe passed (' +
      [...new Set(faults.map((f) => `${f.name}: ${f.recoveryProbe}`))].join('; ') +
      '). cut: in flight on a SIGKILLed process and not safe to send again (a POST without an Idempotency-Key):' +
      ' no process can answer it; counted, not a violation. lost: accepted posts that never finished. twice: posts' +
      ' written more than once or rows beyond the accepted requests (and the failed, refunded rows of requests answered' +
      ' 503 because the queue was away). quota: units lost or taken twice (posts and' +
      ' keyword searches).',
  )
  const kinds = [...new Set(samples.map((x) => x.kind))].sort()
  console.log(
    '\n' +
      'request'.padEnd(22) +
      'count'.padStart(7) +
      'p50 ms'.padStart(8) +
      'p99 ms'.padStart(8) +
      'max ms'.padStart(8) +
      'bad'.padStart(6),
  )
  for (const kind of kinds) {
    const of = samples
      .filter((x) => x.kind === kind)
      .map((x) => x.ms)
      .sort((a, b) => a - b)
    const pct = (p: number) => of[Math.min(of.length - 1, Math.floor(of.length * p))] ?? 0
    console.log(
      kind.padEnd(22) +
        String(of.length).padStart(7) +
        String(pct(0.5)).padStart(8) +
        String(pct(0.99)).padStart(8) +
        String(of.at(-1) ?? 0).padStart(8) +
        String(samples.filter((x) => x.kind === kind && !x.ok).length).padStart(6),
    )
  }
  const allAccepted = [...acceptedPosts.values()].reduce((n, s) => n + s.size, 0)
  console.log(
    `\nposts: ${allAccepted} accepted, ${verdict.postsCompleted} completed, ${verdict.postsFailed} failed (unit given back), ${unfinished.length} unfinished, ${verdict.twice.size} written twice; users: ${figures.stored.users.length}`,
  )
  for (const m of verdict.memory)
    console.log(
      `memory ${m.name.padEnd(8)} max ${m.maxMiB.toFixed(0).padStart(4)} MiB   median middle third ${m.middleMiB
        .toFixed(0)
        .padStart(4)} MiB   last third ${m.lastMiB.toFixed(0).padStart(4)} MiB`,
    )
  if (violations.length) {
    const byText = new Map<string, number>()
    for (const v of violations) byText.set(`[${v.check}] ${v.text}`, (byText.get(`[${v.check}] ${v.text}`) ?? 0) + 1)
    console.log(`\nVIOLATIONS (${violations.length}):`)
    for (const [text, n] of [...byText].slice(0, 60)) console.log(`  - ${n > 1 ? `${n} × ` : ''}${text}`)
  } else console.log('\nno violations')
}
