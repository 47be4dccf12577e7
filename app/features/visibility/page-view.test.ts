import { describe, expect, it } from 'vitest'
import { toPageSubject, PAGE_LIST_SIZE } from './page-view'
import { wilson } from './wilson'
import type { SubjectView, WeekFigures } from './read.server'

const week = (w: string, answers: number, cited: number, mentioned = 0): WeekFigures => ({
  week: w,
  answers,
  gaps: 0,
  present: wilson(answers, answers),
  mentioned: wilson(mentioned, answers),
  cited: wilson(cited, answers),
})

describe('toPageSubject', () => {
  it('keeps the latest week whole, the charted rate per week (gaps null) and a few pages and competitors', () => {
    const history = [week('2026-11-09', 9, 4), week('2026-11-16', 0, 0), week('2026-11-23', 3, 3)]
    const pages = Array.from({ length: 5 }, (_, i) => ({ url: `https://example.com/p${i}`, count: 5 - i }))
    const subject: SubjectView = {
      kind: 'keyword',
      id: 'k1',
      label: 'crm',
      engines: [
        {
          engine: 'google_ai_overview',
          label: 'Google AI Overviews',
          latest: history[2]!,
          change: { present: 'none', mentioned: 'unknown', cited: 'up' },
          history,
          citedPages: pages,
          competitors: [{ domain: 'rival.com', count: 2 }],
          citedPageCount: 14,
          competitorCount: 1,
        },
      ],
    }
    const [engine] = toPageSubject(subject).engines
    expect(engine!.latest).toEqual(history[2])
    expect(engine!.change).toBe('up')
    expect(engine!.trend).toEqual([[44, 19, 73], null, [100, 44, 100]])
    expect(engine!.citedPages).toEqual(pages.slice(0, PAGE_LIST_SIZE))
    expect(engine!.morePages).toBe(14 - PAGE_LIST_SIZE)
    expect(engine!.competitors).toEqual([{ domain: 'rival.com', count: 2 }])
    expect(engine!.moreCompetitors).toBe(0)
    expect(JSON.stringify(engine)).not.toContain('history')
  })

  it('charts the mention rate for prompts', () => {
    const history = [week('2026-11-23', 4, 0, 2)]
    const [engine] = toPageSubject({
      kind: 'prompt',
      id: 'p1',
      label: 'which crm?',
      engines: [
        {
          engine: 'chatgpt',
          label: 'ChatGPT',
          latest: history[0]!,
          change: { present: 'none', mentioned: 'down', cited: 'up' },
          history,
          citedPages: [],
          competitors: [],
          citedPageCount: 0,
          competitorCount: 0,
        },
      ],
    }).engines
    expect(engine!.change).toBe('down')
    expect(engine!.trend).toEqual([[50, 15, 85]])
  })
})
