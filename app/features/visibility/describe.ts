/**
 * How the AI visibility figures read as words (pure: the page, the digest and the refresh reasons share it).
 */
import type { Change, Rate } from './wilson'

const pct = (v: number) => Math.round(v * 100)

/** A rate as a sentence: 'Mentioned in 4 of 9 answers this week (19–73%)'; a gap says so, never 0%. */
export function rateSentence(rate: Rate, what: string, when: string, noun: [string, string] = ['answer', 'answers']) {
  if (rate.total === 0 || rate.low === null || rate.high === null) return `${what}: no ${noun[1]} ${when}`
  return `${what} in ${rate.hits} of ${rate.total} ${rate.total === 1 ? noun[0] : noun[1]} ${when} (${pct(rate.low)}–${pct(rate.high)}%)`
}

/** The change rule in words (decision 0371): a change is only called one when the two weeks' intervals do not overlap. */
export const CHANGE_LABELS: Record<Change, string> = {
  up: 'Up from the week before',
  down: 'Down from the week before',
  none: 'No clear change from the week before',
  unknown: 'Not enough answers to compare with the week before',
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']

/** 'AI Overviews cite two competitors for this keyword and not you'. */
export function describeAiCompetitors(count: number) {
  const n = NUMBER_WORDS[count] ?? String(count)
  return `AI Overviews cite ${n} ${count === 1 ? 'competitor' : 'competitors'} for this keyword and not you`
}
