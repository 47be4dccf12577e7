/**
 * Fake DataForSEO Labs domain endpoints added by issue 36 (ranked_keywords, domain_intersection), in their real wire
 * shapes (DataForSEO's documentation: DataforseoLabsGoogleRankedKeywordsLive{RequestInfo,ResultInfo,Item},
 * RankedSerpElement, the organic Labs SERP element, DataforseoLabsGoogleDomainIntersectionLive{RequestInfo,ResultInfo,
 * Item}). Each entry maps a path to its task runner; ./dataforseo.ts serves them with the common envelope,
 * authentication and task errors.
 *
 * Deterministic per domain: a domain ranks for the first 12 ideas of its name's words (acme-garden.com → "acme
 * garden"), at the positions of FAKE_RANKED_POSITIONS in that order (several in striking distance, 4-20), with the
 * page https://<domain>/<keyword-slug>/. `fakeDomainKeywords(domain, market)` gives a test the same list.
 * A target containing "unknown" ranks for nothing (a target DataForSEO has no data for: an empty result); one
 * containing "taskerror" answers a task error (40501). A failing provider (an HTML 500 page, a timeout) is the generic
 * `/__control/enqueue` of ./http.ts.
 */
import {
  applyOrder,
  evalFilter,
  keywordDataInfo,
  languageCodeOut,
  languageOf,
  locationCodeOut,
  locationOf,
  market,
  nowStamp,
  paginate,
  TaskError,
  type Endpoint,
  type Task,
} from './dataforseo-task'
import { generateIdeas, type KeywordIdea } from './keywords'

/** The positions of a domain's keywords, in the order of its ideas: 6 of the 12 are in striking distance (4-20). */
export const FAKE_RANKED_POSITIONS = [2, 5, 8, 11, 14, 17, 19, 23, 31, 47, 1, 64] as const

export type FakeRankedKeyword = { idea: KeywordIdea; position: number; url: string }

function seedOf(domain: string): string {
  const name = domain.replace(/^www\./, '').split('.')[0] ?? domain
  return name.replace(/[-_]+/g, ' ').trim()
}

const slug = (keyword: string) =>
  keyword
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** What the fake says `domain` ranks for in a market ("<location_code>|<language_code>", as `market(task)` makes it). */
export function fakeDomainKeywords(domain: string, marketKey: string): FakeRankedKeyword[] {
  if (domain.includes('unknown')) return []
  const seed = seedOf(domain)
  if (seed.length < 3) return []
  return generateIdeas([seed], marketKey)
    .slice(0, FAKE_RANKED_POSITIONS.length)
    .map((idea, i) => ({ idea, position: FAKE_RANKED_POSITIONS[i]!, url: `https://${domain}/${slug(idea.keyword)}/` }))
}

function target(task: Task, field: string): string {
  const v = task[field]
  if (typeof v !== 'string' || v.trim().length === 0) throw new TaskError(40501, `Invalid Field: '${field}'.`)
  const t = v.trim().toLowerCase()
  if (t.includes('taskerror') || /\s/.test(t)) throw new TaskError(40501, `Invalid Field: '${field}'.`)
  return t.replace(/^https?:\/\//, '').replace(/^www\./, '')
}

function itemTypes(task: Task): string[] {
  if (task.item_types === undefined) return ['organic', 'paid']
  if (!Array.isArray(task.item_types) || task.item_types.some((t) => typeof t !== 'string'))
    throw new TaskError(40501, "Invalid Field: 'item_types'.")
  return task.item_types as string[]
}

function checkLimits(task: Task): void {
  if (task.limit !== undefined && (typeof task.limit !== 'number' || task.limit < 1 || task.limit > 1000))
    throw new TaskError(40501, "Invalid Field: 'limit'.")
  if (task.order_by !== undefined && (!Array.isArray(task.order_by) || task.order_by.length > 3))
    throw new TaskError(40501, "Invalid Field: 'order_by'.")
}

/** One organic SERP element of DataForSEO Labs (the fields of its documentation). */
function serpElement(r: FakeRankedKeyword, domain: string): Record<string, unknown> {
  const volume = r.idea.searchVolume ?? 0
  const ctr = r.position <= 3 ? 0.2 : r.position <= 10 ? 0.05 : 0.01
  const etv = Math.round(volume * ctr * 100) / 100
  const relative = new URL(r.url).pathname
  return {
    se_type: 'google',
    type: 'organic',
    rank_group: r.position,
    rank_absolute: r.position + (r.position > 3 ? 2 : 0),
    position: 'left',
    xpath: `/html[1]/body[1]/div[2]/div[1]/div[${r.position}]`,
    domain,
    title: `${r.idea.keyword.replace(/\b\w/g, (c) => c.toUpperCase())} | ${domain}`,
    url: r.url,
    breadcrumb: `https://${domain} › ${relative.replace(/^\/|\/$/g, '')}`,
    website_name: domain,
    is_image: false,
    is_video: false,
    is_featured_snippet: false,
    is_malicious: false,
    description: `Everything about ${r.idea.keyword}.`,
    pre_snippet: null,
    extended_snippet: null,
    amp_version: false,
    rating: null,
    highlighted: [r.idea.keyword],
    links: null,
    about_this_result: null,
    main_domain: domain,
    relative_url: relative,
    etv,
    estimated_paid_traffic_cost: r.idea.cpc === null ? null : Math.round(etv * r.idea.cpc * 100) / 100,
    clickstream_etv: null,
    rank_changes: { previous_rank_absolute: null, is_new: false, is_up: false, is_down: false },
    backlinks_info: null,
    rank_info: null,
  }
}

function rankedKeywords(task: Task): unknown[] {
  const domain = target(task, 'target')
  checkLimits(task)
  const types = itemTypes(task)
  const loc = locationCodeOut(task)
  const lang = languageCodeOut(task)
  const key = locationOf(task) || languageOf(task) ? market(task) : 'worldwide|any'
  const ranked = types.includes('organic') ? fakeDomainKeywords(domain, key) : []
  let items: Array<Record<string, unknown>> = ranked.map((r) => ({
    se_type: 'google',
    keyword_data: keywordDataInfo(r.idea, loc, lang),
    ranked_serp_element: {
      se_type: 'google',
      serp_item: serpElement(r, domain),
      check_url: `https://www.google.com/search?q=${encodeURIComponent(r.idea.keyword)}&num=100&hl=${lang ?? 'en'}&gl=US`,
      serp_item_types: ['organic', 'people_also_ask', 'related_searches'],
      se_results_count: 1000 + (r.idea.searchVolume ?? 0) * 37,
      keyword_difficulty: r.idea.keywordDifficulty,
      is_lost: false,
      last_updated_time: nowStamp(),
      previous_updated_time: nowStamp(),
    },
  }))
  if (task.filters !== undefined) items = items.filter((i) => evalFilter(i, task.filters))
  applyOrder(items, task.order_by ?? ['ranked_serp_element.serp_item.rank_group,asc'])
  const { page } = paginate(items, task, 100)
  const organicCount = (lo: number, hi: number) => ranked.filter((r) => r.position >= lo && r.position <= hi).length
  return [
    {
      se_type: 'google',
      target: domain,
      location_code: loc,
      language_code: lang,
      total_count: items.length,
      items_count: page.length,
      metrics: {
        organic: {
          pos_1: organicCount(1, 1),
          pos_2_3: organicCount(2, 3),
          pos_4_10: organicCount(4, 10),
          pos_11_20: organicCount(11, 20),
          pos_21_30: organicCount(21, 30),
          pos_31_40: organicCount(31, 40),
          pos_41_50: organicCount(41, 50),
          pos_51_60: organicCount(51, 60),
          pos_61_70: organicCount(61, 70),
          pos_71_80: organicCount(71, 80),
          pos_81_90: organicCount(81, 90),
          pos_91_100: organicCount(91, 100),
          etv: 0,
          count: ranked.length,
          is_new: 0,
          is_up: 0,
          is_down: 0,
          is_lost: 0,
        },
        paid: null,
      },
      metrics_absolute: null,
      items: page,
    },
  ]
}

function domainIntersection(task: Task): unknown[] {
  const first = target(task, 'target1')
  const second = target(task, 'target2')
  if (!locationOf(task)) throw new TaskError(40501, "Invalid Field: 'location_code'.")
  if (!languageOf(task)) throw new TaskError(40501, "Invalid Field: 'language_code'.")
  checkLimits(task)
  const types = itemTypes(task)
  const loc = locationCodeOut(task)
  const lang = languageCodeOut(task)
  const key = market(task)
  const firstRanked = types.includes('organic') ? fakeDomainKeywords(first, key) : []
  const secondRanked = new Map(
    (types.includes('organic') ? fakeDomainKeywords(second, key) : []).map((r) => [r.idea.keyword, r]),
  )
  const both = task.intersections !== false
  let items: Array<Record<string, unknown>> = firstRanked
    .filter((r) => secondRanked.has(r.idea.keyword) === both)
    .map((r) => {
      const other = secondRanked.get(r.idea.keyword)
      return {
        se_type: 'google',
        keyword_data: keywordDataInfo(r.idea, loc, lang),
        first_domain_serp_element: serpElement(r, first),
        second_domain_serp_element: both && other ? serpElement(other, second) : null,
      }
    })
  if (task.filters !== undefined) items = items.filter((i) => evalFilter(i, task.filters))
  applyOrder(items, task.order_by ?? ['keyword_data.keyword_info.search_volume,desc'])
  const { page } = paginate(items, task, 100)
  return [
    {
      se_type: 'google',
      target_1: first,
      target_2: second,
      location_code: loc,
      language_code: lang,
      total_count: items.length,
      items_count: page.length,
      items: page,
    },
  ]
}

export const DOMAIN_ENDPOINTS: Record<string, Endpoint> = {
  '/v3/dataforseo_labs/google/ranked_keywords/live': {
    api: 'dataforseo_labs',
    fn: 'ranked_keywords',
    se: { se_type: 'google' },
    run: rankedKeywords,
    costPerTask: 0.01,
  },
  '/v3/dataforseo_labs/google/domain_intersection/live': {
    api: 'dataforseo_labs',
    fn: 'domain_intersection',
    se: { se_type: 'google' },
    run: domainIntersection,
    costPerTask: 0.01,
  },
}
