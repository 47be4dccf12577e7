import { z } from 'zod'
import { getEnv } from '#app/platform/env.server'
import { serpMarket } from '#app/features/keywords/serp.server'
import { dataForSeoLiveTask } from '#app/features/keywords/providers/dataforseo-task.server'
import { cleanReferences, plainText, type ProviderAnswer } from './answer'

/**
 * Google's AI answers for a keyword in a market (issue 37, decision 0370), each from one DataForSEO live task:
 * - the AI Overview: the organic SERP (`serp/google/organic/live/advanced`, top 10) asked with
 *   `load_async_ai_overview` so that an overview Google loads late comes with its content; its `ai_overview` item;
 * - AI Mode: `serp/google/ai_mode/live/advanced`, whose answer is an `ai_overview` item too.
 * The item's text (its elements' `text`, else its markdown as plain text) and its `references` [{url, domain,
 * title}] are kept; `present` says whether Google showed one. Parsed defensively: a malformed item counts as none.
 */
const reference = z.object({ url: z.unknown(), title: z.unknown(), domain: z.unknown() }).passthrough()
const element = z.object({ text: z.unknown(), markdown: z.unknown() }).passthrough()
const overview = z
  .object({
    type: z.literal('ai_overview'),
    markdown: z.unknown(),
    items: z.array(z.unknown()).nullable().catch(null),
    references: z.array(z.unknown()).nullable().catch(null),
  })
  .passthrough()
const serpResult = z.object({ items: z.array(z.unknown()).nullable().catch(null) }).passthrough()

const str = (v: unknown) => (typeof v === 'string' ? v : '')

/** The answer in one SERP result: its first `ai_overview` item, or `present: false`. */
export function parseAiOverview(result: unknown): ProviderAnswer {
  const parsed = serpResult.safeParse(result)
  const items = parsed.success ? (parsed.data.items ?? []) : []
  for (const raw of items) {
    const item = overview.safeParse(raw)
    if (!item.success) continue
    const elements = (item.data.items ?? []).flatMap((e) => {
      const el = element.safeParse(e)
      return el.success ? [str(el.data.text) || str(el.data.markdown)] : []
    })
    const text = plainText(elements.filter(Boolean).join('\n') || str(item.data.markdown))
    const refs = (item.data.references ?? []).flatMap((r) => {
      const ref = reference.safeParse(r)
      return ref.success ? [ref.data] : []
    })
    return { present: true, text, references: cleanReferences(refs) }
  }
  return { present: false, text: '', references: [] }
}

function liveTask() {
  const env = getEnv()
  return dataForSeoLiveTask({
    apiUrl: env.DATAFORSEO_API_URL,
    login: env.DATAFORSEO_LOGIN ?? '',
    password: env.DATAFORSEO_PASSWORD ?? '',
  })
}

export type KeywordSubject = { keyword: string; countryCode: string; languageCode: string }

/** Throws KeywordProviderError (HTTP, envelope or task errors after the bounded retries) or a RangeError (market). */
export async function fetchAiOverview(subject: KeywordSubject): Promise<ProviderAnswer> {
  const market = serpMarket(subject.countryCode, subject.languageCode)
  if (!market) throw new RangeError(`no DataForSEO market for ${subject.countryCode}/${subject.languageCode}`)
  const result = await liveTask()(
    'serp/google/organic/live/advanced',
    { keyword: subject.keyword, ...market, depth: 10, device: 'desktop', os: 'windows', load_async_ai_overview: true },
    { budgetMs: 60_000, attemptTimeoutMs: 30_000 },
  )
  return parseAiOverview(result[0])
}

export async function fetchAiMode(subject: KeywordSubject): Promise<ProviderAnswer> {
  const market = serpMarket(subject.countryCode, subject.languageCode)
  if (!market) throw new RangeError(`no DataForSEO market for ${subject.countryCode}/${subject.languageCode}`)
  const result = await liveTask()(
    'serp/google/ai_mode/live/advanced',
    { keyword: subject.keyword, ...market, device: 'desktop' },
    { budgetMs: 60_000, attemptTimeoutMs: 30_000 },
  )
  return parseAiOverview(result[0])
}
