import type { Rate } from '#app/features/visibility/wilson'

const W = 240
const H = 64
const M = { top: 6, right: 6, bottom: 6, left: 6 }

export type TrendPoint = { week: string; rate: Rate }

/** What the trend shows, in words: for screen readers and anyone without the picture. */
export function describeTrend(what: string, points: TrendPoint[]) {
  const counted = points.filter((p) => p.rate.total > 0)
  if (counted.length === 0) return `${what}: no answers in the last ${points.length} weeks.`
  const pct = (v: number | null) => (v === null ? '–' : `${Math.round(v * 100)}%`)
  const last = counted[counted.length - 1]!
  const gaps = points.length - counted.length
  return (
    `${what}, week by week: ${counted.length} of ${points.length} weeks with answers; ` +
    `week of ${last.week}: ${pct(last.rate.rate)} (${pct(last.rate.low)}–${pct(last.rate.high)})` +
    (gaps ? `; ${gaps} week${gaps === 1 ? '' : 's'} without answers.` : '.')
  )
}

/**
 * A rate week by week, drawn on the server as SVG (shows without JavaScript): each week with answers is a dot at its
 * rate and a bar over its 95% interval; a week without answers is a gap (a hollow tick on the base line), never 0%.
 */
export function AiTrend({ what, points }: { what: string; points: TrendPoint[] }) {
  const n = points.length
  const step = n > 1 ? (W - M.left - M.right) / (n - 1) : 0
  const x = (i: number) => (n > 1 ? M.left + i * step : W / 2)
  const y = (v: number) => M.top + (1 - v) * (H - M.top - M.bottom)
  const description = describeTrend(what, points)
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="h-16 w-full max-w-[240px]"
      role="img"
      aria-label={description}
      preserveAspectRatio="none"
    >
      <line x1={M.left} x2={W - M.right} y1={y(0)} y2={y(0)} stroke="#cbd5e1" strokeWidth={1} />
      <line x1={M.left} x2={W - M.right} y1={y(1)} y2={y(1)} stroke="#e2e8f0" strokeWidth={1} strokeDasharray="2 3" />
      {points.map((p, i) =>
        p.rate.total === 0 || p.rate.low === null || p.rate.high === null || p.rate.rate === null ? (
          <circle key={p.week} cx={x(i)} cy={y(0)} r={2.5} fill="white" stroke="#94a3b8" strokeWidth={1}>
            <title>{`Week of ${p.week}: no answers`}</title>
          </circle>
        ) : (
          <g key={p.week}>
            <title>{`Week of ${p.week}: ${p.rate.hits} of ${p.rate.total} (${Math.round(p.rate.low * 100)}–${Math.round(p.rate.high * 100)}%)`}</title>
            <line x1={x(i)} x2={x(i)} y1={y(p.rate.low)} y2={y(p.rate.high)} stroke="#93c5fd" strokeWidth={4} />
            <circle cx={x(i)} cy={y(p.rate.rate)} r={3} fill="#1d4ed8" />
          </g>
        ),
      )}
    </svg>
  )
}
