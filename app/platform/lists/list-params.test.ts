import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { limit, optional, parseParams, search } from './list-params'

const schema = z
  .object({
    q: search,
    sort: optional(z.enum(['date', 'volume'], { message: 'One of: date, volume.' })),
    min: optional(z.coerce.number({ invalid_type_error: 'Must be a number.' })),
    max: optional(z.coerce.number({ invalid_type_error: 'Must be a number.' })),
    limit,
  })
  .refine((v) => v.min === undefined || v.max === undefined || v.min <= v.max, {
    message: 'Must be at least the minimum.',
    path: ['max'],
  })
  .refine((v) => v.q !== 'whole', 'The whole query is wrong.')

const params = (query: string) => parseParams(schema, new URLSearchParams(query))

describe('parseParams (list and filter parameters, read as a form is)', () => {
  it('reads the values, empty ones as absent, the last of a repeated key', () => {
    expect(params('q=%20seo%20&sort=&limit=20&limit=30&other=1')).toEqual({
      ok: true,
      data: { q: 'seo', sort: undefined, min: undefined, max: undefined, limit: 30 },
    })
  })

  it("names each bad parameter with its first message, and 'query' for the whole query", () => {
    expect(params('sort=colour&limit=0&min=x')).toEqual({
      ok: false,
      errors: { sort: 'One of: date, volume.', limit: 'Must be at least 1.', min: 'Must be a number.' },
    })
    expect(params('min=9&max=3')).toEqual({ ok: false, errors: { max: 'Must be at least the minimum.' } })
    expect(params('q=whole')).toEqual({ ok: false, errors: { query: 'The whole query is wrong.' } })
  })

  it('leaves out names that are not ours (paths and Conform’s own)', () => {
    expect(params('q.x=1&q[0]=2&__intent__=%7B&__state__=%7B&q=fine')).toEqual({
      ok: true,
      data: { q: 'fine', sort: undefined, min: undefined, max: undefined, limit: undefined },
    })
  })
})
