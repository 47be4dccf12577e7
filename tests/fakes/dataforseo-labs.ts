/**
 * Fake DataForSEO Labs keyword endpoints added by issue 36, in their real wire shapes. Each entry maps a path to its task runner; ./dataforseo.ts serves them
 * with the common envelope, authentication and task errors.
 *
 *   POST /v3/dataforseo_labs/google/search_intent/live: task {keywords (≤ 1,000, ≥ 3 characters each, lower-cased),
 *   language_code | language_name (required)}; result [{language_code, items_count, items: [{keyword,
 *   keyword_intent: {label, probability}, secondary_keyword_intents: [{label, probability}] | null}]}]. A keyword
 *   containing "intentfail" makes the task fail (50000 Internal Server Error.): the degraded-row tests.
 */
import { hash32 } from './text'
import { keywordMetrics } from './keywords'
import { languageCodeOut, languageOf, stringList, TaskError, type Endpoint, type Task } from './dataforseo-task'

const SECONDARY: Record<string, string[]> = {
  commercial: ['transactional', 'informational'],
  transactional: ['commercial'],
  informational: ['commercial'],
  navigational: ['transactional'],
}

function searchIntent(task: Task): unknown[] {
  const keywords = stringList(task.keywords, 'keywords', { max: 1000, minLen: 3 })
  if (!languageOf(task)) throw new TaskError(40501, "Invalid Field: 'language_code'.")
  if (keywords.some((k) => k.includes('intentfail'))) throw new TaskError(50000, 'Internal Server Error.')
  const items = keywords.map((keyword) => {
    const label = keywordMetrics(keyword, 'intent', 1).intent
    const h = hash32(`intent-p:${keyword}`)
    const probability = Math.round((0.55 + (h % 40) / 100) * 10000) / 10000
    const secondary = h % 3 === 0 ? null : (SECONDARY[label] ?? []).slice(0, 1 + (h % 2))
    return {
      keyword,
      keyword_intent: { label, probability },
      secondary_keyword_intents:
        secondary?.map((s, n) => ({
          label: s,
          probability: Math.round((1 - probability) * (n === 0 ? 0.8 : 0.2) * 10000) / 10000,
        })) ?? null,
    }
  })
  return [{ language_code: languageCodeOut(task), items_count: items.length, items }]
}

export const LABS_ENDPOINTS: Record<string, Endpoint> = {
  '/v3/dataforseo_labs/google/search_intent/live': {
    api: 'dataforseo_labs',
    fn: 'search_intent',
    se: { se_type: 'google' },
    run: searchIntent,
    costPerTask: 0.001,
  },
}
