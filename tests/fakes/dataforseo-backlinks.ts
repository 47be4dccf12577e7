/**
 * Fake DataForSEO Backlinks endpoints added by issue 36 (bulk_ranks), in their real wire shapes. Each entry maps a
 * path to its task runner; ./dataforseo.ts serves them with the common envelope, authentication and task errors.
 *
 * `POST /v3/backlinks/bulk_ranks/live`: a task `{ targets: string[] (1-1000 domains, subdomains or absolute page
 * URLs), rank_scale?: 'one_thousand' | 'one_hundred', tag? }` → one result `{ items_count, items: [{ target, rank }] }`,
 * one item per target in the order asked. Ranks are deterministic: well-known big sites (wikipedia.org, youtube.com,
 * reddit.com, forbes.com…) rank high (700-990 on the 0-1000 scale), every other domain gets 40-420 from a hash of
 * its name (a 'www.' prefix is not part of the name), and a target containing "nolinks" has rank 0.
 * Task errors as the real API answers them: no or empty `targets`, more than 1000, an empty target, an unknown
 * `rank_scale` → 40501. Failures of the whole endpoint use /__control/enqueue with path '/backlinks/'.
 */
import { hash32 } from './text'
import { TaskError, type Endpoint, type Task } from './dataforseo-task'

/** Ranks (0-1000) of well-known sites: high, as in the real index. */
export const WELL_KNOWN_RANKS: Record<string, number> = {
  'youtube.com': 990,
  'wikipedia.org': 985,
  'en.wikipedia.org': 960,
  'amazon.com': 950,
  'reddit.com': 930,
  'linkedin.com': 930,
  'nytimes.com': 900,
  'forbes.com': 880,
  'medium.com': 860,
  'quora.com': 840,
  'stackoverflow.com': 850,
  'hubspot.com': 820,
  'healthline.com': 800,
  'investopedia.com': 790,
  'shopify.com': 780,
  'nerdwallet.com': 760,
  'g2.com': 740,
  'capterra.com': 720,
}

/** The fake's rank of one target on the 0-1000 scale. */
export function fakeDomainRank(target: string): number {
  let host = target.trim().toLowerCase()
  if (/^https?:\/\//.test(host)) {
    try {
      host = new URL(host).hostname
    } catch {
      /* keep as given */
    }
  }
  host = host.replace(/^www\./, '').replace(/\.$/, '')
  if (host.includes('nolinks')) return 0
  const known = WELL_KNOWN_RANKS[host]
  if (known !== undefined) return known
  return 40 + (hash32(`rank|${host}`) % 381)
}

function bulkRanks(task: Task): unknown[] {
  const targets = task.targets
  if (!Array.isArray(targets) || targets.length === 0) throw new TaskError(40501, "Invalid Field: 'targets'.")
  if (targets.length > 1000) throw new TaskError(40501, "Invalid Field: 'targets'. Maximum 1000 elements.")
  for (const t of targets)
    if (typeof t !== 'string' || t.trim().length === 0) throw new TaskError(40501, "Invalid Field: 'targets'.")
  const scale = task.rank_scale ?? 'one_thousand'
  if (scale !== 'one_thousand' && scale !== 'one_hundred') throw new TaskError(40501, "Invalid Field: 'rank_scale'.")
  const items = (targets as string[]).map((target) => {
    const rank = fakeDomainRank(target)
    return { target, rank: scale === 'one_hundred' ? Math.round(rank / 10) : rank }
  })
  return [{ items_count: items.length, items }]
}

export const BACKLINKS_ENDPOINTS: Record<string, Endpoint> = {
  '/v3/backlinks/bulk_ranks/live': {
    api: 'backlinks',
    fn: 'bulk_ranks',
    se: {},
    run: bulkRanks,
    costPerTask: 0.02,
  },
}
