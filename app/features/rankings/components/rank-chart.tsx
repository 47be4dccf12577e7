import { scaleLinear, scaleUtc } from 'd3-scale'
import { line } from 'd3-shape'
import { useState } from 'react'
import { formatPosition, type PositionPoint } from '#app/features/rankings/rankings'
import { useHydrated } from '#app/ui/use-hydrated'

export type TrafficPoint = { day: string; clicks: number; impressions: number }

const W = 640
const H = 240
const M = { top: 16, right: 16, bottom: 32, left: 44 }

const toDate = (day: string) => new Date(`${day}T00:00:00.000Z`)
const shortDay = (d: Date) => d.toISOString().slice(5, 10)

/** A sentence that says what the chart shows, for screen readers and for anyone without the picture. */
export function describePositions(keyword: string, points: PositionPoint[]): string {
  const ranked = points.filter((p) => p.status === 'ranked' && p.position !== null)
  if (points.length === 0) return `No positions recorded yet for “${keyword}”.`
  const first = points[0]!
  const last = points[points.length - 1]!
  const best = ranked.reduce<number | null>((b, p) => (b === null || p.position! < b ? p.position! : b), null)
  const gaps = points.filter((p) => p.status === 'error').length
  return (
    `Google position of “${keyword}” from ${first.day} to ${last.day}: ${formatPosition(first)} at the start, ` +
    `${formatPosition(last)} on ${last.day}` +
    (best !== null ? `, best ${best}` : ', never in the top 100') +
    (gaps ? `; ${gaps} day${gaps === 1 ? '' : 's'} without a check.` : '.')
  )
}

/**
 * Position over time, drawn on the server as SVG (d3-scale and d3-shape compute the geometry; React renders it),
 * so it shows without JavaScript. Position 1 is at the top; days whose check failed are gaps, days out of the top
 * 100 are marks on the bottom line. With JavaScript a tooltip follows the pointer.
 */
export function PositionChart({
  keyword,
  points,
  traffic,
  id,
}: {
  keyword: string
  points: PositionPoint[]
  traffic?: TrafficPoint[]
  id: string
}) {
  const hydrated = useHydrated()
  const [hover, setHover] = useState<number | null>(null)
  const days = [...points.map((p) => p.day), ...(traffic ?? []).map((t) => t.day)].sort()
  const firstDay = days[0] ?? '2000-01-01'
  const lastDay = days[days.length - 1] ?? firstDay
  const x = scaleUtc()
    .domain([toDate(firstDay), toDate(lastDay === firstDay ? addOne(firstDay) : lastDay)])
    .range([M.left, W - M.right])
  const worst = Math.max(10, ...points.map((p) => p.position ?? 0))
  const maxPos = Math.min(101, Math.ceil(worst / 10) * 10 + 1)
  const y = scaleLinear()
    .domain([1, maxPos])
    .range([M.top, H - M.bottom])
  const path = line<PositionPoint>()
    .defined((p) => p.status === 'ranked' && p.position !== null)
    .x((p) => x(toDate(p.day)))
    .y((p) => y(p.position ?? maxPos))(points)
  const maxTraffic = Math.max(1, ...(traffic ?? []).map((t) => t.impressions))
  const yt = scaleLinear()
    .domain([0, maxTraffic])
    .range([H - M.bottom, M.top])
  const trafficLine = (key: 'clicks' | 'impressions') =>
    line<TrafficPoint>()
      .x((t) => x(toDate(t.day)))
      .y((t) => yt(t[key]))(traffic ?? []) ?? ''
  const description = describePositions(keyword, points)
  const hovered = hover === null ? undefined : points[hover]

  function onMove(event: React.MouseEvent<SVGRectElement>) {
    const rect = event.currentTarget.getBoundingClientRect()
    const px = ((event.clientX - rect.left) / rect.width) * (W - M.left - M.right) + M.left
    let best = -1
    let bestDist = Infinity
    points.forEach((p, i) => {
      const d = Math.abs(x(toDate(p.day)) - px)
      if (d < bestDist) {
        bestDist = d
        best = i
      }
    })
    setHover(best >= 0 ? best : null)
  }

  return (
    <figure className="relative" data-testid="position-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        data-testid="position-chart-svg"
      >
        <title id={`${id}-title`}>{`Position of “${keyword}” over time`}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <rect x={0} y={0} width={W} height={H} fill="#ffffff" />
        {y.ticks(5).map((t) => (
          <g key={`y${t}`}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} stroke="#e5e7eb" />
            <text x={M.left - 8} y={y(t)} dy="0.32em" textAnchor="end" fontSize={11} fill="#4b5563">
              {t}
            </text>
          </g>
        ))}
        {x.ticks(6).map((t) => (
          <text
            key={`x${t.toISOString()}`}
            x={x(t)}
            y={H - M.bottom + 18}
            textAnchor="middle"
            fontSize={11}
            fill="#4b5563"
          >
            {shortDay(t)}
          </text>
        ))}
        <text x={12} y={M.top} fontSize={11} fill="#4b5563" transform={`rotate(-90 12 ${H / 2})`} dx={-H / 2 + 20}>
          Position
        </text>
        {traffic && traffic.length > 0 ? (
          <g data-testid="traffic-lines">
            <path d={trafficLine('impressions')} fill="none" stroke="#a5b4fc" strokeWidth={1.5} />
            <path d={trafficLine('clicks')} fill="none" stroke="#10b981" strokeWidth={1.5} />
          </g>
        ) : null}
        {path ? <path d={path} fill="none" stroke="#4f46e5" strokeWidth={2} data-testid="position-line" /> : null}
        {points.map((p) =>
          p.status === 'ranked' ? (
            <circle key={p.day} cx={x(toDate(p.day))} cy={y(p.position!)} r={2.5} fill="#4f46e5">
              <title>{`${p.day}: position ${p.position}`}</title>
            </circle>
          ) : p.status === 'not_ranked' ? (
            <rect key={p.day} x={x(toDate(p.day)) - 2} y={H - M.bottom - 4} width={4} height={4} fill="#9ca3af">
              <title>{`${p.day}: not in the top 100`}</title>
            </rect>
          ) : null,
        )}
        {hydrated ? (
          <rect
            x={M.left}
            y={M.top}
            width={W - M.left - M.right}
            height={H - M.top - M.bottom}
            fill="transparent"
            onMouseMove={onMove}
            onMouseLeave={() => setHover(null)}
            data-testid="chart-hover-area"
          />
        ) : null}
        {hovered ? (
          <line
            x1={x(toDate(hovered.day))}
            x2={x(toDate(hovered.day))}
            y1={M.top}
            y2={H - M.bottom}
            stroke="#6b7280"
            strokeDasharray="3 3"
            pointerEvents="none"
          />
        ) : null}
      </svg>
      {hovered ? (
        <div
          role="status"
          className="pointer-events-none absolute right-2 top-2 rounded bg-gray-900 px-2 py-1 text-xs text-white"
          data-testid="chart-tooltip"
        >
          {hovered.day}: {formatPosition(hovered)}
        </div>
      ) : null}
      <figcaption className="mt-1 text-xs text-gray-600">
        {description}
        {traffic && traffic.length > 0 ? ' Green: clicks; light blue: impressions (Search Console).' : ''}
      </figcaption>
    </figure>
  )
}

function addOne(day: string) {
  const d = toDate(day)
  d.setUTCDate(d.getUTCDate() + 1)
  return d.toISOString().slice(0, 10)
}

/** A small position line for the table (decorative: the row's figures say the same in text). */
const SPARK_W = 96
const SPARK_H = 24

/**
 * The sparkline's SVG path for a row of the table, computed once on the server so the page carries one short
 * string per row instead of every point (200 rows × 28 days would otherwise be serialised twice: HTML and data).
 */
export function sparklinePath(points: PositionPoint[]): string | null {
  if (points.length < 2) return null
  const x = scaleLinear()
    .domain([0, points.length - 1])
    .range([2, SPARK_W - 2])
  const worst = Math.max(10, ...points.map((p) => p.position ?? 0))
  const y = scaleLinear()
    .domain([1, worst])
    .range([2, SPARK_H - 2])
  return (
    line<PositionPoint>()
      .digits(1)
      .defined((p) => p.status === 'ranked' && p.position !== null)
      .x((_, i) => x(i))
      .y((p) => y(p.position!))(points) || null
  )
}

export function Sparkline({ path }: { path: string | null }) {
  return (
    <svg width={SPARK_W} height={SPARK_H} aria-hidden="true" data-testid="sparkline">
      {path ? <path d={path} fill="none" stroke="#4f46e5" strokeWidth={1.5} /> : null}
    </svg>
  )
}
