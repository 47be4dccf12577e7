import { describe, expect, it } from 'vitest'
import { markdownDiff, wordDiff } from './diff'

describe('the live copy diff', () => {
  it('gives no rows for equal texts', () => {
    expect(markdownDiff('# Title\n\nBody.', '# Title\n\nBody.')).toEqual([])
  })

  it('marks the changed words of a changed line and keeps the rest of the line', () => {
    expect(wordDiff('Publishing is the last step.', 'Publishing is the final step.')).toEqual([
      { kind: 'same', text: 'Publishing is the ' },
      { kind: 'del', text: 'last' },
      { kind: 'ins', text: 'final' },
      { kind: 'same', text: ' step.' },
    ])
  })

  it('shows removed, added and changed lines with two lines of context and skips the rest', () => {
    const before = ['# T', 'a', 'b', 'c', 'd', 'e', 'f', 'old line', 'g', 'gone'].join('\n')
    const after = ['# T', 'a', 'b', 'c', 'd', 'e', 'f', 'new line', 'g', 'added'].join('\n')
    expect(markdownDiff(before, after)).toEqual([
      { kind: 'skip', lines: 5 },
      { kind: 'same', text: 'e' },
      { kind: 'same', text: 'f' },
      {
        kind: 'change',
        parts: [
          { kind: 'del', text: 'old' },
          { kind: 'ins', text: 'new' },
          { kind: 'same', text: ' line' },
        ],
      },
      { kind: 'same', text: 'g' },
      {
        kind: 'change',
        parts: [
          { kind: 'del', text: 'gone' },
          { kind: 'ins', text: 'added' },
        ],
      },
    ])
  })

  it('shows a section added in the middle as added lines only', () => {
    const rows = markdownDiff('## A\n\nx\n\n## B\n\ny', '## A\n\nx\n\n## New\n\nz\n\n## B\n\ny')
    expect(rows.filter((r) => r.kind === 'del' || r.kind === 'change')).toEqual([])
    expect(rows.filter((r) => r.kind === 'ins').map((r) => ('text' in r ? r.text : ''))).toEqual([
      '## New',
      '',
      'z',
      '',
    ])
  })

  it('keeps markup from the content as text (the screen renders parts as text)', () => {
    const rows = markdownDiff('safe', '<script>alert(1)</script>')
    expect(rows).toEqual([
      {
        kind: 'change',
        parts: [
          { kind: 'del', text: 'safe' },
          { kind: 'ins', text: '<script>alert(1)</script>' },
        ],
      },
    ])
  })

  it('handles a whole rewrite and Windows line ends', () => {
    const rows = markdownDiff('one\r\ntwo', 'three\nfour\nfive')
    expect(rows.map((r) => r.kind)).toEqual(['change', 'change', 'ins'])
  })
})
