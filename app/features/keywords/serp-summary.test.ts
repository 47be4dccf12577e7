import { describe, expect, it } from 'vitest'
import { parseSerpItems } from './serp.server'
import { serpTimestamp } from './serp'
import { ageInWords, BIG_SITE_STRENGTH, classifyResult, summarizeSerp, type SerpResultKind } from './serp-summary'

const kinds = (...list: SerpResultKind[]) => list.map((kind) => ({ kind }))

describe('serp summary: who holds the top 10', () => {
  it('classifies forums and videos by their host, the others by strength', () => {
    expect(classifyResult('www.reddit.com', 930)).toBe('forum')
    expect(classifyResult('old.reddit.com', null)).toBe('forum')
    expect(classifyResult('math.stackexchange.com', 800)).toBe('forum')
    expect(classifyResult('quora.com', null)).toBe('forum')
    expect(classifyResult('community.shopify.com', 780)).toBe('forum')
    expect(classifyResult('forums.example.org', 200)).toBe('forum')
    expect(classifyResult('myforumsite.net', 10)).toBe('forum')
    expect(classifyResult('youtube.com', 990)).toBe('video')
    expect(classifyResult('m.youtube.com', null)).toBe('video')
    expect(classifyResult('forbes.com', BIG_SITE_STRENGTH)).toBe('big')
    expect(classifyResult('tinyblog.io', BIG_SITE_STRENGTH - 1)).toBe('small')
    expect(classifyResult('tinyblog.io', null)).toBe('unknown')
    // A look-alike is not the platform.
    expect(classifyResult('notreddit.com', 100)).toBe('small')
    expect(classifyResult('youtube.com.evil.example', 100)).toBe('small')
  })

  it('says it in plain words, with a hint for a founder', () => {
    const mixed = summarizeSerp(
      kinds('big', 'forum', 'big', 'small', 'forum', 'big', 'small', 'small', 'small', 'small'),
    )
    expect(mixed.text).toBe('3 big sites, 2 forums and 5 smaller sites')
    expect(mixed.counts).toEqual({ big: 3, forum: 2, video: 0, small: 5, unknown: 0 })
    expect(mixed.hint).toMatch(/room/)

    const big = summarizeSerp(kinds(...Array<SerpResultKind>(10).fill('big')))
    expect(big.text).toBe('10 big sites')
    expect(big.hint).toMatch(/narrower/)

    const one = summarizeSerp(kinds('big', 'video', 'small'))
    expect(one.text).toBe('1 big site, 1 video and 1 smaller site')

    const unknown = summarizeSerp(kinds('unknown', 'unknown'))
    expect(unknown.text).toBe('2 sites of unknown strength')
    expect(unknown.hint).toMatch(/unavailable/)

    const none = summarizeSerp([])
    expect(none.text).toBe('')
    expect(none.hint).toMatch(/no ordinary results/)
  })

  it('gives a page its age in words', () => {
    const now = new Date('2026-11-29T12:00:00Z')
    expect(ageInWords(null, now)).toBeNull()
    expect(ageInWords('not a date', now)).toBeNull()
    expect(ageInWords('2026-11-29T08:00:00Z', now)).toBe('today')
    expect(ageInWords('2026-11-28T08:00:00Z', now)).toBe('1 day old')
    expect(ageInWords('2026-11-10T08:00:00Z', now)).toBe('2 weeks old')
    expect(ageInWords('2026-08-25T08:00:00Z', now)).toBe('3 months old')
    expect(ageInWords('2024-10-01T08:00:00Z', now)).toBe('2 years old')
  })
})

describe('serp parsing: features and dates (DataForSEO wire shapes)', () => {
  it('reads the publication timestamp format and rejects junk', () => {
    expect(serpTimestamp('2019-11-15 12:57:46 +00:00')).toBe('2019-11-15T12:57:46.000Z')
    expect(serpTimestamp('2019-11-15 12:57:46 +02:00')).toBe('2019-11-15T10:57:46.000Z')
    expect(serpTimestamp(null)).toBeNull()
    expect(serpTimestamp('yesterday')).toBeNull()
    expect(serpTimestamp('<script>')).toBeNull()
  })

  it('lists the SERP features present and keeps only http(s) organic results', () => {
    const serp = parseSerpItems(
      [
        { type: 'ai_overview', items: [{ type: 'ai_overview_element', text: 'x' }] },
        { type: 'local_pack', rank_group: 1, title: 'A shop' },
        {
          type: 'organic',
          rank_group: 1,
          url: 'https://a.example/x',
          domain: 'a.example',
          title: ' A  title ',
          timestamp: '2025-01-02 03:04:05 +00:00',
        },
        { type: 'organic', rank_group: 2, url: 'javascript:alert(1)', domain: 'b.example', title: 'B' },
        { type: 'video', items: [{ type: 'video_element', url: 'https://www.youtube.com/watch?v=1' }] },
        { type: 'organic', rank_group: 3, url: 'http://c.example/', domain: 'www.c.example', title: 'C' },
      ],
      10,
      '2026-11-29T00:00:00.000Z',
      ['organic', 'ai_overview', 'local_pack', 'video', 'people_also_ask'],
    )
    expect(serp.features).toEqual(['ai_overview', 'people_also_ask', 'video', 'local_pack'])
    expect(serp.items.map((i) => [i.rank, i.domain, i.title, i.publishedAt])).toEqual([
      [1, 'a.example', 'A title', '2025-01-02T03:04:05.000Z'],
      [3, 'c.example', 'C', null],
    ])
    expect(parseSerpItems([], 10, 'now').features).toEqual([])
  })
})
