/**
 * The shared pieces of the fake DataForSEO's endpoints (./dataforseo.ts and the issue-36 endpoint modules beside it):
 * the task type and error, market fields, list checks, filters, ordering and paging as DataForSEO applies them, and
 * the keyword_data shape of DataForSEO Labs.
 */
import { isRecord } from './http'
import { normalizeKeyword, type KeywordIdea } from './keywords'
import { hash32 } from './text'

export type Task = Record<string, unknown>

export class TaskError extends Error {
  constructor(
    public code: number,
    message: string,
  ) {
    super(message)
  }
}

export function locationOf(task: Task): string | undefined {
  if (typeof task.location_code === 'number' || typeof task.location_code === 'string')
    return String(task.location_code)
  if (typeof task.location_name === 'string' && task.location_name.length > 0) return task.location_name
  if (typeof task.location_coordinate === 'string' && task.location_coordinate.length > 0)
    return task.location_coordinate
  return undefined
}

export function languageOf(task: Task): string | undefined {
  if (typeof task.language_code === 'string' && task.language_code.length > 0) return task.language_code
  if (typeof task.language_name === 'string' && task.language_name.length > 0) return task.language_name
  return undefined
}

export function locationCodeOut(task: Task): number | null {
  const v = Number(task.location_code)
  if (Number.isFinite(v) && v > 0) return v
  return task.location_name || task.location_coordinate ? 2840 : null
}

export function languageCodeOut(task: Task): string | null {
  if (typeof task.language_code === 'string') return task.language_code
  if (typeof task.language_name === 'string')
    return task.language_name.toLowerCase().startsWith('english') ? 'en' : task.language_name.slice(0, 2).toLowerCase()
  return null
}

export function stringList(v: unknown, field: string, opts: { max: number; minLen?: number }): string[] {
  if (!Array.isArray(v) || v.length === 0) throw new TaskError(40501, `Invalid Field: '${field}'.`)
  if (v.length > opts.max) throw new TaskError(40501, `Invalid Field: '${field}'. Maximum ${opts.max} elements.`)
  const out: string[] = []
  for (const k of v) {
    if (typeof k !== 'string' || k.trim().length === 0) throw new TaskError(40501, `Invalid Field: '${field}'.`)
    if (/[\u{1F300}-\u{1FAFF}<>{}|\\^]/u.test(k))
      throw new TaskError(40501, `Invalid Field: '${field}'. Keyword contains forbidden symbols.`)
    if (opts.minLen && k.trim().length < opts.minLen)
      throw new TaskError(40501, `Invalid Field: '${field}'. Keyword is too short.`)
    out.push(normalizeKeyword(k))
  }
  return out
}

export const nowStamp = (): string => {
  const d = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1, 8, 12, 33))
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' +00:00')
}

export function keywordInfo(i: KeywordIdea, extraSe = true): Record<string, unknown> {
  return {
    ...(extraSe ? { se_type: 'google' } : {}),
    last_updated_time: nowStamp(),
    competition: i.competition,
    competition_level: i.competitionLevel,
    cpc: i.cpc,
    search_volume: i.searchVolume,
    low_top_of_page_bid: i.lowTopOfPageBid,
    high_top_of_page_bid: i.highTopOfPageBid,
    categories: i.searchVolume === null ? null : [10276, 13418],
    monthly_searches: i.monthly?.map((m) => ({ year: m.year, month: m.month, search_volume: m.searchVolume })) ?? null,
    search_volume_trend: i.searchVolume === null ? null : { monthly: 0, quarterly: 8, yearly: 23 },
  }
}

/**
 * Whether the fake's Labs data knows a keyword's intent (search_intent_info): about four keywords in five, never one
 * containing "intentfail" (whose search_intent call fails, ./dataforseo-labs.ts). The rest need the search_intent call.
 */
export function knowsIntent(keyword: string): boolean {
  return !keyword.includes('intentfail') && hash32(`intent:${keyword}`) % 5 !== 0
}

/**
 * The SERP metadata of a keyword (serp_info, when the task asks include_serp_info), deterministic per keyword:
 * organic always; People also ask, AI Overview, video, images, related searches by the keyword's hash; a local pack
 * for "near me" keywords.
 */
export function serpInfo(i: KeywordIdea, language: string | null): Record<string, unknown> {
  const h = hash32(`serp:${i.keyword}`)
  const types = ['organic']
  if (h % 3 !== 0) types.push('people_also_ask')
  if (i.intent === 'informational' && h % 2 === 0) types.unshift('ai_overview')
  if (h % 4 === 1) types.push('video')
  if (/near me/.test(i.keyword)) types.unshift('local_pack')
  if (h % 5 === 2) types.push('images')
  types.push('related_searches')
  const q = encodeURIComponent(i.keyword)
  return {
    check_url: `https://www.google.com/search?q=${q}&num=100&hl=${language ?? 'en'}&gl=US&gws_rd=cr&ie=UTF-8&oe=UTF-8&uule=w+CAIQIFISCQs2MuSEtepUEUK33kOSuTsc`,
    serp_item_types: types,
    se_results_count: 1000 + (h % 500_000_000),
    last_updated_time: nowStamp(),
  }
}

export function keywordDataInfo(
  i: KeywordIdea,
  location: number | null,
  language: string | null,
  opts: { serpInfo?: boolean } = {},
): Record<string, unknown> {
  return {
    se_type: 'google',
    keyword: i.keyword,
    location_code: location,
    language_code: language,
    keyword_info: keywordInfo(i),
    clickstream_keyword_info: null,
    keyword_properties: {
      se_type: 'google',
      core_keyword: null,
      synonym_clustering_algorithm: 'text_processing',
      keyword_difficulty: i.keywordDifficulty,
      detected_language: language ?? 'en',
      is_another_language: false,
    },
    serp_info: opts.serpInfo ? serpInfo(i, language) : null,
    avg_backlinks_info: null,
    search_intent_info: knowsIntent(i.keyword)
      ? {
          se_type: 'google',
          main_intent: i.intent,
          foreign_intent: i.intent === 'commercial' ? ['transactional'] : null,
          last_updated_time: nowStamp(),
        }
      : null,
  }
}

export function getPath(obj: unknown, path: string): unknown {
  let node: unknown = obj
  for (const p of path.split('.')) {
    if (!isRecord(node)) return undefined
    node = node[p]
  }
  return node
}

export function likeToRegExp(pattern: string): RegExp {
  const esc = pattern
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.')
  return new RegExp(`^${esc}$`, 'i')
}

export function evalCondition(item: unknown, cond: unknown[]): boolean {
  const [path, op, value] = cond
  if (typeof path !== 'string' || typeof op !== 'string') throw new TaskError(40501, "Invalid Field: 'filters'.")
  const v = getPath(item, path)
  switch (op) {
    case '=':
      return v === value
    case '<>':
      return v !== value
    case '<':
      return typeof v === 'number' && typeof value === 'number' && v < value
    case '<=':
      return typeof v === 'number' && typeof value === 'number' && v <= value
    case '>':
      return typeof v === 'number' && typeof value === 'number' && v > value
    case '>=':
      return typeof v === 'number' && typeof value === 'number' && v >= value
    case 'in':
      return Array.isArray(value) && value.includes(v)
    case 'not_in':
      return Array.isArray(value) && !value.includes(v)
    case 'like':
    case 'ilike':
      return typeof v === 'string' && typeof value === 'string' && likeToRegExp(value).test(v)
    case 'not_like':
    case 'not_ilike':
      return typeof v === 'string' && typeof value === 'string' && !likeToRegExp(value).test(v)
    case 'match':
      return typeof v === 'string' && typeof value === 'string' && new RegExp(value, 'i').test(v)
    case 'not_match':
      return typeof v === 'string' && typeof value === 'string' && !new RegExp(value, 'i').test(v)
    default:
      throw new TaskError(40501, `Invalid Field: 'filters'. Unknown operator '${op}'.`)
  }
}

export function evalFilter(item: unknown, filter: unknown): boolean {
  if (!Array.isArray(filter) || filter.length === 0) return true
  if (typeof filter[0] === 'string' && typeof filter[1] === 'string' && !Array.isArray(filter[0])) {
    return evalCondition(item, filter)
  }
  let result = evalFilter(item, filter[0])
  for (let i = 1; i + 1 < filter.length; i += 2) {
    const op = String(filter[i]).toLowerCase()
    const next = evalFilter(item, filter[i + 1])
    result = op === 'or' ? result || next : result && next
  }
  return result
}

export function applyOrder(items: Array<Record<string, unknown>>, orderBy: unknown): void {
  if (!Array.isArray(orderBy) || orderBy.length === 0) return
  const rules = orderBy
    .filter((o): o is string => typeof o === 'string')
    .map((o) => {
      const [path, dir] = o.split(',')
      return { path: path.trim(), desc: (dir ?? 'asc').trim().toLowerCase() === 'desc' }
    })
  items.sort((a, b) => {
    for (const r of rules) {
      const va = getPath(a, r.path)
      const vb = getPath(b, r.path)
      if (va === vb) continue
      if (va === null || va === undefined) return 1
      if (vb === null || vb === undefined) return -1
      const cmp = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb))
      if (cmp !== 0) return r.desc ? -cmp : cmp
    }
    return 0
  })
}

export function paginate<T>(items: T[], task: Task, defaultLimit: number): { page: T[]; offset: number } {
  const limit = Math.max(1, Math.min(1000, Number(task.limit ?? defaultLimit) || defaultLimit))
  const offset = Math.max(0, Number(task.offset ?? 0) || 0)
  return { page: items.slice(offset, offset + limit), offset }
}

export function market(task: Task): string {
  return `${locationOf(task) ?? 'worldwide'}|${languageOf(task) ?? 'any'}`
}

export interface Endpoint {
  api: string
  fn: string
  se: Record<string, string>
  run: (task: Task) => unknown[]
  costPerTask: number
}
