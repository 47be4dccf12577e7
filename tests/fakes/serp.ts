/**
 * The Google organic SERP of the DataForSEO fake (`POST /v3/serp/google/organic/live/advanced`), in the real
 * "advanced" wire shape: a result per task with `items` of type 'organic' (rank_group, rank_absolute, domain,
 * title, url, description, …), 'people_also_ask' (its `items` of type 'people_also_ask_element') and
 * 'related_searches' (its `items` are strings). Deterministic per keyword and market.
 *
 * Issue 36: organic items carry a `timestamp` ("yyyy-mm-dd hh:mm:ss +00:00", UTC: when the page was published) on
 * about two results in three (null on the others, as Google shows no date for them), days to years before today;
 * and the SERP features of the real API, each in its own item type: 'ai_overview' (its `items` of type
 * 'ai_overview_element', `references` of type 'ai_overview_reference'), 'video' (its `items` of type
 * 'video_element') and 'local_pack' (one item per business). Which ones a keyword gets: 'ai_overview' for
 * questions (what, how, why, is, can, best) and for about half of the other keywords; 'video' for "how to",
 * "tutorial" or "video" and about one keyword in four; 'local_pack' for "near me", "local" or "service" and about
 * one in five; a keyword containing "plainserp" gets none of the three (People also ask stays). `item_types`
 * lists every type present.
 *
 * Steering (over /__control/ of the DataForSEO fake):
 *   POST   /__control/serp/place   { keyword, url, position, domain?, title?, description? } — that URL is at that
 *          organic position for that keyword (any market) until moved or removed ({ position: null } removes it);
 *   DELETE /__control/serp/place   removes every placement;
 *   POST   /__control/serp/pages   { baseUrl } — the top 10 of every SERP point at pages of that server (the web
 *          fake), so research can fetch them; { baseUrl: null } restores the default example domains;
 *   POST   /__control/serp/latency { ms } — extra latency of the SERP endpoint only.
 * Failures use the generic /__control/enqueue with path '/serp/' (500s, { hang: true } for a timeout, a string
 * body for junk). A keyword containing "emptyresult" has no organic results.
 *
 * Issue 37: a test scripts a keyword's `ai_overview` item (its text and references, none at all, a task error…) over
 * the AI controls of ./dataforseo-ai.ts (engine 'google_ai_overview'); a task asking `load_async_ai_overview` gets
 * the scripted element with `asynchronous_ai_overview: true` and its content, as DataForSEO answers such a task.
 */
import { hash32, rngFrom, slugify, titleCase } from './text'

export type Placement = { url: string; position: number; domain: string; title: string; description: string }

export interface SerpFakeState {
  placements: Map<string, Placement[]>
  pagesBaseUrl: string | null
  latencyMs: number
  /**
   * Issue 37: a scripted `ai_overview` item for a keyword (./dataforseo-ai.ts, engine 'google_ai_overview'):
   * `{ absent: true }` shows none, `{ item }` shows that one; null keeps the fake's own.
   */
  aiOverview?: (keyword: string) => { absent: true } | { absent: false; item: Record<string, unknown> } | null
}

export function newSerpState(pagesBaseUrl: string | null = null): SerpFakeState {
  return { placements: new Map(), pagesBaseUrl, latencyMs: 0 }
}

export function serpKeyword(k: string): string {
  return k.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ')
}

const SITE_WORDS = ['growth', 'rank', 'search', 'content', 'market', 'digital', 'web', 'insight', 'craft', 'scale']
const SITE_TAILS = ['hub', 'lab', 'guide', 'academy', 'journal', 'works', 'daily', 'review', 'pro', 'central']
const ANGLES = [
  'The Complete Guide',
  'A Beginner’s Guide',
  'Everything You Need to Know',
  'Tips, Tools and Examples',
  'Step by Step',
  'What Works in 2026',
  'Mistakes to Avoid',
  'Expert Advice',
]
const QUESTION_FORMS = ['What is {k}?', 'How does {k} work?', 'Is {k} worth it?', 'How much does {k} cost?']
const RELATED_FORMS = ['{k} tools', 'best {k}', '{k} for beginners', '{k} examples', 'free {k}', '{k} checklist']

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

/** A day count before today (UTC), deterministic per URL; null for about one page in three (no date shown). */
export function publishedDaysAgo(url: string): number | null {
  const h = hash32(`published|${url}`)
  if (h % 3 === 0) return null
  return 2 + (h % 1400)
}

/** The wire format of DataForSEO's timestamps: "2019-11-15 12:57:46 +00:00" (UTC). */
export function wireTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' +00:00')
}

function publishedTimestamp(url: string): string | null {
  const days = publishedDaysAgo(url)
  if (days === null) return null
  const today = new Date()
  const at = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 8, 30, 0) - days * 86_400_000
  return wireTimestamp(new Date(at))
}

/** Which SERP features the fake shows for a keyword (see the header). */
export function serpFeaturesFor(keyword: string): { aiOverview: boolean; video: boolean; localPack: boolean } {
  if (keyword.includes('plainserp')) return { aiOverview: false, video: false, localPack: false }
  const h = hash32(`features|${keyword}`)
  return {
    aiOverview: /^(what|how|why|is|can|best)\b/.test(keyword) || h % 2 === 0,
    video: /\b(how to|tutorial|video)\b/.test(keyword) || (h >>> 3) % 4 === 0,
    localPack: /\b(near me|local|service)\b/.test(keyword) || (h >>> 5) % 5 === 0,
  }
}

function organicItem(
  rank: number,
  entry: { url: string; domain: string; title: string; description: string },
  rankAbsolute: number,
): Record<string, unknown> {
  return {
    type: 'organic',
    rank_group: rank,
    rank_absolute: rankAbsolute,
    page: Math.ceil(rank / 10),
    domain: entry.domain,
    title: entry.title,
    url: entry.url,
    cache_url: null,
    related_search_url: null,
    breadcrumb: `${entry.domain} › ${entry.url.split('/').filter(Boolean).slice(2).join(' › ')}`.trim(),
    website_name: entry.domain.replace(/^www\./, '').split('.')[0],
    is_image: false,
    is_video: false,
    is_featured_snippet: false,
    is_malicious: false,
    is_web_story: false,
    description: entry.description,
    pre_snippet: null,
    extended_snippet: null,
    images: null,
    amp_version: false,
    rating: null,
    price: null,
    highlighted: entry.title.toLowerCase().split(' ').slice(0, 2),
    links: null,
    faq: null,
    extended_people_also_search: null,
    about_this_result: null,
    related_result: null,
    timestamp: publishedTimestamp(entry.url),
    xpath: `/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[2]/div[1]/div[${rank}]`,
    position: 'left',
  }
}

/** The organic results before placements: `depth` entries for the keyword and market. */
function baseOrganic(state: SerpFakeState, keyword: string, market: string, depth: number) {
  const rng = rngFrom(`serp|${market}|${keyword}`)
  const kSlug = slugify(keyword)
  const out: Array<{ url: string; domain: string; title: string; description: string }> = []
  for (let i = 1; i <= depth; i++) {
    const title = `${titleCase(keyword)}: ${ANGLES[(hash32(keyword) + i) % ANGLES.length]}`
    const description = `Learn about ${keyword}: ${rng.pick(['practical steps', 'real examples', 'common mistakes', 'the best tools', 'clear answers'])} and ${rng.pick(['expert tips', 'a free checklist', 'data from 2026', 'what to do next'])}. Updated guide number ${i}.`
    if (state.pagesBaseUrl && i <= 10) {
      const url = `${state.pagesBaseUrl.replace(/\/+$/, '')}/site/${i}/${kSlug}`
      out.push({ url, domain: hostOf(url), title, description })
      continue
    }
    const domain = `www.${SITE_WORDS[(hash32(keyword) + i * 7) % SITE_WORDS.length]}${SITE_TAILS[(i * 3 + (hash32(market) % 10)) % SITE_TAILS.length]}${i}.example`
    out.push({ url: `https://${domain}/blog/${kSlug}`, domain, title, description })
  }
  return out
}

export class SerpTaskError extends Error {
  constructor(
    public code: number,
    message: string,
  ) {
    super(message)
  }
}

/** One `serp/google/organic/live/advanced` task → its result array. */
export function serpTask(state: SerpFakeState, task: Record<string, unknown>): unknown[] {
  if (typeof task.keyword !== 'string' || task.keyword.trim().length === 0)
    throw new SerpTaskError(40501, "Invalid Field: 'keyword'.")
  if (task.keyword.length > 700) throw new SerpTaskError(40501, "Invalid Field: 'keyword'. Too long.")
  const location = task.location_code ?? task.location_name
  const language = task.language_code ?? task.language_name
  if (location === undefined) throw new SerpTaskError(40501, "Invalid Field: 'location_code'.")
  if (language === undefined) throw new SerpTaskError(40501, "Invalid Field: 'language_code'.")
  const depth = Math.max(1, Math.min(700, Number(task.depth ?? 100) || 100))
  const keyword = serpKeyword(task.keyword)
  const market = `${String(location)}|${String(language)}`
  const empty = keyword.includes('emptyresult')

  let organic = empty ? [] : baseOrganic(state, keyword, market, depth)
  const placed = (state.placements.get(keyword) ?? []).slice().sort((a, b) => a.position - b.position)
  const placedUrls = new Set(placed.map((p) => p.url))
  organic = organic.filter((o) => !placedUrls.has(o.url))
  for (const p of placed) {
    const at = Math.min(p.position - 1, organic.length)
    organic.splice(at, 0, { url: p.url, domain: p.domain, title: p.title, description: p.description })
  }
  organic = organic.slice(0, depth)

  const items: Array<Record<string, unknown>> = []
  let absolute = 0
  const words = keyword
  const features = empty ? { aiOverview: false, video: false, localPack: false } : serpFeaturesFor(keyword)
  const scripted = state.aiOverview?.(keyword) ?? null
  if (scripted) features.aiOverview = false
  if (scripted && !scripted.absent) {
    absolute++
    // Asked with load_async_ai_overview, the element comes with its content whatever the flag says.
    items.push({
      ...scripted.item,
      rank_absolute: absolute,
      asynchronous_ai_overview: task.load_async_ai_overview === true,
    })
  }
  if (features.aiOverview) {
    absolute++
    const refs = organic.slice(0, 3).map((o) => ({
      type: 'ai_overview_reference',
      source: o.domain.replace(/^www\./, ''),
      domain: o.domain,
      url: o.url,
      title: o.title,
      text: `What ${o.domain.replace(/^www\./, '')} says about ${words}.`,
    }))
    items.push({
      type: 'ai_overview',
      rank_group: 1,
      rank_absolute: absolute,
      position: 'left',
      xpath: '/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[1]',
      asynchronous_ai_overview: false,
      markdown: `**${titleCase(words)}** in short: a summary from the pages below.`,
      items: [
        {
          type: 'ai_overview_element',
          position: 'left',
          title: titleCase(words),
          text: `${titleCase(words)} in short: a summary from the pages below.`,
          markdown: `**${titleCase(words)}** in short: a summary from the pages below.`,
          links: null,
          images: null,
          references: refs.slice(0, 1),
        },
      ],
      references: refs,
      rectangle: null,
    })
  }
  if (features.localPack) {
    for (let i = 1; i <= 3; i++) {
      absolute++
      const name = `${titleCase(words.split(' ')[0] ?? 'local')} ${['Studio', 'Partners', 'Co'][i - 1]}`
      items.push({
        type: 'local_pack',
        rank_group: i,
        rank_absolute: absolute,
        position: 'left',
        xpath: `/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[2]/div[${i}]`,
        title: name,
        description: `${3 + i} Main St · Open until 6 PM`,
        domain: `${slugify(name)}.example`,
        phone: `+1 555-010${i}`,
        url: `https://${slugify(name)}.example/`,
        is_paid: false,
        rating: { rating_type: 'Max5', value: 4 + i / 10, votes_count: 10 * i + (hash32(words) % 90), rating_max: 5 },
        cid: String(1_000_000_000 + (hash32(`${words}|${i}`) % 900_000_000)),
        rectangle: null,
      })
    }
  }
  organic.forEach((entry, idx) => {
    absolute++
    items.push(organicItem(idx + 1, entry, absolute))
    if (idx === 1) {
      absolute++
      items.push({
        type: 'people_also_ask',
        rank_group: 1,
        rank_absolute: absolute,
        position: 'left',
        xpath: '/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[2]/div[1]/div[3]',
        items: QUESTION_FORMS.map((form, qi) => ({
          type: 'people_also_ask_element',
          title: form.replace('{k}', words),
          seed_question: null,
          xpath: `/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[2]/div[1]/div[3]/div[${qi + 1}]`,
          expanded_element: [
            {
              type: 'people_also_ask_expanded_element',
              featured_title: null,
              url: organic[qi % organic.length]?.url ?? null,
              domain: organic[qi % organic.length]?.domain ?? null,
              title: organic[qi % organic.length]?.title ?? null,
              description: `A short answer about ${words}.`,
              timestamp: null,
              table: null,
            },
          ],
        })),
      })
    }
    if (idx === 3 && features.video) {
      absolute++
      items.push({
        type: 'video',
        rank_group: 1,
        rank_absolute: absolute,
        position: 'left',
        xpath: '/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[2]/div[1]/div[6]',
        items: [1, 2, 3].map((n) => ({
          type: 'video_element',
          source: 'YouTube',
          title: `${titleCase(words)} explained (part ${n})`,
          timestamp: wireTimestamp(new Date(Date.UTC(2026, 0, 1 + ((hash32(words) + n * 37) % 300), 12, 0, 0))),
          url: `https://www.youtube.com/watch?v=${slugify(words).slice(0, 6)}${n}`,
          preview: null,
        })),
        rectangle: null,
      })
    }
  })
  if (!empty) {
    absolute++
    items.push({
      type: 'related_searches',
      rank_group: 1,
      rank_absolute: absolute,
      position: 'left',
      xpath: '/html[1]/body[1]/div[3]/div[1]/div[15]/div[1]/div[4]',
      items: RELATED_FORMS.map((f) => f.replace('{k}', words)),
    })
  }
  const lang = typeof task.language_code === 'string' ? task.language_code : 'en'
  const loc = Number(task.location_code) || 2840
  const q = encodeURIComponent(keyword).replace(/%20/g, '+')
  return [
    {
      keyword,
      type: 'organic',
      se_domain: 'google.com',
      location_code: loc,
      language_code: lang,
      check_url: `https://www.google.com/search?q=${q}&num=${Math.min(depth, 100)}&hl=${lang}&gl=US&gws_rd=cr&ie=UTF-8&oe=UTF-8&uule=w+CAIQIFISCQs2MuSEtepUEUK33kOSuTsc`,
      datetime: new Date()
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' +00:00'),
      spell: null,
      refinement_chips: null,
      item_types: [...new Set(items.map((i) => String(i.type)))],
      se_results_count: empty ? 0 : 1_000_000 + (hash32(keyword) % 90_000_000),
      items_count: items.length,
      items,
    },
  ]
}

/** Handles the SERP control routes; returns null when `sub` is not one of them. */
export function serpControl(
  state: SerpFakeState,
  method: string,
  sub: string,
  body: unknown,
): { status: number; body: unknown } | null {
  const rec = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
  if (sub === 'serp/place' && method === 'DELETE') {
    state.placements.clear()
    return { status: 200, body: { ok: true } }
  }
  if (sub === 'serp/place' && method === 'POST') {
    if (typeof rec.keyword !== 'string' || typeof rec.url !== 'string')
      return { status: 400, body: { error: 'place needs { keyword, url, position }' } }
    const keyword = serpKeyword(rec.keyword)
    const list = (state.placements.get(keyword) ?? []).filter((p) => p.url !== rec.url)
    const position = Number(rec.position)
    if (rec.position !== null && Number.isInteger(position) && position > 0) {
      list.push({
        url: rec.url,
        position,
        domain: typeof rec.domain === 'string' ? rec.domain : hostOf(rec.url),
        title: typeof rec.title === 'string' ? rec.title : `${titleCase(keyword)} | ${hostOf(rec.url)}`,
        description: typeof rec.description === 'string' ? rec.description : `All about ${keyword}.`,
      })
    }
    state.placements.set(keyword, list)
    return { status: 200, body: { ok: true, placements: list } }
  }
  if (sub === 'serp/pages' && method === 'POST') {
    state.pagesBaseUrl = typeof rec.baseUrl === 'string' && rec.baseUrl ? rec.baseUrl : null
    return { status: 200, body: { ok: true, baseUrl: state.pagesBaseUrl } }
  }
  if (sub === 'serp/latency' && method === 'POST') {
    const ms = Number(rec.ms)
    state.latencyMs = Number.isFinite(ms) && ms > 0 ? ms : 0
    return { status: 200, body: { ok: true, ms: state.latencyMs } }
  }
  return null
}
