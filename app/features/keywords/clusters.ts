import { z } from 'zod'
import { comparableUrl } from './serp'

/**
 * Issue 36, point 3 (decision 0363): keywords grouped by topic from their results pages. Two keywords belong
 * together when their Google top 10 share at least `CLUSTER_MIN_SHARED_URLS` pages (URLs compared without scheme,
 * "www.", fragment and trailing slash): Google answering both searches with the same pages means one post can rank
 * for both. Pure and isomorphic: the server computes clusters on read, the bench times it.
 *
 * - Keywords are taken from the highest volume down (ties: keyword, then id). The first one not yet grouped opens a
 *   cluster as its main keyword; every keyword not yet grouped that shares at least K URLs **with that main keyword**
 *   joins it. There is no chaining: A–B and B–C sharing K URLs does not put A and C together unless C shares K with
 *   the main keyword, so a cluster never drifts from its main topic. A keyword that fits two mains joins the one with
 *   more volume (it comes first).
 * - A keyword that shares K URLs with nobody is 'unclustered' (listed apart, not a one-keyword cluster); one without
 *   a results page yet (no URLs) is unclustered too.
 * - Speed: an inverted index URL → keywords, so each main only meets the keywords that share a URL with it
 *   (500 keywords in a few milliseconds; bench/21-keywords-clusters.ts).
 */
export const CLUSTER_MIN_SHARED_URLS = 3

/** How many results of each page are compared (the top 10). */
export const CLUSTER_TOP = 10

/** A clustering run reads (and the page groups) the user's newest this many saved keywords of the market. */
export const CLUSTER_KEYWORD_CAP = 200

/** A results page younger than this many days serves clustering; older ones are read again by a run. */
export const CLUSTER_SERP_MAX_AGE_DAYS = 30

const code = (what: string) =>
  z
    .string({ required_error: 'Required.', invalid_type_error: 'Required.' })
    .trim()
    .regex(/^\d{1,10}$/, `Not a ${what} code.`)

/** A market as saved keywords store it: Google Ads geo id and language id ('2840', '1000'). */
export const clusterMarketSchema = z.object({ countryCode: code('country'), languageCode: code('language') })
export type ClusterMarket = z.infer<typeof clusterMarketSchema>

/** The market in a URL (GET /api/clusters, /keywords/clusters): `?country=2840&language=1000`. */
export const clusterQuerySchema = z.object({ country: code('country'), language: code('language') })

export const CLUSTER_MESSAGES = {
  started: 'Grouping your keywords by topic…',
  noKeywords: 'You have no saved keywords in this market yet. Search for some first.',
  unavailable: 'Grouping by topic is not available right now. Please try again later.',
  failed: 'The results pages could not be read. Please try again later.',
  notConfigured: 'Grouping by topic is not available on this workspace yet.',
  stalled: 'Grouping stopped unexpectedly. Please try again.',
} as const

/** A clustering run as the page and the API show it. */
export type ClusterRunView = {
  id: string
  status: 'queued' | 'running' | 'done' | 'failed'
  keywordCount: number
  fetchedCount: number
  failedCount: number
  error: string | null
  createdAt: string
  finishedAt: string | null
}

export type ClusterInput = { id: string; keyword: string; volume: number | null; urls: string[] }

export type ClusterMember = {
  id: string
  keyword: string
  volume: number | null
  /** How many top-10 URLs it shares with the cluster's main keyword (10 for the main keyword itself). */
  shared: number
}

export type KeywordCluster = {
  main: ClusterMember
  /** The other keywords of the cluster (the main keyword's siblings), highest volume first. */
  members: ClusterMember[]
  /** The volumes of the main keyword and its members added up (unknown volumes count as 0). */
  totalVolume: number
}

export type Clustering = { clusters: KeywordCluster[]; unclustered: ClusterMember[] }

const volumeOf = (v: number | null) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0)

function byVolume(a: ClusterInput, b: ClusterInput) {
  const dv = volumeOf(b.volume) - volumeOf(a.volume)
  if (dv !== 0) return dv
  if (a.keyword !== b.keyword) return a.keyword < b.keyword ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

export function clusterKeywords(items: ClusterInput[], minShared: number = CLUSTER_MIN_SHARED_URLS): Clustering {
  const k = Math.max(1, Math.floor(minShared))
  const sorted = [...items].sort(byVolume)
  // Each keyword's distinct comparable URLs (its top 10), and the inverted index URL → positions in `sorted`.
  const urlSets: string[][] = sorted.map((item) => {
    const seen = new Set<string>()
    for (const url of item.urls.slice(0, CLUSTER_TOP)) {
      if (typeof url !== 'string' || !url) continue
      seen.add(comparableUrl(url))
    }
    return [...seen]
  })
  const index = new Map<string, number[]>()
  urlSets.forEach((urls, i) => {
    for (const url of urls) {
      const list = index.get(url)
      if (list) list.push(i)
      else index.set(url, [i])
    }
  })

  const taken = new Uint8Array(sorted.length)
  const counts = new Int32Array(sorted.length)
  const clusters: KeywordCluster[] = []
  const unclustered: ClusterMember[] = []
  const member = (i: number, shared: number): ClusterMember => {
    const item = sorted[i]!
    return { id: item.id, keyword: item.keyword, volume: item.volume, shared }
  }

  for (let i = 0; i < sorted.length; i++) {
    if (taken[i]) continue
    taken[i] = 1
    const urls = urlSets[i]!
    // Count the URLs each not yet grouped keyword shares with this main keyword (only those sharing one at all).
    const touched: number[] = []
    if (urls.length >= k) {
      for (const url of urls) {
        for (const j of index.get(url)!) {
          if (j === i || taken[j]) continue
          if (counts[j] === 0) touched.push(j)
          counts[j]!++
        }
      }
    }
    const joined: number[] = []
    for (const j of touched) {
      if (counts[j]! >= k) joined.push(j)
    }
    const members = joined.sort((a, b) => a - b).map((j) => member(j, counts[j]!))
    for (const j of touched) counts[j] = 0
    if (members.length === 0) {
      unclustered.push(member(i, urls.length))
      continue
    }
    for (const j of joined) taken[j] = 1
    const main = member(i, urls.length)
    clusters.push({
      main,
      members,
      totalVolume: volumeOf(main.volume) + members.reduce((sum, m) => sum + volumeOf(m.volume), 0),
    })
  }
  clusters.sort(
    (a, b) =>
      b.totalVolume - a.totalVolume || (a.main.keyword < b.main.keyword ? -1 : a.main.keyword > b.main.keyword ? 1 : 0),
  )
  return { clusters, unclustered }
}

/** The siblings a cluster's post covers besides its main keyword (createPost's `secondaryKeywords`). */
export function clusterSiblings(cluster: KeywordCluster): string[] {
  return cluster.members.map((m) => m.keyword)
}
