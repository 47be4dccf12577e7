import { CLUSTER_MIN_SHARED_URLS, clusterKeywords, type ClusterInput } from '#app/features/keywords/clusters'
import type { BenchContext } from './context'

/**
 * Issue 36: clustering 500 keywords under 200 ms of CPU. Realistic top 10s: ~120 topics of 1 to 8 keywords; the
 * keywords of a topic share 3 to 7 of its pages (in varying order and spelling: "www.", trailing slash, http), every
 * top 10 carries a few pages of big sites that rank for many topics (Wikipedia, Reddit, YouTube), the rest are the
 * keyword's own. CPU time of the process (user + system) around `clusterKeywords`, first run (cold) and the median of
 * 20 runs.
 */
const KEYWORDS = 500
const LIMIT_MS = 200

function rng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

export function realisticKeywords(count = KEYWORDS, seed = 36): ClusterInput[] {
  const next = rng(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const items: ClusterInput[] = []
  let topic = 0
  while (items.length < count) {
    topic++
    const size = Math.min(count - items.length, int(1, 8))
    const topicPages = Array.from(
      { length: 8 },
      (_, i) => `https://site${int(1, 400)}.example/topic-${topic}/page-${i}`,
    )
    for (let k = 0; k < size; k++) {
      const shared = topicPages.slice(0, int(3, 7)).sort(() => next() - 0.5)
      const spelled = shared.map((u) =>
        next() < 0.3 ? u.replace('https://', 'https://www.') : next() < 0.3 ? `${u}/` : u,
      )
      const big = [
        `https://en.wikipedia.org/wiki/Topic_${int(1, 60)}`,
        `https://www.reddit.com/r/sub${int(1, 40)}/`,
        `https://www.youtube.com/watch?v=${int(1, 90)}`,
      ].slice(0, int(0, 3))
      const own = Array.from({ length: 10 }, (_, i) => `https://own${int(1, 5000)}.example/kw-${items.length}-${i}`)
      const urls = [...spelled, ...big, ...own].slice(0, 10)
      items.push({
        id: `00000000-0000-4000-8000-${String(items.length).padStart(12, '0')}`,
        keyword: `topic ${topic} keyword ${k}`,
        volume: next() < 0.1 ? null : int(10, 50_000),
        urls,
      })
    }
  }
  return items
}

function cpuMs(run: () => void) {
  const before = process.cpuUsage()
  run()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

export default async function bench(_ctx: BenchContext) {
  const items = realisticKeywords()
  let clusters = 0
  let grouped = 0
  const cold = cpuMs(() => {
    const result = clusterKeywords(items)
    clusters = result.clusters.length
    grouped = result.clusters.reduce((n, c) => n + 1 + c.members.length, 0)
  })
  const runs = Array.from({ length: 20 }, () => cpuMs(() => clusterKeywords(items))).sort((a, b) => a - b)
  const median = runs[Math.floor(runs.length / 2)]!
  console.log(
    `clustering ${items.length} keywords (K = ${CLUSTER_MIN_SHARED_URLS}): ${clusters} clusters holding ${grouped} keywords`,
  )
  console.log(`CPU: ${cold.toFixed(1)} ms first run, ${median.toFixed(1)} ms median of 20 (target < ${LIMIT_MS} ms)`)
  if (cold >= LIMIT_MS) throw new Error(`clustering took ${cold.toFixed(1)} ms of CPU (over ${LIMIT_MS} ms)`)
}
