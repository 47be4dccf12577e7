/**
 * Fake Google Ads API: KeywordPlanIdeaService.GenerateKeywordIdeas over REST, plus
 * its own OAuth token endpoint (refresh_token grant).
 *
 *   POST /token                                        (form-encoded refresh_token grant)
 *   POST /v{NN}/customers/{customerId}:generateKeywordIdeas
 *
 * Accepted bearer tokens: any token starting with "ya29.fake-" (minted by this fake's
 * /token or by the google-oauth fake). Proto3 JSON rules: int64 → strings, enums by
 * name, unset fields omitted, lowerCamelCase.
 */
import { randomBytes } from 'node:crypto'
import {
  basicCredentials,
  bearerToken,
  isRecord,
  randomAlnum,
  sendJson,
  startFakeServer,
  str,
  type FakeHandle,
  type FakeOptions,
  type FakeRequest,
} from './http'
import { generateIdeas, isEmptySeed, type KeywordIdea } from './keywords'

export interface GoogleAdsOptions extends FakeOptions {
  /** When set, only this developer token is accepted (else any non-empty). */
  developerToken?: string
  /** When set, /token only accepts these client credentials / refresh token. */
  clientId?: string
  clientSecret?: string
  refreshToken?: string
}

export type GoogleAdsFakeHandle = FakeHandle

export const FAKE_ACCESS_TOKEN_PREFIX = 'ya29.fake-'
const API_VERSION_FALLBACK = 'v21'
const MONTHS = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
]

export function mintAccessToken(): string {
  return FAKE_ACCESS_TOKEN_PREFIX + randomBytes(24).toString('base64url')
}

export function adsFailure(
  version: string,
  httpStatus: number,
  status: string,
  message: string,
  errorCode: Record<string, string>,
  errorMessage: string,
  requestId: string,
  fieldName?: string,
): Record<string, unknown> {
  return {
    error: {
      code: httpStatus,
      message,
      status,
      details: [
        {
          '@type': `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
          errors: [
            {
              errorCode,
              message: errorMessage,
              ...(fieldName ? { location: { fieldPathElements: [{ fieldName }] } } : {}),
            },
          ],
          requestId,
        },
      ],
    },
  }
}

function micros(n: number | null): string | undefined {
  return n === null ? undefined : String(Math.round(n * 1_000_000))
}

function ideaToProto(i: KeywordIdea, includeAverageCpc: boolean): Record<string, unknown> {
  const metrics: Record<string, unknown> = {}
  if (i.competitionLevel) metrics.competition = i.competitionLevel
  else if (i.searchVolume !== null) metrics.competition = 'UNKNOWN'
  if (i.monthly) {
    metrics.monthlySearchVolumes = i.monthly.map((m) => ({
      month: MONTHS[m.month - 1],
      year: String(m.year),
      monthlySearches: String(m.searchVolume),
    }))
  }
  if (i.searchVolume !== null) metrics.avgMonthlySearches = String(i.searchVolume)
  if (i.competitionIndex !== null) metrics.competitionIndex = String(i.competitionIndex)
  const low = micros(i.lowTopOfPageBid)
  const high = micros(i.highTopOfPageBid)
  if (low !== undefined) metrics.lowTopOfPageBidMicros = low
  if (high !== undefined) metrics.highTopOfPageBidMicros = high
  if (includeAverageCpc && i.cpc !== null) metrics.averageCpcMicros = micros(i.cpc)
  return { text: i.keyword, keywordIdeaMetrics: metrics }
}

function seedsFromUrl(url: string): string[] {
  try {
    const u = new URL(/^https?:\/\//.test(url) ? url : `https://${url}`)
    const words = `${u.hostname.replace(/^www\./, '').split('.')[0]} ${u.pathname}`
      .split(/[^a-z0-9]+/i)
      .filter((w) => w.length > 2)
      .map((w) => w.toLowerCase())
    return words.length > 0 ? [words.slice(0, 3).join(' ')] : ['website']
  } catch {
    return ['website']
  }
}

export async function startGoogleAds(opts: GoogleAdsOptions = {}): Promise<GoogleAdsFakeHandle> {
  function requestId(): string {
    return randomAlnum('', 22)
  }

  function tokenEndpoint(ctx: FakeRequest): void {
    const body = isRecord(ctx.body) ? ctx.body : {}
    const basic = basicCredentials(ctx.headers)
    const clientId = basic?.user ?? str(body.client_id) ?? ''
    const clientSecret = basic?.pass ?? str(body.client_secret) ?? ''
    const grantType = str(body.grant_type)
    if (grantType !== 'refresh_token') {
      sendJson(ctx.res, 400, {
        error: 'unsupported_grant_type',
        error_description: 'Invalid grant_type: ' + (grantType ?? ''),
      })
      return
    }
    if (
      !clientId ||
      !clientSecret ||
      (opts.clientId && clientId !== opts.clientId) ||
      (opts.clientSecret && clientSecret !== opts.clientSecret)
    ) {
      sendJson(ctx.res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' })
      return
    }
    const refresh = str(body.refresh_token) ?? ''
    if (!refresh || (opts.refreshToken && refresh !== opts.refreshToken)) {
      sendJson(ctx.res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' })
      return
    }
    sendJson(ctx.res, 200, {
      access_token: mintAccessToken(),
      expires_in: 3599,
      scope: 'https://www.googleapis.com/auth/adwords',
      token_type: 'Bearer',
    })
  }

  function generateKeywordIdeas(ctx: FakeRequest, version: string, customerId: string): void {
    const rid = requestId()
    const headers = { 'request-id': rid }
    const fail = (
      http: number,
      status: string,
      message: string,
      code: Record<string, string>,
      detail: string,
      field?: string,
    ): void => sendJson(ctx.res, http, adsFailure(version, http, status, message, code, detail, rid, field), headers)

    const token = bearerToken(ctx.headers)
    if (!token || !token.startsWith(FAKE_ACCESS_TOKEN_PREFIX)) {
      fail(
        401,
        'UNAUTHENTICATED',
        'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        { authenticationError: token ? 'OAUTH_TOKEN_INVALID' : 'AUTHENTICATION_ERROR' },
        token ? 'Oauth token is invalid.' : 'Authentication of the request failed.',
      )
      return
    }
    const devToken = ctx.headers['developer-token']
    const dev = Array.isArray(devToken) ? devToken[0] : devToken
    if (!dev || (opts.developerToken !== undefined && dev !== opts.developerToken)) {
      fail(
        403,
        'PERMISSION_DENIED',
        'The caller does not have permission',
        { authorizationError: 'DEVELOPER_TOKEN_NOT_APPROVED' },
        dev
          ? 'The developer token is not approved. Non-approved developer tokens can only be used with test accounts.'
          : 'The developer token is missing from the request headers.',
      )
      return
    }
    if (!/^\d{10}$/.test(customerId)) {
      fail(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        { requestError: 'INVALID_CUSTOMER_ID' },
        'Invalid customer ID.',
        'customer_id',
      )
      return
    }
    const body = isRecord(ctx.body) ? ctx.body : undefined
    if (!body) {
      fail(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        { requestError: 'INVALID_INPUT' },
        'The request body is not valid JSON.',
      )
      return
    }
    const seedKinds = ['keywordSeed', 'keywordAndUrlSeed', 'urlSeed', 'siteSeed'].filter((k) => body[k] !== undefined)
    if (seedKinds.length !== 1) {
      fail(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        { keywordPlanIdeaError: seedKinds.length === 0 ? 'URL_OR_KEYWORD_SEED_REQUIRED' : 'INVALID_SEED' },
        seedKinds.length === 0
          ? 'At least one of keyword or url seed must be specified.'
          : 'Only one seed type may be set.',
        'seed',
      )
      return
    }
    let seeds: string[] = []
    const seedField = body[seedKinds[0]]
    if (isRecord(seedField)) {
      if (Array.isArray(seedField.keywords))
        seeds = seedField.keywords.filter((k): k is string => typeof k === 'string')
      if (seeds.length === 0 && typeof seedField.url === 'string') seeds = seedsFromUrl(seedField.url)
      if (seeds.length === 0 && typeof seedField.site === 'string') seeds = seedsFromUrl(seedField.site)
    }
    if (seeds.length === 0) {
      fail(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        { requestError: 'INVALID_INPUT' },
        'The seed keywords are empty.',
        'keyword_seed',
      )
      return
    }
    if (seeds.length > 20) {
      fail(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        { collectionSizeError: 'TOO_MANY' },
        'Too many keywords in the seed. Max is 20.',
        'keywords',
      )
      return
    }
    const geos = Array.isArray(body.geoTargetConstants)
      ? body.geoTargetConstants.filter((g): g is string => typeof g === 'string')
      : []
    if (geos.length > 10) {
      fail(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        { collectionSizeError: 'TOO_MANY' },
        'Too many geo target constants. Max is 10.',
        'geo_target_constants',
      )
      return
    }
    if (
      geos.some((g) => !/^geoTargetConstants\/\d+$/.test(g)) ||
      (body.language !== undefined && !/^languageConstants\/\d+$/.test(String(body.language)))
    ) {
      fail(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        { requestError: 'INVALID_INPUT' },
        'Invalid resource name.',
        geos.length ? 'geo_target_constants' : 'language',
      )
      return
    }

    if (isEmptySeed(seeds)) {
      sendJson(ctx.res, 200, {}, headers)
      return
    }
    const marketKey = `${geos.map((g) => g.split('/')[1]).join(',') || 'worldwide'}|${str(body.language)?.split('/')[1] ?? 'any'}`
    const ideas = generateIdeas(seeds, marketKey)
    const pageSize = Math.max(1, Math.min(10_000, Number(body.pageSize) || 10_000))
    let offset = 0
    if (typeof body.pageToken === 'string' && body.pageToken.length > 0) {
      const decoded = Number(Buffer.from(body.pageToken, 'base64url').toString('utf8').replace(/^o:/, ''))
      if (!Number.isInteger(decoded) || decoded < 0) {
        fail(
          400,
          'INVALID_ARGUMENT',
          'Request contains an invalid argument.',
          { requestError: 'INVALID_PAGE_TOKEN' },
          'Page token is invalid.',
          'page_token',
        )
        return
      }
      offset = decoded
    }
    const includeAvgCpc =
      isRecord(body.historicalMetricsOptions) && body.historicalMetricsOptions.includeAverageCpc === true
    const page = ideas.slice(offset, offset + pageSize)
    const out: Record<string, unknown> = {}
    if (page.length > 0) out.results = page.map((i) => ideaToProto(i, includeAvgCpc))
    if (offset + pageSize < ideas.length)
      out.nextPageToken = Buffer.from(`o:${offset + pageSize}`).toString('base64url')
    out.totalSize = String(ideas.length)
    sendJson(ctx.res, 200, out, headers)
  }

  const handle = await startFakeServer(
    {
      name: 'google-ads',
      defaultErrorBody: (status) => {
        const map: Record<number, [string, string, Record<string, string>]> = {
          400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.', { requestError: 'INVALID_INPUT' }],
          401: [
            'UNAUTHENTICATED',
            'Request had invalid authentication credentials.',
            { authenticationError: 'OAUTH_TOKEN_INVALID' },
          ],
          403: [
            'PERMISSION_DENIED',
            'The caller does not have permission',
            { authorizationError: 'USER_PERMISSION_DENIED' },
          ],
          429: [
            'RESOURCE_EXHAUSTED',
            'Resource has been exhausted (e.g. check quota).',
            { quotaError: 'RESOURCE_EXHAUSTED' },
          ],
          503: ['UNAVAILABLE', 'The service is currently unavailable.', { internalError: 'TRANSIENT_ERROR' }],
        }
        const [st, msg, code] = map[status] ?? [
          'INTERNAL',
          'Internal error encountered.',
          { internalError: 'INTERNAL_ERROR' },
        ]
        const body = adsFailure(API_VERSION_FALLBACK, status, st, msg, code, msg, randomAlnum('', 22))
        if (status === 429) {
          const details = ((body.error as Record<string, unknown>).details as Array<Record<string, unknown>>)[0]
          ;(details.errors as Array<Record<string, unknown>>)[0].details = {
            quotaErrorDetails: {
              rateScope: 'DEVELOPER',
              rateName: 'Number of operations for explorer access',
              retryDelay: '1s',
            },
          }
        }
        return body
      },
      handler: (ctx) => {
        if (
          (ctx.path === '/token' || ctx.path === '/oauth2/v3/token' || ctx.path === '/oauth2/v4/token') &&
          ctx.method === 'POST'
        ) {
          tokenEndpoint(ctx)
          return
        }
        const m = /^\/(v\d+)\/customers\/([^/:]+):generateKeywordIdeas$/.exec(ctx.path)
        if (m && ctx.method === 'POST') {
          generateKeywordIdeas(ctx, m[1], decodeURIComponent(m[2]))
          return
        }
        sendJson(ctx.res, 404, {
          error: {
            code: 404,
            message: `The requested URL ${ctx.path} was not found on this server.`,
            status: 'NOT_FOUND',
          },
        })
      },
    },
    opts,
  )
  const { server: _server, ...rest } = handle
  return rest
}
