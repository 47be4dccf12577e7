import { describe, expect, it } from 'vitest'
import { NOT_ALLOWED_CHARACTERS, safeText, stripControlCharacters } from './safe-text'
import { isUuid, parseIdList } from './ids'

describe('safeText', () => {
  const schema = safeText({ invalid_type_error: 'Name must be text.' }).trim().min(1, 'Name is required.').max(5)

  it('refuses NUL and other control characters with the field message', () => {
    for (const bad of ['a\u0000b', '\u0007', 'x\u001Fy', 'del\u007F']) {
      const result = schema.safeParse(bad)
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.message).toBe(NOT_ALLOWED_CHARACTERS)
    }
  })

  it('keeps tabs, line breaks, emoji and right-to-left text, and chains like a string', () => {
    expect(safeText().parse('a\tb\r\nc')).toBe('a\tb\r\nc')
    expect(safeText().parse('שלום 👋 مرحبا')).toBe('שלום 👋 مرحبا')
    expect(schema.parse('  ab  ')).toBe('ab')
    expect(schema.safeParse(12).error?.issues[0]?.message).toBe('Name must be text.')
  })

  it('strips control characters for text passed on', () => {
    expect(stripControlCharacters('a\u0000b\u0008c\nd')).toBe('abc\nd')
  })
})

describe('ids', () => {
  it('accepts UUIDs only', () => {
    expect(isUuid('0b6c7a1e-3f7e-4c35-9a55-2f8b3c7d9e10')).toBe(true)
    expect(isUuid('0B6C7A1E-3F7E-4C35-9A55-2F8B3C7D9E10')).toBe(true)
    for (const bad of ['', '1', 'x'.repeat(36), "' or 1=1 --", null, 5]) expect(isUuid(bad)).toBe(false)
  })

  it('bounds and validates id lists', () => {
    const id = '0b6c7a1e-3f7e-4c35-9a55-2f8b3c7d9e10'
    expect(parseIdList(`${id},,${id.toUpperCase()}`)).toEqual({ ok: true, ids: [id] })
    expect(parseIdList(Array(101).fill(id).join(',')).ok).toBe(false)
    expect(parseIdList(`${id},nope`).ok).toBe(false)
  })
})
