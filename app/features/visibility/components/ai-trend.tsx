import type { TrendPoint } from '#app/features/visibility/page-view'

const W = 240
const H = 64
const M = { top: 6, right: 6, bottom: 6, left: 6 }

const pct = (v: number) => `${Math.round(v * 100)}%`
/** SVG coordinates to a tenth of a unit (the picture is 240 wide): smaller markup, the same drawing. */
const c = (v: number) => Math.round(v * 10) / 10

/** What the trend shows, in words: for screen readers and anyone without the picture. */
export function describeTrend(what: string, weeks: string[], points: TrendPoint[]) {
  const counted = points.flatMap((p, i) => (p ? [{ week: weeks[i]!, p }] : []))
  if (counted.length === 0) return `${what}: no answers in the last ${points.length} weeks.`
  const last = counted[counted.length - 1]!
  const gaps = points.length - counted.length
  return (
    `${what}, week by week: ${counted.length} of ${points.length} weeks with answers; ` +
    `week of ${last.week}: ${pct(last.p[0])} (${pct(last.p[1])}–${pct(last.p[2])})` +
    (gaps ? `; ${gaps} week${gaps === 1 ? '' : 's'} without answers.` : '.')
  )
}

/**
 * A rate week by week, drawn on the server as SVG (shows without JavaScript): each week with answers is a dot at its
 * rate and a bar over its 95% interval; a week without answers is a gap (a hollow tick on the base line), never 0%.
 * The figures are in the `aria-label` (and in the text beside it), not in per-point tooltips: the page stays light.
 */
export function AiTrend({ what, weeks, points }: { what: string; weeks: string[]; points: TrendPoint[] }) {
  const n = points.length
  const step = n > 1 ? (W - M.left - M.right) / (n - 1) : 0
  const x = (i: number) => c(n > 1 ? M.left + i * step : W / 2)
  const y = (v: number) => c(M.top + (1 - v) * (H - M.top - M.bottom))
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="h-16 w-full max-w-[240px]"
      role="img"
      aria-label={describeTrend(what, weeks, points)}
      preserveAspectRatio="none"
    >
      <line x1={M.left} x2={W - M.right} y1={y(0)} y2={y(0)} stroke="#cbd5e1" strokeWidth={1} />
      <line x1={M.left} x2={W - M.right} y1={y(1)} y2={y(1)} stroke="#e2e8f0" strokeWidth={1} strokeDasharray="2 3" />
      {points.map((p, i) =>
        p === null ? (
          <circle key={i} cx={x(i)} cy={y(0)} r={2.5} fill="white" stroke="#94a3b8" strokeWidth={1} />
        ) : (
          <g key={i}>
            <line x1={x(i)} x2={x(i)} y1={y(p[1])} y2={y(p[2])} stroke="#93c5fd" strokeWidth={4} />
            <circle cx={x(i)} cy={y(p[0])} r={3} fill="#1d4ed8" />
          </g>
        ),
      )}
    </svg>
  )
}
