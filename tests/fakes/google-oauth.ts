/**
 * Fake Google OAuth 2.0 / OpenID Connect provider on a single base URL.
 *
 *   GET  /.well-known/openid-configuration
 *   GET  /o/oauth2/v2/auth                 consent page (plain HTML form, no JS needed)
 *   POST /o/oauth2/v2/auth/decision        → 302 redirect_uri?code=&state=&scope= | ?error=access_denied&state=
 *   POST /token                            authorization_code + refresh_token grants (client_secret_post / _basic)
 *   GET  /oauth2/v3/certs                  JWKS (RS256)
 *   GET  /v1/userinfo, /oauth2/v3/userinfo, /oauth2/v2/userinfo
 *   GET  /oauth2/v3/tokeninfo, POST /revoke (token= in the form body or the query; revoking either token of a grant
 *                                     ends the whole grant, like Google)
 * PKCE (RFC 7636): a code issued for a `code_challenge` needs the matching `code_verifier` (S256 or plain), else
 *   Google's `invalid_grant`; a verifier sent for a code issued without a challenge is refused the same way.
 *   GET  /webmasters/v3/sites             Search Console sites.list (needs a webmasters scope)
 *   POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query   searchanalytics.query (paged by rowLimit/startRow)
 * Control: POST /__control/identity {email,name,email_verified,sub?,picture?}, POST /__control/auto {decision},
 *   POST /__control/search-console/site {siteUrl, permissionLevel?, rows?: [{date,page,query,clicks,impressions,position}]},
 *   POST /__control/search-console/page-cap {rows} (fewer rows per page than asked, to exercise paging),
 *   GET /__control/revocations (every /revoke call: {token, revoked, at}; `revoked`: it ended a live grant)
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import {
  basicCredentials,
  bearerToken,
  escapeHtml,
  isRecord,
  redirect,
  sendHtml,
  sendJson,
  startFakeServer,
  str,
  type FakeHandle,
  type FakeOptions,
  type FakeRequest,
} from './http'
import { FAKE_ACCESS_TOKEN_PREFIX } from './google-ads'

export interface OAuthClient {
  clientId: string
  clientSecret: string
}

export interface StaticRefreshToken {
  refreshToken: string
  clientId: string
  scope?: string
  email?: string
}

export interface GoogleOAuthOptions extends FakeOptions {
  /** Registered clients. When omitted, any client_id/secret pair is accepted. */
  clients?: OAuthClient[]
  /** Pre-provisioned refresh tokens (e.g. the Google Ads refresh token). */
  refreshTokens?: StaticRefreshToken[]
}

export interface Identity {
  email: string
  name: string
  email_verified: boolean
  sub?: string
  picture?: string
}

export type AutoDecision = 'allow' | 'deny' | null

/** One call of /revoke: the token sent, and whether it ended a live grant (else Google's 400 invalid_token). */
export interface Revocation {
  token: string
  revoked: boolean
  at: string
}

/** One day of one query on one page, as Search Console records it. */
export interface SearchConsoleRow {
  date: string
  page: string
  query: string
  clicks: number
  impressions: number
  position: number
}

export type GoogleOAuthFakeHandle = FakeHandle & {
  /** Adds a Search Console property (visible to every grant with a webmasters scope) and its rows. */
  addSearchConsoleSite(siteUrl: string, rows?: SearchConsoleRow[], permissionLevel?: string): void
  setIdentity(identity: Partial<Identity>): void
  setAutoDecision(decision: AutoDecision): void
  /** The public JWKS served at /oauth2/v3/certs. */
  jwks(): { keys: Array<Record<string, unknown>> }
  /** Mint an ID token directly (for unit-style tests). */
  signIdToken(claims: Record<string, unknown>): string
  /** Every /revoke call, oldest first. */
  revocations(): Revocation[]
}

export const GOOGLE_ISSUER = 'https://accounts.google.com'

interface AuthRequest {
  clientId: string
  redirectUri: string
  scope: string
  state?: string
  nonce?: string
  accessType: string
  codeChallenge?: string
  codeChallengeMethod?: string
  loginHint?: string
  prompt?: string
}

interface IssuedCode {
  grant: string
  request: AuthRequest
  identity: Identity
  expiresAt: number
  used: boolean
}

interface AccessTokenInfo {
  /** The grant (consent) the token belongs to: revoking any token of a grant ends all of them. */
  grant: string
  clientId: string
  scope: string
  identity: Identity | null
  expiresAt: number
}

interface RefreshTokenInfo {
  grant: string
  clientId: string
  scope: string
  identity: Identity | null
  nonce?: string
}

const DEFAULT_IDENTITY: Identity = { email: 'jane@example.com', name: 'Jane Doe', email_verified: true }

function b64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url')
}

/** Stable numeric Google-style subject id derived from the email. */
export function subjectFor(email: string): string {
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest()
  let digits = ''
  for (const byte of digest) digits += String(byte % 10)
  return `1${digits.slice(0, 20)}`
}

function splitName(name: string): { given: string; family: string } {
  const parts = name.trim().split(/\s+/)
  if (parts.length <= 1) return { given: parts[0] ?? '', family: '' }
  return { given: parts.slice(0, -1).join(' '), family: parts[parts.length - 1] }
}

function pictureFor(identity: Identity): string {
  return identity.picture ?? `https://lh3.googleusercontent.com/a/fake-${subjectFor(identity.email).slice(0, 12)}=s96-c`
}

function pageShell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f0f4f9;margin:0;padding:40px 16px;color:#1f1f1f}
main{max-width:420px;margin:0 auto;background:#fff;border-radius:16px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:22px;font-weight:500;margin:0 0 8px}p{color:#444;font-size:14px}
label{display:block;font-size:13px;margin:14px 0 4px;color:#444}
input[type=email],input[type=text],select{width:100%;box-sizing:border-box;padding:10px;border:1px solid #c4c7c5;border-radius:6px;font-size:15px}
.actions{display:flex;gap:12px;justify-content:flex-end;margin-top:24px}
button{padding:10px 22px;border-radius:20px;font-size:14px;cursor:pointer;border:1px solid #747775;background:#fff}
button.primary{background:#0b57d0;color:#fff;border-color:#0b57d0}
code{font-size:12px;word-break:break-all}
</style></head><body><main>${body}</main></body></html>`
}

export async function startGoogleOAuth(opts: GoogleOAuthOptions = {}): Promise<GoogleOAuthFakeHandle> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = randomBytes(20).toString('hex')
  const jwk = publicKey.export({ format: 'jwk' })
  const jwks = { keys: [{ kty: 'RSA', alg: 'RS256', use: 'sig', kid, n: jwk.n, e: jwk.e }] }

  let identity: Identity = { ...DEFAULT_IDENTITY }
  let auto: AutoDecision = null
  const pending = new Map<string, AuthRequest>()
  const codes = new Map<string, IssuedCode>()
  const accessTokens = new Map<string, AccessTokenInfo>()
  const refreshTokens = new Map<string, RefreshTokenInfo>()
  const scSites = new Map<string, { permissionLevel: string; rows: SearchConsoleRow[] }>()
  let scPageCap = 25_000
  let revocations: Revocation[] = []

  /** Ends the grant `token` belongs to (every access and refresh token of it); false when it is not a live token. */
  function revokeGrant(token: string): boolean {
    const grant = accessTokens.get(token)?.grant ?? refreshTokens.get(token)?.grant
    if (!grant) return false
    for (const [t, info] of accessTokens) if (info.grant === grant) accessTokens.delete(t)
    for (const [t, info] of refreshTokens) if (info.grant === grant) refreshTokens.delete(t)
    return true
  }

  function seedStatic(): void {
    for (const r of opts.refreshTokens ?? []) {
      refreshTokens.set(r.refreshToken, {
        grant: `static-${r.refreshToken}`,
        clientId: r.clientId,
        scope: r.scope ?? 'https://www.googleapis.com/auth/adwords',
        identity: r.email ? { email: r.email, name: r.email.split('@')[0], email_verified: true } : null,
      })
    }
  }
  seedStatic()

  function signJwt(claims: Record<string, unknown>, key: KeyObject = privateKey): string {
    const header = b64url(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' }))
    const payload = b64url(JSON.stringify(claims))
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key)
    return `${header}.${payload}.${b64url(signature)}`
  }

  function idTokenFor(id: Identity, clientId: string, accessToken: string, nonce?: string): string {
    const now = Math.floor(Date.now() / 1000)
    const { given, family } = splitName(id.name)
    const atHash = b64url(createHash('sha256').update(accessToken).digest().subarray(0, 16))
    const domain = id.email.split('@')[1] ?? ''
    return signJwt({
      iss: GOOGLE_ISSUER,
      azp: clientId,
      aud: clientId,
      sub: id.sub ?? subjectFor(id.email),
      ...(domain && !['gmail.com', 'googlemail.com', 'example.com'].includes(domain) ? { hd: domain } : {}),
      email: id.email,
      email_verified: id.email_verified,
      at_hash: atHash,
      ...(nonce ? { nonce } : {}),
      name: id.name,
      picture: pictureFor(id),
      given_name: given,
      family_name: family,
      locale: 'en',
      iat: now,
      exp: now + 3600,
    })
  }

  function userinfo(id: Identity, scope: string): Record<string, unknown> {
    const { given, family } = splitName(id.name)
    const scopes = scope.split(/\s+/)
    const wantsEmail = scopes.some((s) => s === 'email' || s.endsWith('/userinfo.email'))
    const wantsProfile = scopes.some((s) => s === 'profile' || s.endsWith('/userinfo.profile'))
    return {
      sub: id.sub ?? subjectFor(id.email),
      ...(wantsProfile
        ? {
            name: id.name,
            given_name: given,
            ...(family ? { family_name: family } : {}),
            picture: pictureFor(id),
            locale: 'en',
          }
        : {}),
      ...(wantsEmail ? { email: id.email, email_verified: id.email_verified } : {}),
    }
  }

  function clientOk(clientId: string, clientSecret: string | undefined): boolean {
    if (!clientId) return false
    if (!opts.clients) return clientSecret === undefined || clientSecret.length > 0
    const c = opts.clients.find((x) => x.clientId === clientId)
    if (!c) return false
    return clientSecret === undefined || c.clientSecret === clientSecret
  }

  function authRequestFrom(q: Record<string, unknown>): AuthRequest | string {
    const clientId = str(q.client_id)
    const redirectUri = str(q.redirect_uri)
    if (!clientId) return 'Missing required parameter: client_id'
    if (!clientOk(clientId, undefined)) return 'The OAuth client was not found. (invalid_client)'
    if (!redirectUri) return 'Missing required parameter: redirect_uri'
    try {
      const u = new URL(redirectUri)
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Invalid parameter value for redirect_uri'
    } catch {
      return 'Invalid parameter value for redirect_uri: Missing scheme'
    }
    if (str(q.response_type) !== 'code') return `Unsupported response_type: ${str(q.response_type) ?? '(missing)'}`
    const scope = str(q.scope)
    if (!scope) return 'Missing required parameter: scope'
    return {
      clientId,
      redirectUri,
      scope,
      state: str(q.state),
      nonce: str(q.nonce),
      accessType: str(q.access_type) ?? 'online',
      codeChallenge: str(q.code_challenge),
      codeChallengeMethod: str(q.code_challenge_method),
      loginHint: str(q.login_hint),
      prompt: str(q.prompt),
    }
  }

  function expandScope(scope: string): string {
    const parts = scope.split(/\s+/).filter(Boolean)
    const out = new Set<string>()
    for (const p of parts) {
      if (p === 'email') out.add('https://www.googleapis.com/auth/userinfo.email')
      else if (p === 'profile') out.add('https://www.googleapis.com/auth/userinfo.profile')
      else out.add(p)
    }
    return [...out].join(' ')
  }

  function redirectWithCode(ctx: FakeRequest, request: AuthRequest, id: Identity): void {
    const code = `4/0Afake${randomBytes(24).toString('base64url')}`
    codes.set(code, {
      grant: randomBytes(12).toString('hex'),
      request,
      identity: id,
      expiresAt: Date.now() + 10 * 60_000,
      used: false,
    })
    const target = new URL(request.redirectUri)
    if (request.state !== undefined) target.searchParams.set('state', request.state)
    target.searchParams.set('code', code)
    target.searchParams.set('scope', expandScope(request.scope))
    target.searchParams.set('authuser', '0')
    target.searchParams.set('prompt', request.prompt ?? 'consent')
    redirect(ctx.res, 302, target.toString())
  }

  function redirectDenied(ctx: FakeRequest, request: AuthRequest): void {
    const target = new URL(request.redirectUri)
    target.searchParams.set('error', 'access_denied')
    if (request.state !== undefined) target.searchParams.set('state', request.state)
    redirect(ctx.res, 302, target.toString())
  }

  function authPage(ctx: FakeRequest): void {
    const request = authRequestFrom(ctx.query)
    if (typeof request === 'string') {
      sendHtml(
        ctx.res,
        400,
        pageShell(
          'Error 400: invalid_request',
          `<h1>Access blocked: Authorization Error</h1><p>Error 400: invalid_request</p><p>${escapeHtml(request)}</p>`,
        ),
      )
      return
    }
    if (auto === 'allow') {
      redirectWithCode(ctx, request, {
        ...identity,
        ...(request.loginHint?.includes('@') ? { email: request.loginHint } : {}),
      })
      return
    }
    if (auto === 'deny') {
      redirectDenied(ctx, request)
      return
    }
    const reqId = randomBytes(16).toString('hex')
    pending.set(reqId, request)
    const email = request.loginHint?.includes('@') ? request.loginHint : identity.email
    const appHost = new URL(request.redirectUri).host
    const html = pageShell(
      'Sign in with Google (fake)',
      `<h1>Sign in with Google (fake)</h1>
<p>to continue to <strong>${escapeHtml(appHost)}</strong></p>
<form method="post" action="/o/oauth2/v2/auth/decision">
<input type="hidden" name="request_id" value="${reqId}">
<label for="email">Email</label>
<input id="email" type="email" name="email" value="${escapeHtml(email)}" required>
<label for="name">Name</label>
<input id="name" type="text" name="name" value="${escapeHtml(identity.name)}">
<label for="email_verified">Email verified</label>
<select id="email_verified" name="email_verified">
<option value="true"${identity.email_verified ? ' selected' : ''}>true</option>
<option value="false"${identity.email_verified ? '' : ' selected'}>false</option>
</select>
<p>Requested scopes: <code>${escapeHtml(request.scope)}</code></p>
<div class="actions">
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>`,
    )
    sendHtml(ctx.res, 200, html)
  }

  function decision(ctx: FakeRequest): void {
    const body = isRecord(ctx.body) ? ctx.body : {}
    const reqId = str(body.request_id) ?? ''
    const request = pending.get(reqId)
    if (!request) {
      sendHtml(
        ctx.res,
        400,
        pageShell(
          'Error 400: invalid_request',
          '<h1>Error 400: invalid_request</h1><p>Unknown or expired authorization request.</p>',
        ),
      )
      return
    }
    pending.delete(reqId)
    if (str(body.decision) === 'deny') {
      redirectDenied(ctx, request)
      return
    }
    const email = (str(body.email) ?? identity.email).trim() || identity.email
    const chosen: Identity = {
      email,
      name: (str(body.name) ?? '').trim() || (email === identity.email ? identity.name : email.split('@')[0]),
      email_verified:
        body.email_verified === undefined
          ? identity.email_verified
          : ['true', 'on', '1', 'yes'].includes(String(body.email_verified)),
      ...(email === identity.email && identity.sub ? { sub: identity.sub } : {}),
      ...(email === identity.email && identity.picture ? { picture: identity.picture } : {}),
    }
    redirectWithCode(ctx, request, chosen)
  }

  function tokenError(ctx: FakeRequest, status: number, error: string, description: string): void {
    sendJson(ctx.res, status, { error, error_description: description }, { 'cache-control': 'no-store' })
  }

  function token(ctx: FakeRequest): void {
    const body = isRecord(ctx.body) ? ctx.body : {}
    const basic = basicCredentials(ctx.headers)
    const clientId = basic?.user ?? str(body.client_id) ?? ''
    const clientSecret = basic?.pass ?? str(body.client_secret) ?? ''
    const grant = str(body.grant_type)
    if (!clientId) {
      tokenError(ctx, 400, 'invalid_request', 'Could not determine client ID from request.')
      return
    }
    if (!clientOk(clientId, clientSecret) || !clientSecret) {
      tokenError(ctx, 401, 'invalid_client', 'Unauthorized')
      return
    }
    const now = Date.now()
    if (grant === 'authorization_code') {
      const code = str(body.code) ?? ''
      const issued = codes.get(code)
      if (!issued || issued.used || issued.expiresAt < now) {
        if (issued) issued.used = true
        tokenError(ctx, 400, 'invalid_grant', 'Malformed auth code.')
        return
      }
      issued.used = true
      if (issued.request.clientId !== clientId) {
        tokenError(ctx, 400, 'invalid_grant', 'Bad Request')
        return
      }
      if (str(body.redirect_uri) !== issued.request.redirectUri) {
        tokenError(ctx, 400, 'invalid_grant', 'Bad Request')
        return
      }
      const verifier = str(body.code_verifier)
      if (issued.request.codeChallenge) {
        if (!verifier) {
          tokenError(ctx, 400, 'invalid_grant', 'Missing code verifier.')
          return
        }
        const expected =
          issued.request.codeChallengeMethod === 'S256'
            ? b64url(createHash('sha256').update(verifier).digest())
            : verifier
        if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || expected !== issued.request.codeChallenge) {
          tokenError(ctx, 400, 'invalid_grant', 'Invalid code verifier.')
          return
        }
      } else if (verifier !== undefined) {
        tokenError(ctx, 400, 'invalid_grant', 'code_verifier or verifier is not needed.')
        return
      }
      const scope = expandScope(issued.request.scope)
      const accessToken = FAKE_ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url')
      accessTokens.set(accessToken, {
        grant: issued.grant,
        clientId,
        scope,
        identity: issued.identity,
        expiresAt: now + 3599_000,
      })
      const out: Record<string, unknown> = { access_token: accessToken, expires_in: 3599 }
      if (issued.request.accessType === 'offline') {
        const refresh = `1//0gfake${randomBytes(32).toString('base64url')}`
        refreshTokens.set(refresh, {
          grant: issued.grant,
          clientId,
          scope,
          identity: issued.identity,
          nonce: issued.request.nonce,
        })
        out.refresh_token = refresh
      }
      out.scope = scope
      out.token_type = 'Bearer'
      if (scope.split(' ').includes('openid'))
        out.id_token = idTokenFor(issued.identity, clientId, accessToken, issued.request.nonce)
      sendJson(ctx.res, 200, out, { 'cache-control': 'no-store' })
      return
    }
    if (grant === 'refresh_token') {
      const refresh = str(body.refresh_token) ?? ''
      const info = refreshTokens.get(refresh)
      if (!info || info.clientId !== clientId) {
        tokenError(ctx, 400, 'invalid_grant', 'Token has been expired or revoked.')
        return
      }
      const accessToken = FAKE_ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url')
      accessTokens.set(accessToken, {
        grant: info.grant,
        clientId,
        scope: info.scope,
        identity: info.identity,
        expiresAt: now + 3599_000,
      })
      const out: Record<string, unknown> = {
        access_token: accessToken,
        expires_in: 3599,
        scope: info.scope,
        token_type: 'Bearer',
      }
      if (info.identity && info.scope.split(' ').includes('openid'))
        out.id_token = idTokenFor(info.identity, clientId, accessToken)
      sendJson(ctx.res, 200, out, { 'cache-control': 'no-store' })
      return
    }
    tokenError(ctx, 400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`)
  }

  function accessInfo(ctx: FakeRequest, tokenOverride?: string): AccessTokenInfo | undefined {
    const t = tokenOverride ?? bearerToken(ctx.headers) ?? str(ctx.query.access_token)
    if (!t) return undefined
    const info = accessTokens.get(t)
    if (!info || info.expiresAt < Date.now()) return undefined
    return info
  }

  function userinfoEndpoint(ctx: FakeRequest): void {
    const info = accessInfo(ctx)
    if (!info || !info.identity) {
      sendJson(
        ctx.res,
        401,
        { error: 'invalid_request', error_description: 'Invalid Credentials' },
        {
          'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        },
      )
      return
    }
    sendJson(ctx.res, 200, userinfo(info.identity, info.scope))
  }

  function tokeninfo(ctx: FakeRequest): void {
    const idToken = str(ctx.query.id_token)
    if (idToken) {
      const parts = idToken.split('.')
      try {
        const claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>
        const stringified: Record<string, string> = {}
        for (const [k, v] of Object.entries(claims)) stringified[k] = String(v)
        sendJson(ctx.res, 200, { ...stringified, alg: 'RS256', kid, typ: 'JWT' })
      } catch {
        sendJson(ctx.res, 400, { error: 'invalid_token', error_description: 'Invalid Value' })
      }
      return
    }
    const t = str(ctx.query.access_token)
    const info = accessInfo(ctx, t)
    if (!info) {
      sendJson(ctx.res, 400, { error: 'invalid_token', error_description: 'Invalid Value' })
      return
    }
    sendJson(ctx.res, 200, {
      azp: info.clientId,
      aud: info.clientId,
      ...(info.identity
        ? {
            sub: info.identity.sub ?? subjectFor(info.identity.email),
            email: info.identity.email,
            email_verified: String(info.identity.email_verified),
          }
        : {}),
      scope: info.scope,
      exp: String(Math.floor(info.expiresAt / 1000)),
      expires_in: String(Math.max(0, Math.floor((info.expiresAt - Date.now()) / 1000))),
      access_type: 'online',
    })
  }

  function addSearchConsoleSite(siteUrl: string, rows: SearchConsoleRow[] = [], permissionLevel = 'siteOwner'): void {
    const site = scSites.get(siteUrl) ?? { permissionLevel, rows: [] }
    site.permissionLevel = permissionLevel
    site.rows.push(...rows)
    scSites.set(siteUrl, site)
  }

  /** Google API error envelope. */
  function apiError(ctx: FakeRequest, status: number, message: string, reason: string): void {
    const statusName: Record<number, string> = {
      400: 'INVALID_ARGUMENT',
      401: 'UNAUTHENTICATED',
      403: 'PERMISSION_DENIED',
      404: 'NOT_FOUND',
    }
    sendJson(ctx.res, status, {
      error: {
        code: status,
        message,
        errors: [{ message, domain: 'global', reason }],
        status: statusName[status] ?? 'UNKNOWN',
      },
    })
  }

  /** The caller's access token, when it carries a Search Console scope; answers the error otherwise. */
  function searchConsoleAuth(ctx: FakeRequest): AccessTokenInfo | undefined {
    const info = accessInfo(ctx)
    if (!info) {
      apiError(
        ctx,
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        'authError',
      )
      return undefined
    }
    const scopes = info.scope.split(/\s+/)
    if (
      !scopes.includes('https://www.googleapis.com/auth/webmasters.readonly') &&
      !scopes.includes('https://www.googleapis.com/auth/webmasters')
    ) {
      apiError(ctx, 403, 'Request had insufficient authentication scopes.', 'insufficientPermissions')
      return undefined
    }
    return info
  }

  function sitesList(ctx: FakeRequest): void {
    if (!searchConsoleAuth(ctx)) return
    const siteEntry = [...scSites.entries()].map(([siteUrl, s]) => ({ siteUrl, permissionLevel: s.permissionLevel }))
    sendJson(ctx.res, 200, siteEntry.length ? { siteEntry } : {})
  }

  const DIMENSIONS = ['date', 'page', 'query', 'country', 'device', 'searchAppearance']

  function searchAnalytics(ctx: FakeRequest, siteUrl: string): void {
    if (!searchConsoleAuth(ctx)) return
    const site = scSites.get(siteUrl)
    if (!site) {
      apiError(
        ctx,
        403,
        `User does not have sufficient permission for site '${siteUrl}'. See also: https://support.google.com/webmasters/answer/2451999.`,
        'forbidden',
      )
      return
    }
    const body = isRecord(ctx.body) ? ctx.body : {}
    const startDate = str(body.startDate)
    const endDate = str(body.endDate)
    const dateRe = /^\d{4}-\d{2}-\d{2}$/
    if (!startDate || !endDate || !dateRe.test(startDate) || !dateRe.test(endDate)) {
      apiError(ctx, 400, 'startDate and endDate are required (YYYY-MM-DD).', 'badRequest')
      return
    }
    if (startDate > endDate) {
      apiError(ctx, 400, 'startDate must be earlier than or equal to endDate.', 'badRequest')
      return
    }
    const dimensions = Array.isArray(body.dimensions) ? body.dimensions.map(String) : []
    const unknown = dimensions.find((d) => !DIMENSIONS.includes(d))
    if (unknown) {
      apiError(ctx, 400, `Invalid value at 'dimensions' (${unknown}).`, 'invalidParameter')
      return
    }
    const rowLimit = body.rowLimit === undefined ? 1000 : Number(body.rowLimit)
    const startRow = body.startRow === undefined ? 0 : Number(body.startRow)
    if (!Number.isInteger(rowLimit) || rowLimit < 1 || rowLimit > 25_000) {
      apiError(ctx, 400, 'rowLimit must be between 1 and 25000.', 'invalidParameter')
      return
    }
    if (!Number.isInteger(startRow) || startRow < 0) {
      apiError(ctx, 400, 'startRow must be a non-negative integer.', 'invalidParameter')
      return
    }
    const groups = new Map<string, { keys: string[]; clicks: number; impressions: number; weighted: number }>()
    for (const r of site.rows) {
      if (r.date < startDate || r.date > endDate) continue
      const keys = dimensions.map((d) => (d === 'date' ? r.date : d === 'page' ? r.page : d === 'query' ? r.query : ''))
      const key = JSON.stringify(keys)
      const g = groups.get(key) ?? { keys, clicks: 0, impressions: 0, weighted: 0 }
      g.clicks += r.clicks
      g.impressions += r.impressions
      g.weighted += r.position * r.impressions
      groups.set(key, g)
    }
    const all = [...groups.values()].sort(
      (a, b) => b.clicks - a.clicks || b.impressions - a.impressions || a.keys.join().localeCompare(b.keys.join()),
    )
    const page = all.slice(startRow, startRow + Math.min(rowLimit, scPageCap))
    const rows = page.map((g) => ({
      ...(dimensions.length ? { keys: g.keys } : {}),
      clicks: g.clicks,
      impressions: g.impressions,
      ctr: g.impressions ? g.clicks / g.impressions : 0,
      position: g.impressions ? g.weighted / g.impressions : 0,
    }))
    const aggregation = dimensions.includes('page') ? 'byPage' : 'byProperty'
    sendJson(
      ctx.res,
      200,
      rows.length ? { rows, responseAggregationType: aggregation } : { responseAggregationType: aggregation },
    )
  }

  const handle = await startFakeServer(
    {
      name: 'google-oauth',
      onReset: () => {
        identity = { ...DEFAULT_IDENTITY }
        auto = null
        pending.clear()
        codes.clear()
        accessTokens.clear()
        refreshTokens.clear()
        scSites.clear()
        scPageCap = 25_000
        revocations = []
        seedStatic()
      },
      defaultErrorBody: (status) =>
        status === 401
          ? { error: 'invalid_client', error_description: 'Unauthorized' }
          : status === 400
            ? { error: 'invalid_grant', error_description: 'Bad Request' }
            : {
                error: { code: status, message: 'Backend Error', status: status === 503 ? 'UNAVAILABLE' : 'INTERNAL' },
              },
      control: (ctx, sub) => {
        const body = isRecord(ctx.body) ? ctx.body : {}
        if (sub === 'identity' && ctx.method === 'POST') {
          setIdentity({
            ...(typeof body.email === 'string' ? { email: body.email } : {}),
            ...(typeof body.name === 'string' ? { name: body.name } : {}),
            ...(typeof body.email_verified === 'boolean' ? { email_verified: body.email_verified } : {}),
            ...(typeof body.sub === 'string' ? { sub: body.sub } : {}),
            ...(typeof body.picture === 'string' ? { picture: body.picture } : {}),
          })
          sendJson(ctx.res, 200, { ok: true, identity })
          return true
        }
        if (sub === 'identity' && ctx.method === 'GET') {
          sendJson(ctx.res, 200, { identity })
          return true
        }
        if (sub === 'search-console/site' && ctx.method === 'POST') {
          const siteUrl = str(body.siteUrl)
          if (!siteUrl) {
            sendJson(ctx.res, 400, { error: 'siteUrl is required' })
            return true
          }
          const rows = Array.isArray(body.rows) ? (body.rows as SearchConsoleRow[]) : []
          addSearchConsoleSite(siteUrl, rows, str(body.permissionLevel) ?? 'siteOwner')
          sendJson(ctx.res, 200, { ok: true, rows: scSites.get(siteUrl)?.rows.length ?? 0 })
          return true
        }
        if (sub === 'search-console/page-cap' && ctx.method === 'POST') {
          const n = Number(body.rows)
          scPageCap = Number.isInteger(n) && n > 0 ? n : 25_000
          sendJson(ctx.res, 200, { ok: true, rows: scPageCap })
          return true
        }
        if (sub === 'revocations' && ctx.method === 'GET') {
          sendJson(ctx.res, 200, { revocations })
          return true
        }
        if (sub === 'auto' && ctx.method === 'POST') {
          const d = body.decision
          auto = d === 'allow' || d === 'deny' ? d : null
          sendJson(ctx.res, 200, { ok: true, decision: auto })
          return true
        }
        return false
      },
      handler: (ctx) => {
        const { path, method } = ctx
        if (path === '/.well-known/openid-configuration' && method === 'GET') {
          const b = ctx.baseUrl
          sendJson(ctx.res, 200, {
            issuer: GOOGLE_ISSUER,
            authorization_endpoint: `${b}/o/oauth2/v2/auth`,
            device_authorization_endpoint: `${b}/device/code`,
            token_endpoint: `${b}/token`,
            userinfo_endpoint: `${b}/v1/userinfo`,
            revocation_endpoint: `${b}/revoke`,
            jwks_uri: `${b}/oauth2/v3/certs`,
            response_types_supported: [
              'code',
              'token',
              'id_token',
              'code token',
              'code id_token',
              'token id_token',
              'code token id_token',
              'none',
            ],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            scopes_supported: ['openid', 'email', 'profile'],
            token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
            claims_supported: [
              'aud',
              'email',
              'email_verified',
              'exp',
              'family_name',
              'given_name',
              'iat',
              'iss',
              'name',
              'picture',
              'sub',
            ],
            code_challenge_methods_supported: ['plain', 'S256'],
            grant_types_supported: [
              'authorization_code',
              'refresh_token',
              'urn:ietf:params:oauth:grant-type:device_code',
              'urn:ietf:params:oauth:grant-type:jwt-bearer',
            ],
          })
          return
        }
        if (path === '/webmasters/v3/sites' && method === 'GET') return sitesList(ctx)
        const analytics = /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/.exec(path)
        if (analytics && method === 'POST') return searchAnalytics(ctx, decodeURIComponent(analytics[1]!))
        if ((path === '/o/oauth2/v2/auth' || path === '/o/oauth2/auth') && method === 'GET') return authPage(ctx)
        if (path === '/o/oauth2/v2/auth/decision' && method === 'POST') return decision(ctx)
        if ((path === '/token' || path === '/oauth2/v4/token' || path === '/oauth2/v3/token') && method === 'POST')
          return token(ctx)
        if ((path === '/oauth2/v3/certs' || path === '/oauth2/v1/certs') && method === 'GET') {
          sendJson(ctx.res, 200, jwks, { 'cache-control': 'public, max-age=21600' })
          return
        }
        if (
          (path === '/v1/userinfo' ||
            path === '/oauth2/v3/userinfo' ||
            path === '/oauth2/v2/userinfo' ||
            path === '/openidconnect/v1/userinfo') &&
          (method === 'GET' || method === 'POST')
        ) {
          userinfoEndpoint(ctx)
          return
        }
        if ((path === '/oauth2/v3/tokeninfo' || path === '/tokeninfo') && (method === 'GET' || method === 'POST'))
          return tokeninfo(ctx)
        if ((path === '/revoke' || path === '/o/oauth2/revoke') && method === 'POST') {
          const t = str(ctx.query.token) ?? (isRecord(ctx.body) ? str(ctx.body.token) : undefined) ?? ''
          const revoked = revokeGrant(t)
          revocations.push({ token: t, revoked, at: new Date().toISOString() })
          if (revocations.length > 500) revocations.splice(0, revocations.length - 500)
          if (!revoked) {
            sendJson(ctx.res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' })
            return
          }
          sendJson(ctx.res, 200, {})
          return
        }
        sendJson(ctx.res, 404, { error: { code: 404, message: `Not found: ${method} ${path}`, status: 'NOT_FOUND' } })
      },
    },
    opts,
  )

  function setIdentity(next: Partial<Identity>): void {
    const emailChanged = next.email !== undefined && next.email !== identity.email
    identity = {
      ...identity,
      ...(emailChanged && next.sub === undefined ? { sub: undefined } : {}),
      ...(emailChanged && next.picture === undefined ? { picture: undefined } : {}),
      ...next,
    }
  }

  const { server: _server, ...rest } = handle
  return {
    ...rest,
    setIdentity,
    setAutoDecision: (d: AutoDecision) => {
      auto = d
    },
    addSearchConsoleSite,
    jwks: () => jwks,
    signIdToken: (claims: Record<string, unknown>) => signJwt(claims),
    revocations: () => [...revocations],
  }
}
