import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Env } from '#app/platform/env.server'
import {
  allowPrivateNetworks,
  BlockedAddressError,
  blockedAddressReason,
  guardedPost,
  privateNetworkWarning,
  vetUrl,
  type LookupAll,
} from './ssrf.server'

/** The guard with WEBHOOK_ALLOW_PRIVATE_NETWORKS off (production), with DNS answered by a stand-in. */
const resolvesTo =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

describe('blockedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.1.2', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:a00:1::1', 'private'],
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(blockedAddressReason(address)).toContain(kind)
  })

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
  ])('allows the public address %s', (address) => {
    expect(blockedAddressReason(address)).toBeNull()
  })
})

describe('vetUrl with private networks not allowed', () => {
  const guard = { allowPrivate: false }

  it('allows only http and https', async () => {
    await expect(vetUrl('ftp://example.com/', { ...guard, lookup: resolvesTo('93.184.216.34') })).rejects.toThrow(
      /Only http and https/,
    )
    await expect(vetUrl('file:///etc/passwd', guard)).rejects.toBeInstanceOf(BlockedAddressError)
  })

  it('refuses loopback, private and metadata IP literals without resolving anything', async () => {
    const lookup: LookupAll = async () => {
      throw new Error('must not resolve')
    }
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://2130706433/',
      'http://0x7f.1/',
    ]) {
      await expect(vetUrl(url, { ...guard, lookup })).rejects.toBeInstanceOf(BlockedAddressError)
    }
  })

  it('refuses localhost and metadata host names by name', async () => {
    for (const host of ['localhost', 'api.localhost', 'metadata.google.internal', 'metadata']) {
      await expect(vetUrl(`http://${host}/`, { ...guard, lookup: resolvesTo('93.184.216.34') })).rejects.toThrow(
        /local or metadata/,
      )
    }
  })

  it('refuses a host name when ANY of its addresses is private', async () => {
    await expect(vetUrl('https://hooks.example.com/in', { ...guard, lookup: resolvesTo('10.0.0.7') })).rejects.toThrow(
      /resolves to 10\.0\.0\.7/,
    )
    await expect(
      vetUrl('https://hooks.example.com/in', { ...guard, lookup: resolvesTo('93.184.216.34', '127.0.0.1') }),
    ).rejects.toThrow(/loopback/)
    await expect(
      vetUrl('https://hooks.example.com/in', { ...guard, lookup: resolvesTo('::ffff:192.168.0.1') }),
    ).rejects.toThrow(/private/)
  })

  it('passes a host name whose addresses are all public', async () => {
    const vetted = await vetUrl('https://hooks.example.com/in', {
      ...guard,
      lookup: resolvesTo('93.184.216.34', '2606:4700::1'),
    })
    expect(vetted.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:4700::1'])
  })

  it('lets everything through when private networks are allowed (development and tests)', async () => {
    await expect(vetUrl('http://127.0.0.1/', { allowPrivate: true })).resolves.toBeTruthy()
    await expect(
      vetUrl('http://localhost/', { allowPrivate: true, lookup: resolvesTo('127.0.0.1') }),
    ).resolves.toBeTruthy()
  })
})

describe('guardedPost', () => {
  let server: http.Server
  let port = 0
  const received: Array<{ url?: string; host?: string; body: string }> = []
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        received.push({ url: req.url, host: req.headers.host, body })
        if (req.url === '/redirect') {
          res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end()
          return
        }
        if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000)
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const post = (url: string, opts: { allowPrivate: boolean; lookup?: LookupAll; timeoutMs?: number }) =>
    guardedPost(url, {
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
      timeoutMs: opts.timeoutMs ?? 5000,
      ...opts,
    })

  it('never connects to a loopback receiver when private networks are not allowed', async () => {
    const before = received.length
    await expect(post(`http://127.0.0.1:${port}/hook`, { allowPrivate: false })).rejects.toBeInstanceOf(
      BlockedAddressError,
    )
    await expect(
      post(`http://receiver.example:${port}/hook`, { allowPrivate: false, lookup: resolvesTo('127.0.0.1') }),
    ).rejects.toThrow(/loopback/)
    expect(received.length).toBe(before)
  })

  it('connects to the vetted address, not to a second DNS answer', async () => {
    let calls = 0
    const rebinding: LookupAll = async () => [{ address: calls++ === 0 ? '127.0.0.1' : '10.9.9.9', family: 4 }]
    const res = await post(`http://receiver.example:${port}/hook`, { allowPrivate: true, lookup: rebinding })
    expect(res.status).toBe(200)
    expect(calls).toBe(1)
    expect(received.at(-1)).toMatchObject({ url: '/hook', host: `receiver.example:${port}`, body: '{"a":1}' })
  })

  it('does not follow redirects', async () => {
    const before = received.length
    const res = await post(`http://127.0.0.1:${port}/redirect`, { allowPrivate: true })
    expect(res.status).toBe(302)
    expect(res.headers.location).toContain('169.254.169.254')
    expect(received.length).toBe(before + 1)
  })

  it('gives up after the time limit', async () => {
    await expect(post(`http://127.0.0.1:${port}/slow`, { allowPrivate: true, timeoutMs: 300 })).rejects.toThrow(
      /No answer within/,
    )
  })
})

describe('one private-network switch per kind of outgoing request', () => {
  const env = (on: Partial<Record<'WEBHOOK' | 'RESEARCH' | 'CMS', boolean>>, nodeEnv = 'production') =>
    ({
      NODE_ENV: nodeEnv,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: Boolean(on.WEBHOOK),
      RESEARCH_ALLOW_PRIVATE_NETWORKS: Boolean(on.RESEARCH),
      CMS_ALLOW_PRIVATE_NETWORKS: Boolean(on.CMS),
    }) as unknown as Env

  it('each kind reads its own switch only', () => {
    const webhookOnly = env({ WEBHOOK: true })
    expect(allowPrivateNetworks('webhook', webhookOnly)).toBe(true)
    expect(allowPrivateNetworks('research', webhookOnly)).toBe(false)
    expect(allowPrivateNetworks('cms', webhookOnly)).toBe(false)
    expect(allowPrivateNetworks('research', env({ RESEARCH: true }))).toBe(true)
    expect(allowPrivateNetworks('cms', env({ CMS: true }))).toBe(true)
  })

  it('names every switch that is on in production, in one line', () => {
    expect(privateNetworkWarning(env({}))).toBeNull()
    expect(privateNetworkWarning(env({ WEBHOOK: true, CMS: true }, 'development'))).toBeNull()
    expect(privateNetworkWarning(env({ WEBHOOK: true, CMS: true }))).toBe(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS, CMS_ALLOW_PRIVATE_NETWORKS on in production: the SSRF guard lets these requests reach private and loopback addresses',
    )
  })
})
