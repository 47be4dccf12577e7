/**
 * Fake DataForSEO v3 (Basic auth, JSON array of tasks, envelope with per-task status codes).
 *
 * Endpoints:
 *   POST /v3/dataforseo_labs/google/keyword_ideas/live
 *   POST /v3/dataforseo_labs/google/related_keywords/live
 *   POST /v3/dataforseo_labs/google/bulk_keyword_difficulty/live
 *   POST /v3/keywords_data/google_ads/keywords_for_keywords/live
 *   POST /v3/keywords_data/google_ads/search_volume/live
 *   POST /v3/serp/google/organic/live/advanced (see ./serp.ts, with its /__control/serp/* routes)
 *   and the issue-36 endpoints of ./dataforseo-labs.ts (search_intent), -domains.ts and -backlinks.ts;
 *   and the issue-37 endpoints of ./dataforseo-ai.ts (AI Mode SERP, the LLM Responses of ChatGPT, Claude, Gemini,
 *   Perplexity) with its /__control/ai/* routes (scripted answers, failures, latency, calls per unit).
 * A seed containing "emptyresult" yields zero items. keyword_ideas answers serp_info when asked include_serp_info;
 * about one keyword in five comes without search_intent_info (and every keyword containing "intentfail").
 */
import { randomBytes } from 'node:crypto'
import {
  basicCredentials,
  isRecord,
  sendHtml,
  sendJson,
  startFakeServer,
  type FakeHandle,
  type FakeOptions,
  type FakeRequest,
  sleep,
} from './http'
import {
  applyOrder,
  evalFilter,
  keywordDataInfo,
  languageCodeOut,
  languageOf,
  locationCodeOut,
  locationOf,
  market,
  paginate,
  stringList,
  TaskError,
  type Endpoint,
  type Task,
} from './dataforseo-task'
import { LABS_ENDPOINTS } from './dataforseo-labs'
import { DOMAIN_ENDPOINTS } from './dataforseo-domains'
import { BACKLINKS_ENDPOINTS } from './dataforseo-backlinks'
import { newSerpState, serpControl, serpTask, SerpTaskError } from './serp'
import {
  aiControlRoute,
  aiEndpoints,
  aiPreflight,
  newAiState,
  organicTaskFailure,
  resetAiState,
  scriptedOverview,
} from './dataforseo-ai'
import { generateIdeas, isEmptySeed, keywordMetrics, normalizeKeyword, type KeywordIdea } from './keywords'

export interface DataForSeoOptions extends FakeOptions {
  /** When set, only this login/password pair is accepted; otherwise any non-empty pair. */
  login?: string
  password?: string
  /** Base URL of the web fake: the top 10 of every SERP point at its pages. */
  pagesBaseUrl?: string
}

export type DataForSeoFakeHandle = FakeHandle

const VERSION = '0.1.20250114'

interface TaskResult {
  id: string
  status_code: number
  status_message: string
  time: string
  cost: number
  result_count: number
  path: string[]
  data: Record<string, unknown>
  result: unknown[] | null
}

function taskId(): string {
  const d = new Date()
  const p = (n: number, l = 2) => String(n).padStart(l, '0')
  const hex = randomBytes(8).toString('hex')
  return `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}-${p(1000 + Math.floor(Math.random() * 8999), 4)}-0${hex.slice(0, 3)}-0000-${hex.slice(4, 16)}`
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(4)} sec.`
}

function envelope(
  tasks: TaskResult[],
  startedAt: number,
  statusCode = 20000,
  statusMessage = 'Ok.',
): Record<string, unknown> {
  const cost = Math.round(tasks.reduce((s, t) => s + t.cost, 0) * 10000) / 10000
  return {
    version: VERSION,
    status_code: statusCode,
    status_message: statusMessage,
    time: secs(Date.now() - startedAt + 120),
    cost,
    tasks_count: tasks.length,
    tasks_error: tasks.filter((t) => t.status_code >= 40000).length,
    tasks,
  }
}

// --- endpoint implementations ------------------------------------------------

function keywordIdeas(task: Task): unknown[] {
  const seeds = stringList(task.keywords, 'keywords', { max: 200, minLen: 3 })
  if (!locationOf(task)) throw new TaskError(40501, "Invalid Field: 'location_code'.")
  const loc = locationCodeOut(task)
  const lang = languageCodeOut(task)
  const withSerp = { serpInfo: task.include_serp_info === true }
  let items = generateIdeas(seeds, market(task)).map((i) => keywordDataInfo(i, loc, lang, withSerp))
  if (task.filters !== undefined) items = items.filter((i) => evalFilter(i, task.filters))
  applyOrder(items, task.order_by)
  const { page, offset } = paginate(items, task, 700)
  return [
    {
      se_type: 'google',
      seed_keywords: seeds,
      location_code: loc,
      language_code: lang,
      total_count: items.length,
      items_count: page.length,
      offset,
      offset_token: page.length > 0 ? randomBytes(24).toString('base64url') : null,
      items: page,
    },
  ]
}

function relatedKeywords(task: Task): unknown[] {
  if (typeof task.keyword !== 'string' || task.keyword.trim().length === 0)
    throw new TaskError(40501, "Invalid Field: 'keyword'.")
  if (!locationOf(task)) throw new TaskError(40501, "Invalid Field: 'location_code'.")
  if (!languageOf(task)) throw new TaskError(40501, "Invalid Field: 'language_code'.")
  const seed = normalizeKeyword(task.keyword)
  const loc = locationCodeOut(task)
  const lang = languageCodeOut(task)
  const depth = Math.max(0, Math.min(4, Number(task.depth ?? 1)))
  if (isEmptySeed([seed])) {
    return [
      {
        se_type: 'google',
        seed_keyword: seed,
        seed_keyword_data: null,
        location_code: loc,
        language_code: lang,
        total_count: 0,
        items_count: 0,
        offset: 0,
        offset_token: null,
        items: [],
      },
    ]
  }
  const all = generateIdeas([seed], market(task))
  const max = [1, 8, 72, 584, 4680][depth]
  const ideas = all.filter((i) => (task.include_seed_keyword === true ? true : i.depth > 0)).slice(0, max)
  let items: Array<Record<string, unknown>> = ideas.map((i, idx) => ({
    se_type: 'google',
    keyword_data: keywordDataInfo(i, loc, lang),
    depth: i.depth === 0 ? 0 : Math.min(depth, 1 + Math.floor(idx / 8)),
    related_keywords: all
      .filter((o) => o.keyword !== i.keyword)
      .slice(idx % 5, (idx % 5) + 6)
      .map((o) => o.keyword),
  }))
  if (task.filters !== undefined) items = items.filter((i) => evalFilter(i, task.filters))
  applyOrder(items, task.order_by ?? ['keyword_data.keyword_info.search_volume,desc'])
  const { page, offset } = paginate(items, task, 100)
  const seedData = keywordMetrics(seed, market(task), 0, seed)
  return [
    {
      se_type: 'google',
      seed_keyword: seed,
      seed_keyword_data: keywordDataInfo(seedData, loc, lang),
      location_code: loc,
      language_code: lang,
      total_count: items.length,
      items_count: page.length,
      offset,
      offset_token: page.length > 0 ? randomBytes(24).toString('base64url') : null,
      items: page,
    },
  ]
}

function bulkKeywordDifficulty(task: Task): unknown[] {
  const keywords = stringList(task.keywords, 'keywords', { max: 1000 })
  if (!locationOf(task)) throw new TaskError(40501, "Invalid Field: 'location_code'.")
  if (!languageOf(task)) throw new TaskError(40501, "Invalid Field: 'language_code'.")
  const loc = locationCodeOut(task)
  const lang = languageCodeOut(task)
  const items = isEmptySeed(keywords)
    ? []
    : keywords.map((k) => ({
        se_type: 'google',
        keyword: k,
        keyword_difficulty: keywordMetrics(k, market(task), 1).keywordDifficulty,
      }))
  return [
    {
      se_type: 'google',
      location_code: loc,
      language_code: lang,
      total_count: items.length,
      items_count: items.length,
      items,
    },
  ]
}

function adsRow(i: KeywordIdea, task: Task): Record<string, unknown> {
  const hasData = i.searchVolume !== null
  return {
    keyword: i.keyword,
    location_code: hasData ? locationCodeOut(task) : null,
    language_code: hasData ? languageCodeOut(task) : null,
    search_partners: task.search_partners === true,
    competition: i.competitionLevel,
    competition_index: i.competitionIndex,
    search_volume: i.searchVolume,
    low_top_of_page_bid: i.lowTopOfPageBid,
    high_top_of_page_bid: i.highTopOfPageBid,
    cpc: i.cpc,
    monthly_searches:
      i.monthly?.map((m) => ({ year: m.year, month: m.month, search_volume: m.searchVolume })).reverse() ?? null,
    keyword_annotations: null,
  }
}

function adsSort(rows: Array<Record<string, unknown>>, sortBy: unknown): void {
  const key =
    sortBy === 'search_volume'
      ? 'search_volume'
      : sortBy === 'competition_index'
        ? 'competition_index'
        : sortBy === 'low_top_of_page_bid'
          ? 'low_top_of_page_bid'
          : sortBy === 'high_top_of_page_bid'
            ? 'high_top_of_page_bid'
            : undefined
  if (key) applyOrder(rows, [`${key},desc`])
}

function keywordsForKeywords(task: Task): unknown[] {
  const seeds = stringList(task.keywords, 'keywords', { max: 20 })
  if (seeds.some((k) => k.length > 80)) throw new TaskError(40501, "Invalid Field: 'keywords'. Keyword is too long.")
  const rows = generateIdeas(seeds, market(task)).map((i) => adsRow(i, task))
  adsSort(rows, task.sort_by)
  return rows
}

function searchVolume(task: Task): unknown[] {
  const keywords = stringList(task.keywords, 'keywords', { max: 1000 })
  if (isEmptySeed(keywords)) return []
  const rows = keywords.map((k) => adsRow(keywordMetrics(k, market(task), 0), task))
  adsSort(rows, task.sort_by)
  return rows
}

const ENDPOINTS: Record<string, Endpoint> = {
  '/v3/dataforseo_labs/google/keyword_ideas/live': {
    api: 'dataforseo_labs',
    fn: 'keyword_ideas',
    se: { se_type: 'google' },
    run: keywordIdeas,
    costPerTask: 0.01,
  },
  '/v3/dataforseo_labs/google/related_keywords/live': {
    api: 'dataforseo_labs',
    fn: 'related_keywords',
    se: { se_type: 'google' },
    run: relatedKeywords,
    costPerTask: 0.01,
  },
  '/v3/dataforseo_labs/google/bulk_keyword_difficulty/live': {
    api: 'dataforseo_labs',
    fn: 'bulk_keyword_difficulty',
    se: { se_type: 'google' },
    run: bulkKeywordDifficulty,
    costPerTask: 0.01,
  },
  '/v3/keywords_data/google_ads/keywords_for_keywords/live': {
    api: 'keywords_data',
    fn: 'keywords_for_keywords',
    se: { se: 'google_ads' },
    run: keywordsForKeywords,
    costPerTask: 0.075,
  },
  '/v3/keywords_data/google_ads/search_volume/live': {
    api: 'keywords_data',
    fn: 'search_volume',
    se: { se: 'google_ads' },
    run: searchVolume,
    costPerTask: 0.075,
  },
}

const SERP_PATH = '/v3/serp/google/organic/live/advanced'

export async function startDataForSeo(opts: DataForSeoOptions = {}): Promise<DataForSeoFakeHandle> {
  const serp = newSerpState(opts.pagesBaseUrl ?? null)
  const ai = newAiState()
  serp.aiOverview = (keyword) => scriptedOverview(ai, keyword)
  const endpoints: Record<string, Endpoint> = {
    ...ENDPOINTS,
    ...aiEndpoints(ai),
    ...LABS_ENDPOINTS,
    ...DOMAIN_ENDPOINTS,
    ...BACKLINKS_ENDPOINTS,
    [SERP_PATH]: {
      api: 'serp',
      fn: 'live',
      se: { se: 'google', se_type: 'organic' },
      run: (task) => {
        try {
          organicTaskFailure(ai, task)
          return serpTask(serp, task)
        } catch (error) {
          if (error instanceof SerpTaskError) throw new TaskError(error.code, error.message)
          throw error
        }
      },
      costPerTask: 0.002,
    },
  }
  function authorized(ctx: FakeRequest): boolean {
    const creds = basicCredentials(ctx.headers)
    if (!creds || creds.user.length === 0 || creds.pass.length === 0) return false
    if (opts.login !== undefined && creds.user !== opts.login) return false
    if (opts.password !== undefined && creds.pass !== opts.password) return false
    return true
  }

  function runTask(ep: Endpoint, path: string, task: unknown, extra: boolean): TaskResult {
    const started = Date.now()
    const pathParts = path.split('/').filter(Boolean)
    const data = { api: ep.api, function: ep.fn, ...ep.se, ...(isRecord(task) ? task : {}) }
    const base = { id: taskId(), path: pathParts, data }
    if (extra) {
      return {
        ...base,
        status_code: 40000,
        status_message: 'You can set only one task at a time.',
        time: '0 sec.',
        cost: 0,
        result_count: 0,
        result: null,
      }
    }
    try {
      if (!isRecord(task)) throw new TaskError(40501, "Invalid Field: 'task'.")
      const result = ep.run(task)
      const itemCount = result.reduce<number>(
        (n, r) => n + (isRecord(r) && Array.isArray(r.items) ? r.items.length : 1),
        0,
      )
      return {
        ...base,
        status_code: 20000,
        status_message: 'Ok.',
        time: secs(Date.now() - started + 80),
        cost: Math.round((ep.costPerTask + itemCount * 0.0001) * 10000) / 10000,
        result_count: result.length,
        result,
      }
    } catch (err) {
      if (err instanceof TaskError) {
        return {
          ...base,
          status_code: err.code,
          status_message: err.message,
          time: secs(Date.now() - started),
          cost: 0,
          result_count: 0,
          result: null,
        }
      }
      throw err
    }
  }

  const handle = await startFakeServer(
    {
      name: 'dataforseo',
      control: (ctx, sub) => {
        const answer = serpControl(serp, ctx.method, sub, ctx.body) ?? aiControlRoute(ai, ctx.method, sub, ctx.body)
        if (!answer) return false
        sendJson(ctx.res, answer.status, answer.body)
        return true
      },
      onReset: () => {
        const fresh = newSerpState(opts.pagesBaseUrl ?? null)
        serp.placements = fresh.placements
        serp.pagesBaseUrl = fresh.pagesBaseUrl
        serp.latencyMs = 0
        resetAiState(ai)
      },
      defaultErrorBody: (status) => ({
        version: VERSION,
        status_code:
          status === 401 ? 40100 : status === 402 ? 40200 : status === 404 ? 40400 : status === 429 ? 40202 : 50000,
        status_message:
          status === 401
            ? 'You are not authorized to access this resource.'
            : status === 402
              ? 'Payment Required.'
              : status === 404
                ? 'Not Found.'
                : status === 429
                  ? 'Rate limit per minute exceeded.'
                  : 'Internal Server Error.',
        time: '0 sec.',
        cost: 0,
        tasks_count: 0,
        tasks_error: 0,
        tasks: null,
      }),
      handler: async (ctx) => {
        const started = Date.now()
        const path = ctx.path.replace(/\/+$/, '')
        if (!authorized(ctx)) {
          sendJson(ctx.res, 401, {
            version: VERSION,
            status_code: 40100,
            status_message: 'You are not authorized to access this resource.',
            time: '0 sec.',
            cost: 0,
            tasks_count: 0,
            tasks_error: 0,
            tasks: null,
          })
          return
        }
        const ep = endpoints[path]
        if (path === SERP_PATH && serp.latencyMs > 0) await sleep(serp.latencyMs)
        const failure = ctx.method === 'POST' ? await aiPreflight(ai, path, ctx.body) : null
        if (failure?.html !== undefined) {
          sendHtml(ctx.res, failure.status, failure.html)
          return
        }
        if (failure) {
          sendJson(ctx.res, failure.status, failure.json)
          return
        }
        if (!ep || ctx.method !== 'POST') {
          sendJson(ctx.res, 404, {
            version: VERSION,
            status_code: 40400,
            status_message: 'Not Found.',
            time: '0 sec.',
            cost: 0,
            tasks_count: 0,
            tasks_error: 0,
            tasks: null,
          })
          return
        }
        let tasks: unknown[]
        if (Array.isArray(ctx.body)) tasks = ctx.body
        else if (isRecord(ctx.body)) tasks = [ctx.body]
        else {
          sendJson(ctx.res, 200, envelope([], started, 40501, "Invalid Field: 'body'. Expected a JSON array of tasks."))
          return
        }
        if (tasks.length === 0) {
          sendJson(ctx.res, 200, envelope([], started, 40501, "Invalid Field: 'tasks'. No tasks were sent."))
          return
        }
        const results = tasks.map((t, i) => runTask(ep, path, t, i > 0))
        sendJson(ctx.res, 200, envelope(results, started))
      },
    },
    opts,
  )
  const { server: _server, ...rest } = handle
  return rest
}
