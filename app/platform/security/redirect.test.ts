import { describe, expect, it } from 'vitest'
import { safeRedirect } from './redirect'

describe('safeRedirect', () => {
  it('keeps same-site paths', () => {
    expect(safeRedirect('/keywords?x=1')).toBe('/keywords?x=1')
  })
  it('refuses other sites and protocol-relative URLs', () => {
    expect(safeRedirect('https://evil.example')).toBe('/')
    expect(safeRedirect('//evil.example')).toBe('/')
    expect(safeRedirect('/\\evil.example')).toBe('/')
    expect(safeRedirect('javascript:alert(1)', '/home')).toBe('/home')
  })
  it('falls back when missing', () => {
    expect(safeRedirect(null, '/keywords')).toBe('/keywords')
    expect(safeRedirect('', '/keywords')).toBe('/keywords')
  })
})
