import { describe, expect, it } from 'vitest'
import { CLUSTER_MIN_SHARED_URLS, clusterKeywords, clusterSiblings, type ClusterInput } from './clusters'

/** A top 10: the `shared` pages (full URLs) first, then pages of this keyword's own. */
function top10(keyword: string, shared: string[]): string[] {
  const own = Array.from(
    { length: 10 - shared.length },
    (_, i) => `https://own${i}.example/${keyword.replace(/ /g, '-')}`,
  )
  return [...shared, ...own]
}
const pages = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `https://site${i}.example/${topic}`)
const kw = (id: string, keyword: string, volume: number | null, urls: string[]): ClusterInput => ({
  id,
  keyword,
  volume,
  urls,
})

describe('clusterKeywords', () => {
  it('groups keywords whose top 10 share at least K URLs, under the highest-volume keyword', () => {
    expect(CLUSTER_MIN_SHARED_URLS).toBe(3)
    const crm = pages('crm', 5)
    const result = clusterKeywords([
      kw('1', 'crm software', 900, top10('crm software', crm)),
      kw('2', 'best crm', 2400, top10('best crm', crm.slice(0, 4))),
      kw('3', 'crm tools', 300, top10('crm tools', crm.slice(1, 4))),
      // Two shared pages only: not the same topic.
      kw('4', 'crm definition', 5000, top10('crm definition', crm.slice(0, 2))),
      kw('5', 'no serp yet', 100, []),
    ])
    expect(result.clusters).toHaveLength(1)
    const [cluster] = result.clusters
    expect(cluster!.main).toMatchObject({ id: '2', keyword: 'best crm', volume: 2400 })
    expect(cluster!.members.map((m) => [m.keyword, m.shared])).toEqual([
      ['crm software', 4],
      ['crm tools', 3],
    ])
    expect(cluster!.totalVolume).toBe(3600)
    expect(clusterSiblings(cluster!)).toEqual(['crm software', 'crm tools'])
    expect(result.unclustered.map((m) => m.keyword)).toEqual(['crm definition', 'no serp yet'])
  })

  it('compares URLs without scheme, www., fragment and trailing slash', () => {
    const a = ['https://www.a.example/x/', 'http://b.example/y#top', 'https://c.example/z']
    const b = ['https://a.example/x', 'https://www.b.example/y/', 'https://c.example/z/']
    const result = clusterKeywords([kw('1', 'one', 10, top10('one', a)), kw('2', 'two', 20, top10('two', b))])
    expect(result.clusters).toHaveLength(1)
    expect(result.clusters[0]!.members[0]!.shared).toBe(3)
  })

  it('does not chain: a keyword joins only if it shares K URLs with the main keyword', () => {
    // A shares 3 with B, B shares 3 with C, A and C share nothing.
    const ab = pages('ab', 3)
    const bc = pages('bc', 3)
    const result = clusterKeywords([
      kw('a', 'alpha', 1000, top10('alpha', ab)),
      kw('b', 'beta', 500, top10('beta', [...ab, ...bc])),
      kw('c', 'gamma', 200, top10('gamma', bc)),
    ])
    expect(result.clusters.map((c) => [c.main.keyword, c.members.map((m) => m.keyword)])).toEqual([['alpha', ['beta']]])
    expect(result.unclustered.map((m) => m.keyword)).toEqual(['gamma'])
  })

  it('breaks volume ties by keyword, counts unknown volumes as 0, ignores repeated URLs, orders clusters by volume', () => {
    const t = pages('t', 3)
    const u = pages('u', 3)
    const result = clusterKeywords([
      kw('1', 'zebra', 50, top10('zebra', t)),
      kw('2', 'apple', 50, top10('apple', t)),
      kw('3', 'unknown', null, top10('unknown', t)),
      kw('4', 'small one', 10, top10('small one', u)),
      kw('5', 'small two', 5, [...u, u[0]!, u[0]!]),
    ])
    expect(result.clusters.map((c) => [c.main.keyword, c.totalVolume])).toEqual([
      ['apple', 100],
      ['small one', 15],
    ])
    expect(result.clusters[0]!.members.map((m) => m.keyword)).toEqual(['zebra', 'unknown'])
    expect(result.clusters[1]!.members[0]!.shared).toBe(3)
    expect(clusterKeywords([]).clusters).toEqual([])
  })

  it('clusters 500 keywords with overlapping top 10s quickly', () => {
    const items: ClusterInput[] = []
    for (let i = 0; i < 500; i++) {
      const topic = Math.floor(i / 5)
      const common = pages(`topic-${topic}`, 6).slice(i % 2, (i % 2) + 4)
      const big = [`https://en.wikipedia.org/wiki/T${topic % 7}`, `https://www.reddit.com/r/t${topic % 3}`]
      items.push(kw(String(i), `keyword ${i}`, (i * 37) % 1000, [...common, ...big, ...pages(`own-${i}`, 4)]))
    }
    const started = performance.now()
    const result = clusterKeywords(items)
    const ms = performance.now() - started
    expect(result.clusters).toHaveLength(100)
    expect(result.clusters.every((c) => c.members.length === 4)).toBe(true)
    expect(ms).toBeLessThan(200)
  })
})
