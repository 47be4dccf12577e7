import { z } from 'zod'
import { getEnv } from '#app/platform/env.server'
import { findCountry } from '#app/platform/markets/markets'
import { dataForSeoLiveTask } from '#app/features/keywords/providers/dataforseo-task.server'
import type { AiEngine } from '../visibility'
import { cleanReferences, plainText, type ProviderAnswer } from './answer'

/**
 * The assistants' answers to a prompt (issue 37, decision 0370) through DataForSEO's AI Optimization API, LLM
 * Responses (`ai_optimization/{platform}/llm_responses/live`, one task per call): the prompt as `user_prompt`, a
 * fixed model per platform (the base name: DataForSEO picks its latest version), web search on so that sources are
 * cited (Perplexity's sonar searches by default), from the market's country for ChatGPT. The answer is the
 * text of the `message` items' sections; the sources are their `annotations` ({title, url, direct_url}), in order.
 * Parsed defensively: a result without a message is an empty answer (`present: false`).
 */
export const LLM_PLATFORMS = {
  chatgpt: { path: 'chat_gpt', model: 'gpt-4.1-mini' },
  perplexity: { path: 'perplexity', model: 'sonar' },
  gemini: { path: 'gemini', model: 'gemini-2.5-flash' },
  claude: { path: 'claude', model: 'claude-sonnet-4-0' },
} as const satisfies Partial<Record<AiEngine, { path: string; model: string }>>
export type LlmEngine = keyof typeof LLM_PLATFORMS

/** DataForSEO's bound on `user_prompt`. */
export const USER_PROMPT_MAX = 500

const annotation = z.object({ url: z.unknown(), direct_url: z.unknown(), title: z.unknown() }).passthrough()
const section = z.object({ text: z.unknown(), annotations: z.array(z.unknown()).nullable().catch(null) }).passthrough()
const item = z.object({ type: z.unknown(), sections: z.array(z.unknown()).nullable().catch(null) }).passthrough()
const result = z.object({ items: z.array(z.unknown()).nullable().catch(null) }).passthrough()

export function parseLlmResponse(raw: unknown): ProviderAnswer {
  const parsed = result.safeParse(raw)
  const texts: string[] = []
  const refs: Array<{ url: unknown; title: unknown }> = []
  for (const i of parsed.success ? (parsed.data.items ?? []) : []) {
    const it = item.safeParse(i)
    if (!it.success || it.data.type !== 'message') continue
    for (const s of it.data.sections ?? []) {
      const sec = section.safeParse(s)
      if (!sec.success) continue
      if (typeof sec.data.text === 'string') texts.push(sec.data.text)
      for (const a of sec.data.annotations ?? []) {
        const ann = annotation.safeParse(a)
        // Gemini's `url` is a Vertex AI redirect; `direct_url` is the source itself.
        if (ann.success)
          refs.push({
            url: typeof ann.data.direct_url === 'string' ? ann.data.direct_url : ann.data.url,
            title: ann.data.title,
          })
      }
    }
  }
  const text = plainText(texts.join('\n'))
  return { present: text.length > 0, text, references: cleanReferences(refs) }
}

export type PromptSubject = { prompt: string; countryCode: string; languageCode: string }

export async function fetchLlmAnswer(engine: LlmEngine, subject: PromptSubject): Promise<ProviderAnswer> {
  const env = getEnv()
  const liveTask = dataForSeoLiveTask({
    apiUrl: env.DATAFORSEO_API_URL,
    login: env.DATAFORSEO_LOGIN ?? '',
    password: env.DATAFORSEO_PASSWORD ?? '',
  })
  const platform = LLM_PLATFORMS[engine]
  const country = findCountry(subject.countryCode)?.iso
  const result = await liveTask(
    `ai_optimization/${platform.path}/llm_responses/live`,
    {
      user_prompt: subject.prompt.slice(0, USER_PROMPT_MAX),
      model_name: platform.model,
      // Perplexity's sonar models search the web by default; the others only when asked.
      ...(engine === 'perplexity' ? {} : { web_search: true }),
      // The country of the web search: documented for ChatGPT's models.
      ...(engine === 'chatgpt' && country && /^[A-Z]{2}$/i.test(country)
        ? { web_search_country_iso_code: country.toUpperCase() }
        : {}),
    },
    // Live LLM tasks take up to 120 s (DataForSEO's documentation): one attempt may use it all.
    { budgetMs: 150_000, attemptTimeoutMs: 125_000 },
  )
  return parseLlmResponse(result[0])
}
