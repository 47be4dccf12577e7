import crypto from 'node:crypto'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { BlockedAddressError, guardedRequest } from '#app/platform/security/ssrf.server'
import { ghostToken } from './ghost.server'
import { networkFailure, PublishError, statusFailure } from './http.server'

const res = (status: number, headers: Record<string, string> = {}, text = '') => ({ status, headers, text })

describe('publishing failures in one sentence', () => {
  it('names a redirect to another host, credentials, permissions and server trouble', () => {
    const url = 'https://blog.example.com/wp-json/'
    expect(statusFailure(res(301, { location: 'https://evil.example.net/' }), url, 'WordPress', 'auth').message).toBe(
      'blog.example.com redirects to another host (evil.example.net). Enter the address it redirects to.',
    )
    expect(statusFailure(res(401), url, 'WordPress', 'WordPress refused it.')).toMatchObject({
      kind: 'auth',
      retryable: false,
    })
    expect(statusFailure(res(403), url, 'Ghost', 'x').message).toMatch(/may not publish/)
    expect(statusFailure(res(503), url, 'Webflow', 'x')).toMatchObject({ kind: 'server', retryable: true })
    expect(
      statusFailure(res(400, {}, JSON.stringify({ message: '<b>Invalid</b> slug' })), url, 'WordPress', 'x').message,
    ).toBe('WordPress refused the post (HTTP 400: Invalid slug).')
  })

  it('refuses private addresses before connecting', async () => {
    const error = await guardedRequest('http://127.0.0.1:9/', {
      method: 'GET',
      timeoutMs: 1000,
      maxBytes: 1000,
      allowPrivate: false,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BlockedAddressError)
    const failure = networkFailure(error, '127.0.0.1:9')
    expect(failure).toMatchObject({ kind: 'blocked', retryable: false })
    expect(failure.message).toBe(
      'Rankwell only connects to public addresses, and 127.0.0.1:9 is not one (a private or internal address).',
    )
  })

  it('explains a TLS certificate that cannot be verified', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-'))
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ])
    expect(made.status).toBe(0)
    const server = https.createServer(
      { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) },
      (_req, r) => r.end('hi'),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    try {
      const error = await guardedRequest(`https://127.0.0.1:${port}/`, {
        method: 'GET',
        timeoutMs: 3000,
        maxBytes: 1000,
        allowPrivate: true,
      }).catch((e: unknown) => e)
      const failure = networkFailure(error, `127.0.0.1:${port}`)
      expect(failure).toBeInstanceOf(PublishError)
      expect(failure.kind).toBe('tls')
      expect(failure.message).toMatch(/TLS certificate could not be verified/)
    } finally {
      server.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('Ghost Admin API token', () => {
  it('is an HS256 JWT with the key id, audience /admin/ and five minutes of life, signed with the hex secret', () => {
    const id = crypto.randomBytes(12).toString('hex')
    const secret = crypto.randomBytes(32).toString('hex')
    const token = ghostToken(`${id}:${secret}`, 1_700_000_000_000)
    const [h, p, s] = token.split('.')
    expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toEqual({ alg: 'HS256', kid: id, typ: 'JWT' })
    expect(JSON.parse(Buffer.from(p!, 'base64url').toString())).toEqual({
      iat: 1_700_000_000,
      exp: 1_700_000_300,
      aud: '/admin/',
    })
    const expected = crypto.createHmac('sha256', Buffer.from(secret, 'hex')).update(`${h}.${p}`).digest('base64url')
    expect(s).toBe(expected)
  })
})
