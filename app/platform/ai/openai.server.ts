import OpenAI from 'openai'
import type { z } from 'zod'
import { isRetryableStatus } from '#app/platform/http/http-retry'
import { getEnv } from '#app/platform/env.server'
import { instrumentedFetch } from '#app/platform/observability/metrics.server'

/**
 * The one way the app talks to a language model: the official OpenAI SDK, pointed at OPENAI_BASE_URL when set
 * (so any OpenAI-compatible server works). Structured output uses `json_schema` with strict schemas and is
 * validated again with zod on arrival.
 */
export class AiNotConfiguredError extends Error {
  constructor() {
    super('AI writing is not configured on this server (OPENAI_API_KEY is not set).')
  }
}

export class AiOutputError extends Error {}

let client: OpenAI | undefined
let clientKey = ''

export function openai(opts: { maxRetries?: number; timeoutMs?: number } = {}): OpenAI {
  const env = getEnv()
  if (!env.OPENAI_API_KEY) throw new AiNotConfiguredError()
  const key = `${opts.maxRetries ?? 2}|${opts.timeoutMs ?? 120_000}`
  if (!client || clientKey !== key) {
    client = new OpenAI({
      apiKey: env.OPENAI_API_KEY,
      baseURL: env.OPENAI_BASE_URL,
      maxRetries: opts.maxRetries ?? 2,
      timeout: opts.timeoutMs ?? 120_000,
      // Calls, errors and latency for /metrics (each HTTP attempt of the SDK, retries included).
      fetch: instrumentedFetch('openai'),
    })
    clientKey = key
  }
  return client
}

export function aiConfigured() {
  return Boolean(getEnv().OPENAI_API_KEY)
}

export type AiUsage = { promptTokens: number; completionTokens: number; totalTokens: number }
export type AiResult<T> = { data: T; usage: AiUsage; model: string; ms: number }

type Messages = { system: string; user: string }

function usageOf(completion: OpenAI.Chat.Completions.ChatCompletion): AiUsage {
  return {
    promptTokens: completion.usage?.prompt_tokens ?? 0,
    completionTokens: completion.usage?.completion_tokens ?? 0,
    totalTokens: completion.usage?.total_tokens ?? 0,
  }
}

type ChatOptions = Messages & { temperature?: number; maxRetries?: number; timeoutMs?: number; signal?: AbortSignal }

/** One chat completion; `answer(data)` wraps what the caller made of it with the usage, model and time taken. */
async function complete(
  opts: ChatOptions,
  responseFormat?: OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'],
) {
  const started = Date.now()
  const model = getEnv().OPENAI_MODEL
  const completion = await openai({ maxRetries: opts.maxRetries, timeoutMs: opts.timeoutMs }).chat.completions.create(
    {
      model,
      temperature: opts.temperature ?? 0.7,
      messages: [
        { role: 'system', content: opts.system },
        { role: 'user', content: opts.user },
      ],
      ...(responseFormat ? { response_format: responseFormat } : {}),
    },
    { signal: opts.signal },
  )
  const answer = <T>(data: T): AiResult<T> => ({
    data,
    usage: usageOf(completion),
    model: completion.model || model,
    ms: Date.now() - started,
  })
  return { choice: completion.choices[0], answer }
}

/** A JSON answer that matches `jsonSchema` (strict) and the zod schema `parse`. */
export async function chatJson<S extends z.ZodTypeAny>(
  opts: ChatOptions & { name: string; jsonSchema: Record<string, unknown>; parse: S },
): Promise<AiResult<z.infer<S>>> {
  const { choice, answer } = await complete(opts, {
    type: 'json_schema',
    json_schema: { name: opts.name, strict: true, schema: opts.jsonSchema },
  })
  if (!choice?.message.content) throw new AiOutputError(choice?.message.refusal ?? 'The model returned no content.')
  if (choice.finish_reason === 'length') throw new AiOutputError('The model ran out of tokens before finishing.')
  let raw: unknown
  try {
    raw = JSON.parse(choice.message.content)
  } catch {
    throw new AiOutputError('The model returned malformed JSON.')
  }
  const parsed = opts.parse.safeParse(raw)
  if (!parsed.success)
    throw new AiOutputError(`The model's answer did not match the expected shape: ${parsed.error.message}`)
  return answer(parsed.data as z.infer<S>)
}

/** A plain-text (Markdown) answer. */
export async function chatText(opts: ChatOptions): Promise<AiResult<string>> {
  const { choice, answer } = await complete(opts)
  const content = choice?.message.content
  if (!content) throw new AiOutputError('The model returned no content.')
  return answer(content)
}

/** True for errors that mean "slow down and try later" rather than "this request is broken". */
export function isRetryableAiError(error: unknown) {
  if (error instanceof OpenAI.APIError) {
    if (error.status === 429) return error.code !== 'insufficient_quota'
    return error.status === undefined || isRetryableStatus(error.status) || error.status === 409
  }
  return error instanceof OpenAI.APIConnectionError
}

export function isRateLimitError(error: unknown) {
  return error instanceof OpenAI.APIError && error.status === 429 && error.code !== 'insufficient_quota'
}
