/**
 * Rates with their uncertainty (issue 37, decision 0371). An AI answer varies from run to run, so every figure is a
 * rate over several answers with its 95% Wilson score interval, never a single yes or no; and a change between two
 * periods is called a change only when their intervals do not overlap.
 */

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054

export type Rate = {
  /** Answers in which it happened (mentioned, cited, shown). */
  hits: number
  /** Answers counted (gaps excluded). */
  total: number
  /** hits / total; null when nothing was counted. */
  rate: number | null
  /** The 95% Wilson interval, [0, 1] bounds; null when nothing was counted. */
  low: number | null
  high: number | null
}

/** The Wilson score interval of `hits` out of `total` (z = 1.96 by default). */
export function wilson(hits: number, total: number, z = Z_95): Rate {
  if (!Number.isInteger(hits) || !Number.isInteger(total) || hits < 0 || total < 0 || hits > total) {
    throw new RangeError(`wilson: ${hits} of ${total} is not a count`)
  }
  if (total === 0) return { hits, total, rate: null, low: null, high: null }
  const p = hits / total
  const z2 = z * z
  const denominator = 1 + z2 / total
  const centre = (p + z2 / (2 * total)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / denominator
  // Rounding can leave the exact ends a hair outside the rate (0 of n, n of n): clamp.
  return {
    hits,
    total,
    rate: p,
    low: Math.max(0, Math.min(p, centre - half)),
    high: Math.min(1, Math.max(p, centre + half)),
  }
}

export type Change = 'up' | 'down' | 'none' | 'unknown'

/** 'up'/'down' only when the two intervals do not overlap; 'unknown' when either period counted nothing. */
export function change(before: Rate, after: Rate): Change {
  if (before.low === null || before.high === null || after.low === null || after.high === null) return 'unknown'
  if (after.low > before.high) return 'up'
  if (after.high < before.low) return 'down'
  return 'none'
}

/** A percentage as the screens print it: whole numbers ('18%'). */
export function percent(value: number) {
  return `${Math.round(value * 100)}%`
}

/** 'mentioned in 4 of 9 answers (18–75%)': the count, then the interval; 'no answers yet' when nothing was counted. */
export function describeRate(rate: Rate, what: string) {
  if (rate.total === 0 || rate.low === null || rate.high === null) return `${what}: no answers yet`
  const answers = rate.total === 1 ? 'answer' : 'answers'
  return `${what} in ${rate.hits} of ${rate.total} ${answers} (${percent(rate.low)}–${percent(rate.high)})`
}
