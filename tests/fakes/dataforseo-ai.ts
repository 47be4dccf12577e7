/**
 * Fake DataForSEO endpoints of issue 37 (AI search visibility), in their real wire shapes (DataForSEO's documentation
 * and its generated clients: SerpGoogleAiModeLiveAdvancedRequestInfo, AiModeAiOverviewInfo and
 * AiModeAiOverviewReferenceInfo; AiOptimizationChatGptLlmResponsesLiveRequestInfo/ResultInfo,
 * BaseAiOptimizationLlmResponseElementItem, LlmMessageSectionInfo, AnnotationInfo). ./dataforseo.ts serves them with
 * the common envelope, authentication and task errors; the organic SERP's `ai_overview` item (./serp.ts) reads the
 * same scripts for engine 'google_ai_overview'.
 *
 *   POST /v3/serp/google/ai_mode/live/advanced: task {keyword (≤ 700), location_code | location_name, language_code |
 *   language_name, device?}; result [{keyword, type: 'ai_mode', se_domain, location_code, language_code, check_url,
 *   datetime, spell, refinement_chips, item_types, se_results_count, items_count, items: [{type: 'ai_overview',
 *   rank_group, rank_absolute, position, xpath, markdown, items: [{type: 'ai_overview_element', title, text,
 *   markdown, links, images, references}], references: [{type: 'ai_overview_reference', position, source, domain,
 *   url, title, text}], rectangle}]}].
 *   POST /v3/ai_optimization/{chat_gpt|claude|gemini|perplexity}/llm_responses/live: task {user_prompt (≤ 500,
 *   required), model_name (required), max_output_tokens?, temperature?, top_p?, web_search?, force_web_search?,
 *   web_search_country_iso_code?, web_search_city?, system_message?, message_chain?, tag?}; result [{model_name,
 *   input_tokens, output_tokens, reasoning_tokens, web_search, money_spent, datetime, items: [{type: 'reasoning',
 *   sections} | {type: 'message', sections: [{type: 'text', text, annotations: [{title, url}] | null}]}],
 *   fan_out_queries}]. `annotations` is null when web_search is not true (as DataForSEO answers).
 *
 * Unscripted subjects get a deterministic answer naming and citing example brands. Tests script answers per engine
 * and subject (the keyword or the prompt, normalised as ./serp.ts does) over /__control/ai/* (see `aiControl`):
 *   POST   /__control/ai/script  { engine?: AiFakeEngine | '*', subject, answer: AiScript } — until cleared;
 *   DELETE /__control/ai/script  clears every script;
 *   POST   /__control/ai/latency { ms } — a delay before every answer of these endpoints (and the SERP's AI
 *          Overview calls, those with load_async_ai_overview): the bench's 300 ms;
 *   GET    /__control/ai/calls   { calls: { 'engine|subject|location|language': n }, total } — every call counted
 *          per unit (failed ones too); DELETE resets the counts.
 * A script's `fail` answers an HTTP 500 (DataForSEO's JSON error), an HTML error page with status 502 ('html'), a
 * proxy's HTML page with status 200 ('html200') or a task error (a DataForSEO status code such as 40501 or 50000),
 * for `failTimes` calls (default: every call); `partial` answers a task that succeeded with parts missing (an AI
 * Overview without items or references; an LLM answer with a reasoning item and an empty message).
 */
import { hash32 } from './text'
import { serpKeyword } from './serp'
import { isRecord, sleep } from './http'
import { languageCodeOut, languageOf, locationCodeOut, locationOf, TaskError, type Endpoint } from './dataforseo-task'

export const AI_FAKE_ENGINES = [
  'google_ai_overview',
  'google_ai_mode',
  'chatgpt',
  'claude',
  'gemini',
  'perplexity',
] as const
export type AiFakeEngine = (typeof AI_FAKE_ENGINES)[number]

export type AiScript = {
  /** The answer's text (plain; the fake adds markdown where the real API gives it). */
  text?: string
  /** The cited sources, in order. */
  references?: Array<{ url: string; title?: string; domain?: string }>
  /** Google showed no AI Overview / AI Mode answer (the LLM engines: an empty answer). */
  absent?: boolean
  fail?: 500 | 'html' | 'html200' | number
  /** How many calls fail (default: all of them); later calls answer `text`/`references`. */
  failTimes?: number
  partial?: boolean
}

export interface AiFakeState {
  scripts: Map<string, AiScript & { failed: number }>
  latencyMs: number
  calls: Map<string, number>
}

export function newAiState(): AiFakeState {
  return { scripts: new Map(), latencyMs: 0, calls: new Map() }
}

export function resetAiState(state: AiFakeState) {
  state.scripts.clear()
  state.calls.clear()
  state.latencyMs = 0
}

export const AI_MODE_PATH = '/v3/serp/google/ai_mode/live/advanced'
export const ORGANIC_PATH = '/v3/serp/google/organic/live/advanced'
const LLM_PLATFORMS: Record<string, AiFakeEngine> = {
  chat_gpt: 'chatgpt',
  claude: 'claude',
  gemini: 'gemini',
  perplexity: 'perplexity',
}
const llmPath = (platform: string) => `/v3/ai_optimization/${platform}/llm_responses/live`

/** The engine a request is for, with its subject and market; null for the other DataForSEO endpoints. */
export function aiUnitOf(path: string, body: unknown) {
  const task = Array.isArray(body) ? body[0] : body
  if (!isRecord(task)) return null
  const market = `${String(task.location_code ?? task.location_name ?? '')}|${String(task.language_code ?? task.language_name ?? '')}`
  if (path === ORGANIC_PATH && task.load_async_ai_overview === true && typeof task.keyword === 'string')
    return { engine: 'google_ai_overview' as const, subject: serpKeyword(task.keyword), market }
  if (path === AI_MODE_PATH && typeof task.keyword === 'string')
    return { engine: 'google_ai_mode' as const, subject: serpKeyword(task.keyword), market }
  for (const [platform, engine] of Object.entries(LLM_PLATFORMS))
    if (path === llmPath(platform) && typeof task.user_prompt === 'string') {
      const country = typeof task.web_search_country_iso_code === 'string' ? task.web_search_country_iso_code : ''
      return { engine, subject: serpKeyword(task.user_prompt), market: `${country}|` }
    }
  return null
}

function scriptFor(state: AiFakeState, engine: AiFakeEngine, subject: string) {
  return state.scripts.get(`${engine}|${subject}`) ?? state.scripts.get(`*|${subject}`)
}

const HTML_ERROR =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>'

/**
 * Before an AI endpoint answers: counts the call for its unit, waits the latency, and answers a scripted HTTP
 * failure. Returns what to send instead of the endpoint's answer, or null to let it answer.
 */
export async function aiPreflight(
  state: AiFakeState,
  path: string,
  body: unknown,
): Promise<{ status: number; json?: unknown; html?: string } | null> {
  const unit = aiUnitOf(path, body)
  if (!unit) return null
  const key = `${unit.engine}|${unit.subject}|${unit.market}`
  state.calls.set(key, (state.calls.get(key) ?? 0) + 1)
  if (state.latencyMs > 0) await sleep(state.latencyMs)
  const script = scriptFor(state, unit.engine, unit.subject)
  if (!script || (script.fail !== 500 && script.fail !== 'html' && script.fail !== 'html200')) return null
  if (script.failTimes !== undefined && script.failed >= script.failTimes) return null
  script.failed++
  if (script.fail === 'html') return { status: 502, html: HTML_ERROR }
  if (script.fail === 'html200') return { status: 200, html: HTML_ERROR }
  return {
    status: 500,
    json: {
      version: '0.1.20250114',
      status_code: 50000,
      status_message: 'Internal Server Error.',
      time: '0 sec.',
      cost: 0,
      tasks_count: 0,
      tasks_error: 0,
      tasks: null,
    },
  }
}

/** A scripted task error (a DataForSEO status code), counted against `failTimes` like the HTTP failures. */
function taskFailure(state: AiFakeState, engine: AiFakeEngine, subject: string) {
  const script = scriptFor(state, engine, subject)
  if (typeof script?.fail !== 'number' || script.fail === 500) return
  if (script.failTimes !== undefined && script.failed >= script.failTimes) return
  script.failed++
  const code = script.fail
  throw new TaskError(
    code,
    code === 40501 ? "Invalid Field: 'keyword'." : code === 40202 ? 'Rate limit exceeded.' : 'Internal Error.',
  )
}

const EXAMPLE_BRANDS = ['Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Wingtip', 'Litware']

/** The answer an unscripted subject gets: two or three example brands named, and their sites cited. */
function defaultAnswer(engine: AiFakeEngine, subject: string): Required<Pick<AiScript, 'text' | 'references'>> {
  const h = hash32(`${engine}|${subject}`)
  const picked = [0, 1, 2].map((i) => EXAMPLE_BRANDS[(h + i * 3) % EXAMPLE_BRANDS.length]!).slice(0, 2 + (h % 2))
  return {
    text: `For ${subject}, people often mention ${picked.join(', ')}. Each has strengths; compare prices and support.`,
    references: picked.map((b) => ({
      url: `https://www.${b.toLowerCase()}.example/${subject.replace(/[^a-z0-9]+/g, '-').slice(0, 40)}`,
      title: `${b}: ${subject}`,
    })),
  }
}

function answerFor(state: AiFakeState, engine: AiFakeEngine, subject: string) {
  const script = scriptFor(state, engine, subject)
  const fallback = defaultAnswer(engine, subject)
  return {
    absent: script?.absent === true,
    partial: script?.partial === true,
    text: script?.text ?? fallback.text,
    references: (script?.references ?? fallback.references).map((r) => ({
      url: r.url,
      title: r.title ?? r.url,
      domain: r.domain ?? hostOf(r.url),
    })),
  }
}

function hostOf(url: string) {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

const wireNow = () =>
  new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' +00:00')

/** The `ai_overview` SERP element (the organic SERP's and AI Mode's), from an answer. */
export function aiOverviewItem(
  answer: { text: string; references: Array<{ url: string; title: string; domain: string }>; partial: boolean },
  opts: { asynchronous?: boolean } = {},
): Record<string, unknown> {
  const references = answer.references.map((r) => ({
    type: 'ai_overview_reference',
    position: 'left',
    source: r.domain.replace(/^www\./, ''),
    domain: r.domain,
    url: r.url,
    title: r.title,
    text: `From ${r.domain.replace(/^www\./, '')}.`,
  }))
  return {
    type: 'ai_overview',
    rank_group: 1,
    rank_absolute: 1,
    position: 'left',
    xpath: '/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[1]',
    ...(opts.asynchronous === undefined ? {} : { asynchronous_ai_overview: opts.asynchronous }),
    markdown: answer.partial ? null : answer.text,
    items: answer.partial
      ? null
      : [
          {
            type: 'ai_overview_element',
            position: 'left',
            title: null,
            text: answer.text,
            markdown: answer.text,
            links: null,
            images: null,
            references: references.slice(0, 1),
          },
        ],
    references: answer.partial ? null : references,
    rectangle: null,
  }
}

/** What the organic SERP's `ai_overview` item should be for a keyword: scripted, or null to keep the fake's own. */
export function scriptedOverview(state: AiFakeState, keyword: string) {
  const script = scriptFor(state, 'google_ai_overview', keyword)
  if (!script) return null
  const answer = answerFor(state, 'google_ai_overview', keyword)
  return answer.absent ? { absent: true as const } : { absent: false as const, item: aiOverviewItem(answer) }
}

/** Throws the scripted task error of an organic SERP call asking for the AI Overview. */
export function organicTaskFailure(state: AiFakeState, task: Record<string, unknown>) {
  if (task.load_async_ai_overview === true && typeof task.keyword === 'string')
    taskFailure(state, 'google_ai_overview', serpKeyword(task.keyword))
}

function aiMode(state: AiFakeState, task: Record<string, unknown>): unknown[] {
  if (typeof task.keyword !== 'string' || task.keyword.trim().length === 0)
    throw new TaskError(40501, "Invalid Field: 'keyword'.")
  if (task.keyword.length > 700) throw new TaskError(40501, "Invalid Field: 'keyword'. Too long.")
  if (!locationOf(task)) throw new TaskError(40501, "Invalid Field: 'location_code'.")
  if (!languageOf(task)) throw new TaskError(40501, "Invalid Field: 'language_code'.")
  const keyword = serpKeyword(task.keyword)
  taskFailure(state, 'google_ai_mode', keyword)
  const answer = answerFor(state, 'google_ai_mode', keyword)
  const items = answer.absent ? [] : [aiOverviewItem(answer)]
  const lang = languageCodeOut(task) ?? 'en'
  return [
    {
      keyword,
      type: 'ai_mode',
      se_domain: 'google.com',
      location_code: locationCodeOut(task),
      language_code: lang,
      check_url: `https://www.google.com/search?q=${encodeURIComponent(keyword)}&udm=50&hl=${lang}`,
      datetime: wireNow(),
      spell: null,
      refinement_chips: null,
      item_types: items.map((i) => i.type),
      se_results_count: 0,
      items_count: items.length,
      items: answer.partial ? null : items,
    },
  ]
}

const MODELS: Record<AiFakeEngine, string> = {
  google_ai_overview: '',
  google_ai_mode: '',
  chatgpt: 'gpt-4.1-mini-2025-04-14',
  claude: 'claude-sonnet-4-20250514',
  gemini: 'gemini-2.5-flash',
  perplexity: 'sonar',
}

function llmResponse(state: AiFakeState, engine: AiFakeEngine, task: Record<string, unknown>): unknown[] {
  if (typeof task.user_prompt !== 'string' || task.user_prompt.trim().length === 0)
    throw new TaskError(40501, "Invalid Field: 'user_prompt'.")
  if (task.user_prompt.length > 500) throw new TaskError(40501, "Invalid Field: 'user_prompt'. Too long.")
  if (typeof task.model_name !== 'string' || task.model_name.trim().length === 0)
    throw new TaskError(40501, "Invalid Field: 'model_name'.")
  const prompt = serpKeyword(task.user_prompt)
  taskFailure(state, engine, prompt)
  const answer = answerFor(state, engine, prompt)
  // Perplexity's sonar models search the web by default; the others only when asked.
  const webSearch = task.web_search === true || engine === 'perplexity'
  const message = {
    type: 'message',
    sections: answer.partial
      ? []
      : [
          {
            type: 'text',
            text: answer.absent ? '' : answer.text,
            annotations: webSearch ? answer.references.map((r) => ({ title: r.title, url: r.url })) : null,
          },
        ],
  }
  return [
    {
      model_name: MODELS[engine] || task.model_name,
      input_tokens: 12 + Math.round(prompt.length / 4),
      output_tokens: Math.round(answer.text.length / 4),
      reasoning_tokens: 0,
      web_search: webSearch,
      money_spent: 0.0009,
      datetime: wireNow(),
      items: answer.partial
        ? [{ type: 'reasoning', sections: [{ type: 'summary_text', text: 'Thinking about the question.' }] }, message]
        : [message],
      fan_out_queries: webSearch ? [prompt] : [],
    },
  ]
}

/** The AI endpoints, spread into the DataForSEO fake's endpoint map (as LABS_ENDPOINTS). */
export function aiEndpoints(state: AiFakeState): Record<string, Endpoint> {
  const endpoints: Record<string, Endpoint> = {
    [AI_MODE_PATH]: {
      api: 'serp',
      fn: 'live',
      se: { se: 'google', se_type: 'ai_mode' },
      run: (task) => aiMode(state, task),
      costPerTask: 0.004,
    },
  }
  for (const [platform, engine] of Object.entries(LLM_PLATFORMS))
    endpoints[llmPath(platform)] = {
      api: 'ai_optimization',
      fn: 'llm_responses',
      se: { se: platform },
      run: (task) => llmResponse(state, engine, task),
      costPerTask: 0.01,
    }
  return endpoints
}

/** The /__control/ai/* routes; null when `sub` is not one of them. */
export function aiControlRoute(
  state: AiFakeState,
  method: string,
  sub: string,
  body: unknown,
): { status: number; body: unknown } | null {
  const rec = isRecord(body) ? body : {}
  if (sub === 'ai/script' && method === 'DELETE') {
    state.scripts.clear()
    return { status: 200, body: { ok: true } }
  }
  if (sub === 'ai/script' && method === 'POST') {
    const engine = typeof rec.engine === 'string' ? rec.engine : '*'
    if (typeof rec.subject !== 'string' || !isRecord(rec.answer) || (engine !== '*' && !isAiEngine(engine)))
      return { status: 400, body: { error: 'script needs { engine?, subject, answer }' } }
    state.scripts.set(`${engine}|${serpKeyword(rec.subject)}`, { ...(rec.answer as AiScript), failed: 0 })
    return { status: 200, body: { ok: true } }
  }
  if (sub === 'ai/latency' && method === 'POST') {
    const ms = Number(rec.ms)
    state.latencyMs = Number.isFinite(ms) && ms > 0 ? ms : 0
    return { status: 200, body: { ok: true, ms: state.latencyMs } }
  }
  if (sub === 'ai/calls' && method === 'GET') {
    const calls = Object.fromEntries(state.calls)
    return { status: 200, body: { calls, total: [...state.calls.values()].reduce((a, b) => a + b, 0) } }
  }
  if (sub === 'ai/calls' && method === 'DELETE') {
    state.calls.clear()
    return { status: 200, body: { ok: true } }
  }
  return null
}

const isAiEngine = (v: string): v is AiFakeEngine => (AI_FAKE_ENGINES as readonly string[]).includes(v)

// --- The client side: tests and the bench steer the fake over HTTP -----------------------------------------------

type Env = Record<string, string | undefined>

export function aiControl(env: Env = process.env) {
  const base = env.FAKE_DATAFORSEO_URL?.replace(/\/+$/, '')
  if (!base) throw new Error('FAKE_DATAFORSEO_URL is not set; start the fakes first')
  const call = async <T>(path: string, method: 'GET' | 'POST' | 'DELETE', body?: unknown) => {
    const res = await fetch(`${base}/__control/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
  return {
    /** The answer of `engine` (every engine when left out) for a keyword or prompt, until cleared. */
    script: (subject: string, answer: AiScript, engine: AiFakeEngine | '*' = '*') =>
      call<{ ok: true }>('ai/script', 'POST', { engine, subject, answer }),
    clearScripts: () => call<{ ok: true }>('ai/script', 'DELETE'),
    latency: (ms: number) => call<{ ok: true }>('ai/latency', 'POST', { ms }),
    /** Calls per unit ('engine|subject|location|language'), failed ones included. */
    calls: () => call<{ calls: Record<string, number>; total: number }>('ai/calls', 'GET'),
    resetCalls: () => call<{ ok: true }>('ai/calls', 'DELETE'),
  }
}
