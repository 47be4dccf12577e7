/**
 * Ranking difficulty bands of the spec, in one place: the keyword table's badges, Auto Pilot's keyword pick and
 * the SEO guide all read them from here. Not set: 'N/A'; 0-29 'Easy' (green); 30-59 'Medium' (yellow);
 * 60-79 'Hard' (orange); 80+ 'Very Hard' (red).
 */
export type DifficultyLabel = 'N/A' | 'Easy' | 'Medium' | 'Hard' | 'Very Hard'
export type DifficultyTone = 'none' | 'green' | 'yellow' | 'orange' | 'red'
export type DifficultyBand = { label: DifficultyLabel; tone: DifficultyTone; className: string }

/** The bands from easiest to hardest, each up to and including `max`. */
export const DIFFICULTY_BANDS = [
  { label: 'Easy', tone: 'green', min: 0, max: 29 },
  { label: 'Medium', tone: 'yellow', min: 30, max: 59 },
  { label: 'Hard', tone: 'orange', min: 60, max: 79 },
  { label: 'Very Hard', tone: 'red', min: 80, max: 100 },
] as const satisfies ReadonlyArray<{ label: DifficultyLabel; tone: DifficultyTone; min: number; max: number }>

/** Tailwind classes of each tone (badge background and text). */
export const DIFFICULTY_CLASSES: Record<DifficultyTone, string> = {
  none: 'bg-slate-100 text-slate-700',
  green: 'bg-green-100 text-green-800',
  yellow: 'bg-yellow-100 text-yellow-800',
  orange: 'bg-orange-100 text-orange-800',
  red: 'bg-red-100 text-red-800',
}

/** The band's place from easiest (0) to hardest (3); an unknown difficulty (4) ranks after every band. */
export function difficultyRank(score: number | null | undefined): number {
  if (score === null || score === undefined || !Number.isFinite(score)) return DIFFICULTY_BANDS.length
  const index = DIFFICULTY_BANDS.findIndex((band) => score <= band.max)
  return index === -1 ? DIFFICULTY_BANDS.length - 1 : index
}

/** The badge of a score: label, tone and classes ('N/A' when the difficulty is unknown). */
export function difficultyBand(score: number | null | undefined): DifficultyBand {
  const band = DIFFICULTY_BANDS[difficultyRank(score)]
  if (!band) return { label: 'N/A', tone: 'none', className: DIFFICULTY_CLASSES.none }
  return { label: band.label, tone: band.tone, className: DIFFICULTY_CLASSES[band.tone] }
}

/** A band's score range as text: '0–29', '80+'. */
export function difficultyRange(band: { min: number; max: number }) {
  return band.max >= 100 ? `${band.min}+` : `${band.min}–${band.max}`
}
