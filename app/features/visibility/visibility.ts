/**
 * AI search visibility (issue 37): the engines, the limits each plan allows, and the rules for prompts and subjects.
 * Pure: the screens, the API, the MCP tools and the checks share it.
 */
import { z } from 'zod'
import { AI_ENGINES, type AiEngine } from '#app/platform/db/schema/visibility'

export { AI_ENGINES, type AiEngine }

/** How the screens name each engine. */
export const ENGINE_LABELS: Record<AiEngine, string> = {
  google_ai_overview: 'Google AI Overviews',
  google_ai_mode: 'Google AI Mode',
  chatgpt: 'ChatGPT',
  perplexity: 'Perplexity',
  gemini: 'Gemini',
  claude: 'Claude',
}

/** Google's two engines read a keyword's results page; the assistants answer prompts. */
export const KEYWORD_ENGINES = ['google_ai_overview', 'google_ai_mode'] as const satisfies readonly AiEngine[]
export const PROMPT_ENGINES = ['chatgpt', 'perplexity', 'gemini', 'claude'] as const satisfies readonly AiEngine[]

/** Samples per prompt and check: each prompt is asked this many times per engine and day (settings, 1-5). */
export const SAMPLES = { min: 1, max: 5, default: 3 } as const

/** A prompt is user text sent to third parties: bounded. */
export const PROMPT_LENGTH = { min: 10, max: 300 } as const
export const MAX_BRAND_ALIASES = 10
export const MAX_COMPETITOR_DOMAINS = 10

/**
 * What each plan allows (decision 0370). An "AI check" is one keyword or prompt checked on one day, on all its engines
 * and samples; the monthly count is shown on /profile beside the other quotas.
 */
export const AI_VISIBILITY_LIMITS = {
  trial: { prompts: 3, checksPerMonth: 300 },
  premium: { prompts: 20, checksPerMonth: 7_000 },
} as const

/** The limits for a subscription status (as rankings' tracked-keyword limits). */
export function aiVisibilityLimits(status: string | null | undefined) {
  return status === 'active' || status === 'past_due' ? AI_VISIBILITY_LIMITS.premium : AI_VISIBILITY_LIMITS.trial
}

/** The cache key of a keyword or prompt: lower case, spaces collapsed, trimmed. */
export function normalizeSubject(text: string) {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
}

/** The ISO week of a UTC day (YYYY-MM-DD): its Monday, as YYYY-MM-DD. */
export function isoWeek(day: string) {
  const date = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) throw new RangeError(`isoWeek: ${day} is not a day`)
  const back = (date.getUTCDay() + 6) % 7
  date.setUTCDate(date.getUTCDate() - back)
  return date.toISOString().slice(0, 10)
}

/** The weeks of history the page and the API show (the API's `?weeks=`). */
export const WEEKS = { min: 1, max: 52, default: 12 } as const
const WEEKS_MESSAGE = `weeks must be a whole number from ${WEEKS.min} to ${WEEKS.max}.`

/** GET /api/ai-visibility's query (and the MCP tool's input): `weeks` (1-52, default 12), `kind`. */
export const aiVisibilityQuerySchema = z.object({
  // A string in a query; a number from a JSON caller (the MCP tool, whose parsed input this schema reads again).
  weeks: z
    .union([z.string(), z.number()], { errorMap: () => ({ message: WEEKS_MESSAGE }) })
    .optional()
    .refine(
      (v) =>
        v === undefined ||
        ((typeof v === 'number' || /^\d{1,2}$/.test(v)) &&
          Number.isInteger(Number(v)) &&
          Number(v) >= WEEKS.min &&
          Number(v) <= WEEKS.max),
      WEEKS_MESSAGE,
    )
    .transform((v) => (v === undefined ? WEEKS.default : Number(v))),
  kind: z.enum(['keyword', 'prompt'], { errorMap: () => ({ message: 'kind must be keyword or prompt.' }) }).optional(),
})
