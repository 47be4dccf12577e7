import { describe, expect, it } from 'vitest'
import { clientIp } from './rate-limit.server'

// The socket's address as server.ts passes it on (it overwrites any client-sent value of this header).
const request = (headers: Record<string, string>) =>
  new Request('http://app.test/', { headers: { 'x-rankwell-client-ip': '203.0.113.9', ...headers } })

const forged = {
  'fly-client-ip': '198.51.100.1',
  'cf-connecting-ip': '198.51.100.2',
  'x-forwarded-for': '198.51.100.3, 192.0.2.4, 192.0.2.5',
}

describe('clientIp (TRUST_PROXY)', () => {
  it('none: the socket, whatever headers the client sends', () => {
    expect(clientIp(request(forged), 'none')).toBe('203.0.113.9')
    expect(clientIp(request({}), 'none')).toBe('203.0.113.9')
  })

  it('fly: Fly-Client-IP, else the socket', () => {
    expect(clientIp(request(forged), 'fly')).toBe('198.51.100.1')
    expect(clientIp(request({ 'x-forwarded-for': '198.51.100.3' }), 'fly')).toBe('203.0.113.9')
  })

  it('cloudflare: CF-Connecting-IP, else the socket', () => {
    expect(clientIp(request(forged), 'cloudflare')).toBe('198.51.100.2')
    expect(clientIp(request({ 'fly-client-ip': '198.51.100.1' }), 'cloudflare')).toBe('203.0.113.9')
  })

  it('N proxies: the Nth address from the right of X-Forwarded-For, never the leftmost', () => {
    expect(clientIp(request(forged), 1)).toBe('192.0.2.5')
    expect(clientIp(request(forged), 2)).toBe('192.0.2.4')
    expect(clientIp(request(forged), 3)).toBe('198.51.100.3')
    // Fewer hops than trusted proxies: the request did not come through them; the socket counts.
    expect(clientIp(request(forged), 4)).toBe('203.0.113.9')
    expect(clientIp(request({ 'fly-client-ip': '198.51.100.1' }), 1)).toBe('203.0.113.9')
  })
})
