import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { INTRO_VIDEO, SCENES } from './intro-video'

/** The cues of a WebVTT file: start and end in seconds, and the text. */
function cues(vtt: string) {
  const time = (t: string) => {
    const [h, m, s] = t.split(':').map(Number)
    return h! * 3600 + m! * 60 + s!
  }
  return [...vtt.matchAll(/(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n([^\n]+)/g)].map((m) => ({
    start: time(m[1]!),
    end: time(m[2]!),
    text: m[3]!,
  }))
}

describe('the intro video (decision 0354)', () => {
  const vtt = fs.readFileSync(path.join(process.cwd(), 'public', 'intro.vtt'), 'utf8')

  it('has captions that are the scenes the page lists, in order, one after the other', () => {
    expect(vtt.startsWith('WEBVTT\n')).toBe(true)
    const found = cues(vtt)
    expect(found.map((c) => c.text)).toEqual(SCENES)
    found.forEach((c, i) => {
      expect(c.end).toBeGreaterThan(c.start)
      if (i > 0) expect(c.start).toBeCloseTo(found[i - 1]!.end, 1)
    })
  })

  it('states the length of the recording', () => {
    const end = cues(vtt).at(-1)!.end
    const [m, s] = INTRO_VIDEO.duration.split(':').map(Number)
    expect(Math.abs(m! * 60 + s! - end)).toBeLessThanOrEqual(1)
  })
})
