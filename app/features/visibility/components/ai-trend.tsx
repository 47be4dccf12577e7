import type { TrendPoint } from '#app/features/visibility/page-view'

const W = 240
const H = 64
const M = { top: 6, right: 6, bottom: 6, left: 6 }

const pct = (v: number) => `${v}%`
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
  const y = (percent: number) => c(M.top + (1 - percent / 100) * (H - M.top - M.bottom))
  // One path per kind of mark (a page shows 100+ of these charts): the interval bars, the dots (zero-length strokes
  // with round caps), and the gaps' hollow ticks (a grey dot with a white one inside).
  const bars = points.map((p, i) => (p ? `M${x(i)} ${y(p[1])}V${y(p[2])}` : '')).join('')
  const dots = points.map((p, i) => (p ? `M${x(i)} ${y(p[0])}h0` : '')).join('')
  const gaps = points.map((p, i) => (p ? '' : `M${x(i)} ${y(0)}h0`)).join('')
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="h-16 w-full max-w-[240px]"
      role="img"
      aria-label={describeTrend(what, weeks, points)}
      preserveAspectRatio="none"
    >
      <path d={`M${M.left} ${y(0)}H${W - M.right}`} stroke="#cbd5e1" strokeWidth={1} />
      <path d={`M${M.left} ${y(100)}H${W - M.right}`} stroke="#e2e8f0" strokeWidth={1} strokeDasharray="2 3" />
      {bars ? <path d={bars} stroke="#93c5fd" strokeWidth={4} /> : null}
      {dots ? <path d={dots} stroke="#1d4ed8" strokeWidth={6} strokeLinecap="round" /> : null}
      {gaps ? (
        <>
          <path d={gaps} stroke="#94a3b8" strokeWidth={6} strokeLinecap="round" />
          <path d={gaps} stroke="white" strokeWidth={4} strokeLinecap="round" />
        </>
      ) : null}
    </svg>
  )
}
