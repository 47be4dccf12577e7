import { describe, expect, it } from 'vitest'
import {
  checkClaims,
  citeFacts,
  figuresOf,
  isClaim,
  mapSentences,
  numberCitations,
  plainText,
  textFragmentUrl,
  verifySentence,
} from './claims'
import type { Evidence, Fact } from './evidence'

const A = 'https://a.example/guide'
const B = 'https://b.example/stats'
const C = 'https://c.example/down'
const fact = (id: string, url: string, sentence: string): Fact => ({ id, url, sentence, kinds: ['figure'] })
const evidence: Evidence = {
  pages: [
    {
      url: A,
      title: 'The guide',
      domain: 'a.example',
      rank: 1,
      status: 'read',
      reason: null,
      fetchedAt: '2026-11-01T00:00:00Z',
    },
    {
      url: B,
      title: 'The stats',
      domain: 'b.example',
      rank: 2,
      status: 'read',
      reason: null,
      fetchedAt: '2026-11-01T00:00:00Z',
    },
    { url: C, title: 'Down', domain: 'c.example', rank: 3, status: 'not read', reason: 'HTTP 500', fetchedAt: null },
  ],
  facts: [
    fact('F1', A, '62% of freelancers were paid late at least once in 2025.'),
    fact('F2', B, 'Late invoices cost small firms 7,300,000 hours a year, the survey of 1,200 owners found.'),
    fact('F3', B, 'Owners said "getting paid on time is the hardest part of the job" in interviews.'),
  ],
}
const link = (f: Fact) => `[[0](${textFragmentUrl(f.url, f.sentence)})]`

describe('figures', () => {
  it('normalises percentages, scales, separators and fractions to values', () => {
    const v = (t: string) => figuresOf(t).flatMap((f) => f.values)
    expect(v('73%')).toContain(73)
    expect(v('73 percent')).toContain(0.73)
    expect(v('0.73 of them')).toContain(73)
    expect(v('7.3 million hours')).toEqual([7_300_000])
    expect(v('7,300,000 hours')).toEqual([7_300_000])
    expect(v('$5k')).toEqual([5000])
    expect(v('in 2025')).toEqual([2025])
    expect(figuresOf('Follow these 3 steps and step 2')).toEqual([])
    expect(figuresOf('H2 headings and B2B teams')).toEqual([])
    expect(isClaim('The CEO said "we will never go back to paper invoices" last week')).toBe(true)
  })

  it('verifies a sentence only when every figure and quotation is in the cited fact', () => {
    const [f1, f2, f3] = evidence.facts as [Fact, Fact, Fact]
    expect(verifySentence('About 62 percent of freelancers were paid late in 2025.', [f1]).verified).toBe(true)
    expect(verifySentence('Late invoices cost 7.3 million hours a year.', [f2]).verified).toBe(true)
    const wrong = verifySentence('73% of founders say late payments hurt.', [f1])
    expect(wrong).toMatchObject({ verified: false, missing: ['73%'] })
    expect(verifySentence('Owners say "getting paid on time is the hardest part of the job".', [f3]).verified).toBe(
      true,
    )
    expect(verifySentence('Owners say "getting paid is easy once you automate it all".', [f3]).verified).toBe(false)
    expect(verifySentence('62% of freelancers were paid late.', []).verified).toBe(false)
  })
})

describe('citations', () => {
  it('turns fact markers into links to the sentence, numbered by page in order of first use', () => {
    const md = 'Late pay is common [F2]. Most were paid late [F1, F3]. Unknown [F9]. Again. [F2]'
    const cited = numberCitations(citeFacts(md, evidence), evidence)
    expect(cited.cited).toEqual([B, A])
    expect(cited.markdown).toContain(`common [[1](${textFragmentUrl(B, evidence.facts[1]!.sentence)})].`)
    expect(cited.markdown).toContain(`late [[2](${textFragmentUrl(A, evidence.facts[0]!.sentence)})][[1](`)
    expect(cited.markdown).toContain('Unknown.')
    expect(cited.markdown).toMatch(/Again \[\[1\]\(/)
  })

  it('removes citations of pages that were not read', () => {
    const out = numberCitations(`Down says so [[4](${C})]. Guide [[2](${A})].`, evidence)
    expect(out.cited).toEqual([A])
    expect(out.markdown).toBe(`Down says so. Guide [[1](${A})].`)
  })

  it('text fragments encode the characters the syntax reserves', () => {
    expect(textFragmentUrl(`${A}#old`, 'Pay-as-you-go, in 2025 & after')).toBe(
      `${A}#:~:text=Pay%2Das%2Dyou%2Dgo%2C%20in%202025%20%26%20after`,
    )
    const long = textFragmentUrl(A, 'one two three four five six seven eight nine ten eleven twelve')
    expect(long).toBe(`${A}#:~:text=one%20two%20three%20four%20five,eight%20nine%20ten%20eleven%20twelve`)
  })
})

describe('the claim pass', () => {
  const [f1, f2] = evidence.facts as [Fact, Fact]
  const md = [
    '# Title',
    '',
    `62% of freelancers were paid late in 2025 ${link(f1)}. A 2025 Stanford study found that 73% of founders suffer ${link(f1)}. Teams lose 4.2 million hours a year to this. Plain advice follows.`,
    '',
    `- Late invoices cost 7.3 million hours a year ${link(f2)}.`,
    '- Send reminders early.',
    '',
    '## Sources',
    '',
    `1. [x](${A})`,
  ].join('\n')

  it('keeps verified claims with their source sentence and rewrites the others when given rewrites', () => {
    const first = checkClaims(md, evidence, { policy: 'rewrite' })
    expect(first.pending).toEqual([
      'A 2025 Stanford study found that 73% of founders suffer.',
      'Teams lose 4.2 million hours a year to this.',
    ])
    expect(first.markdown).not.toContain('73%')
    const second = checkClaims(md, evidence, {
      policy: 'rewrite',
      rewrites: {
        'A 2025 Stanford study found that 73% of founders suffer.': 'Many founders suffer from it.',
        'Teams lose 4.2 million hours a year to this.': 'It costs 5,000 dollars.',
      },
    })
    expect(second.pending).toEqual([])
    expect(second.markdown).toContain('Many founders suffer from it.')
    expect(second.markdown).not.toContain('5,000')
    expect(second.markdown).toContain('Plain advice follows.')
    expect(second.claims.map((c) => [c.status, c.text, c.sourceUrl])).toEqual([
      ['verified', '62% of freelancers were paid late in 2025.', A],
      ['rewritten', 'Many founders suffer from it.', null],
      ['removed', '', null],
      ['verified', 'Late invoices cost 7.3 million hours a year.', B],
    ])
    expect(second.claims[0]).toMatchObject({
      quote: f1.sentence,
      factId: 'F1',
      evidenceUrl: textFragmentUrl(A, f1.sentence),
    })
    expect(second.claims[1]!.original).toBe('A 2025 Stanford study found that 73% of founders suffer.')
    expect(second.claims[1]!.reason).toContain('73%')
  })

  it("marks unverified claims and takes their citations away ('mark'), or removes them ('remove')", () => {
    const marked = checkClaims(md, evidence, { policy: 'mark' })
    expect(marked.markdown).toContain('A 2025 Stanford study found that 73% of founders suffer.')
    expect(marked.claims.filter((c) => c.status === 'unverified').map((c) => c.sourceUrl)).toEqual([null, null])
    const removed = checkClaims(md, evidence, { policy: 'remove' })
    expect(removed.markdown).not.toMatch(/73%|4\.2 million/)
    expect(removed.markdown).toContain('- Send reminders early.')
    expect(removed.markdown).toContain('## Sources')
  })

  it('leaves headings, code and the Sources section alone', () => {
    const out = mapSentences('## In 2025 we grew 40%\n\n```\n99% code\n```\n\n## Sources\n\n1. 50% off', () => 'X')
    expect(out).toBe('## In 2025 we grew 40%\n\n```\n99% code\n```\n\n## Sources\n\n1. 50% off')
  })

  it('plain text has no Markdown and no URLs', () => {
    expect(
      plainText('See [the study](https://evil.example/s) and https://evil.example/x or <https://evil.example/y>.'),
    ).toBe('See the study and or.')
  })
})
