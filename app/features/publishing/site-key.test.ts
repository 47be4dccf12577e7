import { describe, expect, it } from 'vitest'
import { destinationForm } from './publishing'
import { insecureUrlRefused, isLoopbackHost, siteKey } from './site-key'

describe('siteKey', () => {
  it('binds a WordPress secret to the origin and the user, not to the path or the case of the host', () => {
    const a = siteKey('wordpress', { siteUrl: 'https://Blog.Example.com/news', username: 'Editor' })
    expect(a).toBe(siteKey('wordpress', { siteUrl: 'https://blog.example.com:443', username: 'editor' }))
    expect(a).not.toBe(siteKey('wordpress', { siteUrl: 'https://evil.example.com', username: 'editor' }))
    expect(a).not.toBe(siteKey('wordpress', { siteUrl: 'https://blog.example.com', username: 'admin' }))
    expect(a).not.toBe(siteKey('wordpress', { siteUrl: 'http://blog.example.com', username: 'editor' }))
    expect(a).not.toBe(siteKey('wordpress', { siteUrl: 'https://blog.example.com:8443', username: 'editor' }))
  })

  it('binds a Ghost key to the Admin API origin and a Webflow token to the site id', () => {
    expect(siteKey('ghost', { adminUrl: 'https://a.ghost.io' })).not.toBe(
      siteKey('ghost', { adminUrl: 'https://b.ghost.io' }),
    )
    const site = 'a'.repeat(24)
    expect(siteKey('webflow', { siteId: site, collectionId: '1'.repeat(24) })).toBe(
      siteKey('webflow', { siteId: site, collectionId: '2'.repeat(24) }),
    )
    expect(siteKey('webflow', { siteId: site })).not.toBe(siteKey('webflow', { siteId: 'b'.repeat(24) }))
  })
})

describe('https only', () => {
  it('knows loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.9.8.7', '[::1]']) expect(isLoopbackHost(host)).toBe(true)
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '[::2]'])
      expect(isLoopbackHost(host)).toBe(false)
  })

  it('refuses http for a public site always, and for loopback unless allowed', () => {
    expect(insecureUrlRefused('https://blog.example.com', false)).toBe(false)
    expect(insecureUrlRefused('http://blog.example.com', true)).toBe(true)
    expect(insecureUrlRefused('http://127.0.0.1:8080', true)).toBe(false)
    expect(insecureUrlRefused('http://127.0.0.1:8080', false)).toBe(true)
  })

  it('the forms refuse an http site URL next to the field, and add https:// to a bare host', () => {
    const wp = destinationForm.safeParse({ kind: 'wordpress', siteUrl: 'http://blog.example.com', username: 'a' })
    expect(wp.success).toBe(false)
    expect(wp.error!.flatten().fieldErrors.siteUrl).toEqual([
      'Site URL must start with https:// (the password or key must not travel unencrypted).',
    ])
    const ghost = destinationForm.safeParse({ kind: 'ghost', adminUrl: 'http://blog.example.com' })
    expect(ghost.error!.flatten().fieldErrors.adminUrl?.[0]).toMatch(/^Admin API URL must start with https:\/\//)
    const bare = destinationForm.parse({ kind: 'wordpress', siteUrl: 'blog.example.com', username: 'a' })
    expect(bare.kind === 'wordpress' && bare.siteUrl).toBe('https://blog.example.com')
    const local = destinationForm.parse({ kind: 'wordpress', siteUrl: 'http://127.0.0.1:8080', username: 'a' })
    expect(local.kind === 'wordpress' && local.siteUrl).toBe('http://127.0.0.1:8080')
  })
})
