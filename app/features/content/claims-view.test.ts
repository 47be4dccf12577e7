import { describe, expect, it } from 'vitest'
import {
  claimCounts,
  claimsFilterOf,
  countsLine,
  domainOf,
  evidenceLinkOf,
  pagesOf,
  unverifiedWarning,
  visibleClaims,
} from './claims-view'
import { readClaims, readEvidence, type Claim } from './evidence'

const claim = (over: Partial<Claim>): Claim => ({
  text: 'Late payments cost 40% of cash flow.',
  status: 'verified',
  sourceUrl: 'https://www.research.example/report',
  sourceTitle: 'Report',
  factId: 'F1',
  quote: 'Late payments cost 40% of cash flow, the survey found.',
  evidenceUrl: 'https://www.research.example/report#:~:text=Late%20payments%20cost%2040%25',
  original: null,
  reason: null,
  ...over,
})

describe('claims view', () => {
  it('reads the filter from the URL: only "unverified" filters', () => {
    expect(claimsFilterOf(new URLSearchParams('claims=unverified'))).toBe('unverified')
    expect(claimsFilterOf(new URLSearchParams('claims=verified'))).toBe('all')
    expect(claimsFilterOf(new URLSearchParams(''))).toBe('all')
  })

  it('counts by status, in the line the panel shows', () => {
    const claims = [
      claim({}),
      claim({}),
      claim({ status: 'rewritten' }),
      claim({ status: 'unverified' }),
      claim({ status: 'removed' }),
    ]
    expect(countsLine(claimCounts(claims))).toBe('2 verified · 1 rewritten · 1 removed · 1 unverified')
    expect(countsLine(claimCounts([claim({})]))).toBe('1 verified · 0 unverified')
    expect(visibleClaims(claims, 'unverified').map((c) => c.status)).toEqual(['unverified'])
    expect(visibleClaims(claims, 'all')).toHaveLength(5)
  })

  it('says how many claims hold a post back, singular and plural', () => {
    expect(unverifiedWarning(1)).toBe('1 unverified claim: Auto Pilot will not publish this post until it is fixed.')
    expect(unverifiedWarning(3)).toBe(
      '3 unverified claims: Auto Pilot will not publish this post until they are fixed.',
    )
  })

  it('links a verified claim to its sentence, only over http(s), and never an unverified one', () => {
    expect(evidenceLinkOf(claim({}))).toEqual({
      href: 'https://www.research.example/report#:~:text=Late%20payments%20cost%2040%25',
      domain: 'research.example',
    })
    // No fragment link: the page itself.
    expect(evidenceLinkOf(claim({ evidenceUrl: null }))?.href).toBe('https://www.research.example/report')
    expect(evidenceLinkOf(claim({ evidenceUrl: 'javascript:alert(1)', sourceUrl: 'data:text/html,x' }))).toBeNull()
    // An old row's source is not trusted: read as unverified, no link.
    const [old] = readClaims([{ text: '73% of founders', sourceUrl: 'https://evil.example/study' }])
    expect(old!.status).toBe('unverified')
    expect(evidenceLinkOf(old!)).toBeNull()
    expect(domainOf('not a url')).toBe('')
  })

  it('keeps what the screens show of the research pages, whatever the stored shape', () => {
    const evidence = readEvidence({
      pages: [
        {
          url: 'https://www.a.example/x',
          title: 'A',
          domain: '',
          rank: 1,
          status: 'read',
          reason: null,
          fetchedAt: '2025-01-02T00:00:00Z',
        },
        {
          url: 'https://b.example/',
          title: 'B',
          domain: 'b.example',
          rank: 2,
          status: 'failed',
          reason: 'HTTP 500',
          fetchedAt: null,
        },
        null,
        { title: 'no url' },
      ],
      facts: [{ id: 'F1', url: 'https://www.a.example/x', sentence: 's', kinds: ['figure'] }],
    })
    expect(pagesOf(evidence)).toEqual([
      {
        url: 'https://www.a.example/x',
        title: 'A',
        domain: 'a.example',
        status: 'read',
        reason: null,
        fetchedAt: '2025-01-02T00:00:00Z',
      },
      {
        url: 'https://b.example/',
        title: 'B',
        domain: 'b.example',
        status: 'not read',
        reason: 'HTTP 500',
        fetchedAt: null,
      },
    ])
    expect(pagesOf(null)).toEqual([])
  })
})
