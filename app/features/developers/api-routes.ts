import type { z } from 'zod'
import {
  apiLoginSchema,
  apiDeleteAccountSchema,
  forgotPasswordSchema,
  onboardingSchema,
  profileSchema,
  resetPasswordSchema,
  signUpSchema,
} from '#app/features/accounts/account-schemas'
import type { ApiScope } from '#app/features/accounts/api-keys'
import { autopilotToggleSchema, webhookUrlForm } from '#app/features/autopilot/settings/autopilot'
import { checkoutSchema } from '#app/features/billing/billing'
import { contentSettingsSchema } from '#app/features/content/content-settings'
import { postListSchema } from '#app/features/content/library'
import { addLinkSchema, createPostSchema } from '#app/features/content/posts'
import { clusterMarketSchema, clusterQuerySchema } from '#app/features/keywords/clusters'
import { domainLookupSchema } from '#app/features/keywords/domains'
import { keywordListSchema } from '#app/features/keywords/keyword-library'
import { keywordSearchSchema } from '#app/features/keywords/keywords'
import { analyticsPayload } from '#app/features/marketing/analytics-schema'
import { leadInput } from '#app/features/marketing/leads'
import { keywordsInput, outlineInput, strategyInput, titlesInput } from '#app/features/marketing/seo-tools-schema'
import { deletePostSchema } from '#app/features/publishing/deletion'
import { destinationForm, publishActionSchema } from '#app/features/publishing/publishing'
import { historyQuerySchema } from '#app/features/rankings/rankings'
import { promptSchema } from '#app/features/visibility/settings'
import { aiVisibilityQuerySchema } from '#app/features/visibility/visibility'

/**
 * Every /api route (issue 38): method, path, what it does, who may call it, the zod schema the route validates with
 * (imported from the same module as the route's, so the document cannot drift from the code), its answers with an
 * example each, and its errors. `openapi.server.ts` turns this list into the OpenAPI 3.1 document; /developers renders
 * that document; tests/integration/openapi.test.ts checks that it lists exactly the routes that exist and that every
 * example request is accepted by the running app. Pure.
 */

/** What a personal API key must allow (sessions and the sign-in token hold every scope). */
export type Scope = ApiScope

/**
 * Who may call: `user` (a personal API key, the token `POST /api/login` returns, or the browser's session cookie),
 * `public` (nobody signed in), `stripe` (Stripe's signature), `browser` (a redirect for a person's browser).
 */
export type Auth = 'user' | 'public' | 'stripe' | 'browser'

export type Method = 'get' | 'post' | 'put' | 'delete'

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 429 | 500 | 502 | 503

export type ApiOperation = {
  operationId: string
  method: Method
  /** OpenAPI form: `/api/blogpost/{id}`. */
  path: string
  /** The route module under app/routes/ that answers it. */
  route: string
  tag: string
  summary: string
  description: string
  auth: Auth
  /** The API key scope needed (auth 'user' only): 'read' for GET, 'write' for changes, 'publish' to publish or approve. */
  scope?: Scope
  pathParams?: Record<string, { description: string; example: string }>
  /** The query the route parses with this schema (`parseParams`), and an example of it. */
  query?: { schema: z.ZodTypeAny; example: Record<string, string> }
  /** Query parameters the route reads without a schema. */
  queryParams?: Record<string, { description: string; example: string; required?: boolean }>
  /** The JSON body the route parses with this schema (`parseJson`), and an example that it accepts. */
  body?: { schema: z.ZodTypeAny; example: unknown }
  /** Success answers (2xx, 3xx); `example` null for an empty body. */
  responses: Array<{ status: number; description: string; example?: unknown; contentType?: string }>
  /** Error answers: {message, errors?}; a text here says when, else the generic meaning of the status. */
  errors: Partial<Record<ErrorStatus, string>>
  rateLimit?: string
  /** Retried safely with the same `Idempotency-Key` header. */
  idempotent?: boolean
  /** Pages by cursor: `limit` and `cursor` in, `nextCursor` out. */
  paginated?: boolean
  /** The MCP tool that does the same (app/features/developers/mcp.server.ts). */
  mcpTool?: string
  /** Not for API clients (webhooks, browser redirects, the site's own beacons): listed for completeness. */
  internal?: boolean
}

/** The generic meaning of each error status (the answer is always JSON {message, errors?}). */
export const ERROR_MEANINGS: Record<ErrorStatus, string> = {
  400: 'The request is not valid: `errors` names each bad field with its message.',
  401: 'No key or token, or a revoked, expired or wrong one.',
  402: 'Over the plan’s quota: `redirect_to_profile: true`; upgrade on /profile.',
  403: 'The key lacks the scope this needs, or the session has ended.',
  404: 'No such record, or it belongs to another account.',
  405: 'The method is not allowed on this path.',
  409: 'In conflict with the current state (see the message).',
  413: 'The body is too large.',
  429: 'Too many requests: wait the seconds in `Retry-After`.',
  500: 'An unexpected failure on our side.',
  502: 'A provider we depend on failed; nothing was charged.',
  503: 'Temporarily unavailable (a service we depend on is away for a moment): retry after `Retry-After`.',
}

/** Every operation answers these when it applies; listed once per operation by openapi.server.ts. */
const USER_ERRORS = { 401: ERROR_MEANINGS[401], 403: ERROR_MEANINGS[403], 429: 'Too many requests with this key.' }

const POST_ID = '3f1c2a4e-8b7d-4c61-9e2f-0a5b6c7d8e9f'
const KEYWORD_ID = '7a2e4c1b-5d3f-4e8a-9b6c-1d2e3f4a5b6c'
const DESTINATION_ID = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'
const CREATED = '2026-11-20T09:30:00.000Z'
const PROMPT_ID = '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'

const keywordExample = {
  _id: KEYWORD_ID,
  keyword: 'email marketing for saas',
  avgMonthlySearches: 1900,
  difficultyScore: 34,
  createdAt: CREATED,
  searchedViaAutoPilot: false,
  countryCode: '2840',
  countryName: 'United States',
  languageCode: '1000',
  languageName: 'English',
  source: 'google_ads',
  isEstimate: false,
  intent: 'commercial',
  intentSource: 'model',
  cpc: 4.2,
  cpcCurrency: 'USD',
  competition: 0.41,
  competitionLevel: 'MEDIUM',
  monthlySearches: null,
  serpFeatures: null,
  origin: 'search',
  rankedPosition: null,
  rankedUrl: null,
  competitorDomain: null,
}

const checklistExample = [
  { id: 'keyword-in-title', label: 'The keyword is in the title', passed: true, fix: null },
  { id: 'meta-description', label: 'A meta description of 120-160 characters', passed: false, fix: 'Shorten it.' },
]

const postExample = {
  _id: POST_ID,
  post_id: POST_ID,
  title: 'Email marketing for SaaS: a practical guide',
  content: '# Email marketing for SaaS: a practical guide\n\nMost SaaS founders…',
  created_at: CREATED,
  status: 'completed',
  seo_score: 86,
  seo_checklist: checklistExample,
  claims: [{ text: 'Welcome e-mails are opened four times as often.', sourceUrl: 'https://example.org/study' }],
  json_ld: { '@context': 'https://schema.org', '@type': 'BlogPosting', headline: 'Email marketing for SaaS' },
  research_status: 'full',
  brief: { angle: 'A founder’s first 90 days of e-mail', audience: 'Indie SaaS founders' },
}

const rankingExample = {
  id: KEYWORD_ID,
  keyword: 'email marketing for saas',
  countryCode: '2840',
  countryName: 'United States',
  languageCode: '1000',
  starred: true,
  postId: POST_ID,
  savedKeywordId: KEYWORD_ID,
  position: 8,
  status: 'ranked',
  checkedOn: '2026-11-28',
  url: 'https://example.com/blog/email-marketing-for-saas',
  change7: 3,
  change28: 12,
  best: 7,
  source: 'serp',
}

const destinationExample = {
  id: DESTINATION_ID,
  kind: 'wordpress',
  kindLabel: 'WordPress',
  name: 'Company blog',
  host: 'blog.example.com',
  config: { siteUrl: 'https://blog.example.com', username: 'editor', postStatus: 'publish' },
  autopilot: false,
  paused: false,
  pausedReason: null,
  lastCheckedAt: CREATED,
  lastCheckError: null,
}

const destinationBody = {
  kind: 'wordpress',
  name: 'Company blog',
  siteUrl: 'https://blog.example.com',
  username: 'editor',
  appPassword: 'abcd efgh ijkl mnop qrst uvwx',
  postStatus: 'draft',
}

const settingsExample = {
  productService: 'email marketing software',
  marketSegment: 'Indie SaaS founders',
  website: 'https://example.com',
  valueProposition: 'Set up in ten minutes, no designer needed.',
  ctaText: 'Start a free trial',
  ctaUrl: 'https://example.com/signup',
  tone: 'friendly',
  toneNotes: null,
  avoid: null,
  writingSample: null,
  writingSampleUrl: null,
  unverifiedClaims: 'rewrite',
  imageSource: 'generated',
}

const userExample = {
  _id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  name: 'Ada Founder',
  email: 'ada@example.com',
  onboardingComplete: true,
  marketSegment: 'Indie SaaS founders',
  productService: 'email marketing software',
  website: 'https://example.com',
  subscription: { plan: 'starter', status: 'active', blogPostCount: 3, keywordSearchCount: 12 },
  autoPilotEnabled: false,
}

const idParam = (what: string, example = POST_ID) => ({ id: { description: `The ${what}'s id (a UUID).`, example } })

const market = { countryCode: '2840', languageCode: '1000' }

export const API_OPERATIONS: ApiOperation[] = [
  // ----- Authentication ------------------------------------------------------------------------------------------
  {
    operationId: 'signUp',
    method: 'post',
    path: '/api/signup',
    route: 'api.signup.ts',
    tag: 'Authentication',
    summary: 'Create an account',
    description: 'Creates an account and answers a sign-in token (a Bearer token for this API, valid 30 days).',
    auth: 'public',
    body: {
      schema: signUpSchema,
      example: { name: 'Ada Founder', email: 'ada@example.com', password: 'a long and unusual passphrase' },
    },
    responses: [{ status: 201, description: 'Signed up.', example: { token: 'eyJhbGciOi…', message: 'Welcome!' } }],
    errors: {
      400: ERROR_MEANINGS[400],
      409: 'An account with this address exists.',
      429: 'Too many sign-ups from this network.',
    },
    rateLimit: 'Per network address: a few sign-ups an hour.',
  },
  {
    operationId: 'signIn',
    method: 'post',
    path: '/api/login',
    route: 'api.login.ts',
    tag: 'Authentication',
    summary: 'Sign in and get a token',
    description:
      'Answers a Bearer token for this API. With two-step sign-in on, `code` (the authenticator’s code or a recovery code) is required: without it, or with a wrong one, 401 with `mfaRequired: true`. For scripts and agents, prefer a personal API key (created on /profile): it can be limited to the scopes it needs and revoked alone.',
    auth: 'public',
    body: { schema: apiLoginSchema, example: { email: 'ada@example.com', password: 'a long and unusual passphrase' } },
    responses: [
      {
        status: 200,
        description: 'Signed in.',
        example: { token: 'eyJhbGciOi…', onboardingComplete: true, message: 'Signed in.' },
      },
    ],
    errors: {
      400: ERROR_MEANINGS[400],
      401: 'Wrong e-mail or password, or a second-factor code is needed.',
      429: 'Too many attempts.',
    },
    rateLimit: 'Per address and per network: repeated failures are slowed down, then refused for a while (429).',
  },
  {
    operationId: 'signOut',
    method: 'post',
    path: '/api/logout',
    route: 'api.logout.ts',
    tag: 'Authentication',
    summary: 'End the session behind this token',
    description: 'The token (or cookie) used stops working at once. A personal API key is revoked on /profile instead.',
    auth: 'user',
    scope: 'write',
    responses: [{ status: 200, description: 'Signed out.', example: { message: 'Signed out.' } }],
    errors: { ...USER_ERRORS },
  },
  {
    operationId: 'forgotPassword',
    method: 'post',
    path: '/api/password/forgot',
    route: 'api.password.forgot.ts',
    tag: 'Authentication',
    summary: 'Send a password reset link',
    description: 'The same answer whether or not the account exists.',
    auth: 'public',
    body: { schema: forgotPasswordSchema, example: { email: 'ada@example.com' } },
    responses: [
      {
        status: 200,
        description: 'Sent when the account exists.',
        example: { message: 'If an account exists for that address, we sent a link to reset the password.' },
      },
    ],
    errors: { 400: ERROR_MEANINGS[400], 429: 'Too many attempts.' },
    rateLimit: 'Per address and per network.',
  },
  {
    operationId: 'resetPassword',
    method: 'post',
    path: '/api/password/reset',
    route: 'api.password.reset.ts',
    tag: 'Authentication',
    summary: 'Set a new password with a reset link’s token',
    description: 'Every session and token of the account ends (sign in again).',
    auth: 'public',
    body: {
      schema: resetPasswordSchema,
      example: { token: 'the-token-from-the-link', password: 'another long passphrase' },
    },
    responses: [{ status: 200, description: 'The password is set.', example: { message: 'Your password is set.' } }],
    errors: { 400: 'Bad fields, or a link that is unknown, expired or used.', 429: 'Too many attempts.' },
  },
  {
    operationId: 'startGoogleSignIn',
    method: 'get',
    path: '/api/auth/google',
    route: 'api.auth.google.ts',
    tag: 'Authentication',
    summary: 'Start Google sign-in (a browser redirect)',
    description: 'Redirects a person’s browser to Google’s consent screen. Not for API clients.',
    auth: 'browser',
    internal: true,
    responses: [{ status: 302, description: 'To Google, or to /signin when Google sign-in is not configured.' }],
    errors: {},
  },
  {
    operationId: 'finishGoogleSignIn',
    method: 'get',
    path: '/api/auth/google/callback',
    route: 'api.auth.google.callback.ts',
    tag: 'Authentication',
    summary: 'Google sign-in’s return (a browser redirect)',
    description: 'Google redirects the browser here; it continues in the app. Not for API clients.',
    auth: 'browser',
    internal: true,
    responses: [{ status: 302, description: 'Into the app, or back to /signin with an error.' }],
    errors: {},
  },
  // ----- Account -------------------------------------------------------------------------------------------------
  {
    operationId: 'getUser',
    method: 'get',
    path: '/api/user',
    route: 'api.user.ts',
    tag: 'Account',
    summary: 'The signed-in user',
    description: 'Profile, subscription, usage, Auto Pilot and onboarding.',
    auth: 'user',
    scope: 'read',
    responses: [{ status: 200, description: 'The user.', example: userExample }],
    errors: { ...USER_ERRORS },
  },
  {
    operationId: 'deleteAccount',
    method: 'delete',
    path: '/api/user',
    route: 'api.user.ts',
    tag: 'Account',
    summary: 'Delete the account',
    description:
      'Deletes the account and everything in it (a subscription is cancelled at once, every session ends, a confirmation e-mail goes out). With two-step sign-in on, `code` too.',
    auth: 'user',
    scope: 'write',
    body: { schema: apiDeleteAccountSchema, example: { password: 'correct-horse-battery' } },
    responses: [{ status: 200, description: 'Deleted.', example: { message: 'Your account has been deleted.' } }],
    errors: {
      ...USER_ERRORS,
      400: 'A wrong password, or a missing code.',
      401: 'A wrong second-factor code, or no key.',
    },
  },
  {
    operationId: 'updateProfile',
    method: 'put',
    path: '/api/user/update',
    route: 'api.user.update.ts',
    tag: 'Account',
    summary: 'Update the profile',
    description: 'Name, business and default market. Answers the updated user.',
    auth: 'user',
    scope: 'write',
    body: {
      schema: profileSchema,
      example: {
        name: 'Ada Founder',
        marketSegment: 'Indie SaaS founders',
        productService: 'email marketing software',
        website: 'https://example.com',
        country: { code: '2840', name: 'United States' },
        language: { code: '1000', name: 'English' },
      },
    },
    responses: [{ status: 200, description: 'Updated.', example: { ...userExample, message: 'Profile updated.' } }],
    errors: { ...USER_ERRORS, 400: ERROR_MEANINGS[400] },
  },
  {
    operationId: 'completeOnboarding',
    method: 'post',
    path: '/api/onboarding',
    route: 'api.onboarding.ts',
    tag: 'Account',
    summary: 'Finish onboarding',
    description: 'The business and the market the first keyword search uses.',
    auth: 'user',
    scope: 'write',
    body: {
      schema: onboardingSchema,
      example: {
        website: 'https://example.com',
        marketSegment: 'Indie SaaS founders',
        productService: 'email marketing software',
        country: { code: '2840', name: 'United States' },
        language: { code: '1000', name: 'English' },
      },
    },
    responses: [
      {
        status: 200,
        description: 'Onboarded.',
        example: {
          message: 'Onboarding complete.',
          onboardingComplete: true,
          redirectTo: '/keywords?q=email+marketing+software',
        },
      },
    ],
    errors: { ...USER_ERRORS, 400: ERROR_MEANINGS[400] },
  },
  {
    operationId: 'exportAccount',
    method: 'get',
    path: '/api/user/export',
    route: 'api.user.export.ts',
    tag: 'Account',
    summary: 'Download the account’s data',
    description: 'Everything the account holds, as one JSON download (API keys listed without their secret).',
    auth: 'user',
    scope: 'read',
    responses: [
      { status: 200, description: 'The data (Content-Disposition: attachment).', example: { user: userExample } },
    ],
    errors: { ...USER_ERRORS },
  },
  {
    operationId: 'getContentSettings',
    method: 'get',
    path: '/api/settings/content',
    route: 'api.settings.content.ts',
    tag: 'Account',
    summary: 'The business context and voice posts use',
    description: 'What every post is written with: product, audience, call to action, tone, claims and images.',
    auth: 'user',
    scope: 'read',
    responses: [{ status: 200, description: 'The settings.', example: { settings: settingsExample } }],
    errors: { ...USER_ERRORS },
  },
  {
    operationId: 'saveContentSettings',
    method: 'put',
    path: '/api/settings/content',
    route: 'api.settings.content.ts',
    tag: 'Account',
    summary: 'Save the business context and voice',
    description:
      'Fields left out keep their saved value where the schema allows (unverifiedClaims, imageSource). Nothing is saved on a 400.',
    auth: 'user',
    scope: 'write',
    body: {
      schema: contentSettingsSchema,
      example: {
        productService: 'email marketing software',
        marketSegment: 'Indie SaaS founders',
        website: 'https://example.com',
        valueProposition: 'Set up in ten minutes, no designer needed.',
        ctaText: 'Start a free trial',
        ctaUrl: 'https://example.com/signup',
        tone: 'friendly',
      },
    },
    responses: [
      { status: 200, description: 'Saved.', example: { settings: settingsExample, message: 'Settings saved.' } },
    ],
    errors: { ...USER_ERRORS, 400: ERROR_MEANINGS[400], 429: 'More than 20 saves a minute.' },
    rateLimit: '20 saves a minute per account.',
  },
  // ----- Keywords ------------------------------------------------------------------------------------------------
  {
    operationId: 'searchKeywords',
    method: 'post',
    path: '/api/search',
    route: 'api.search.ts',
    tag: 'Keywords',
    summary: 'Search keyword ideas (saved to the account)',
    description:
      'Keyword ideas for a topic in a market (Google Ads ids: 2840 United States, 1000 English), with volume, difficulty, intent and cost per click; the rows are saved to the account. Counts as one keyword search of the plan. `note` says when part of the answer is missing.',
    auth: 'user',
    scope: 'write',
    body: {
      schema: keywordSearchSchema,
      example: { query: 'email marketing', countryCode: '2840', languageCode: '1000' },
    },
    responses: [{ status: 200, description: 'The keywords found.', example: { data: [keywordExample] } }],
    errors: {
      ...USER_ERRORS,
      400: ERROR_MEANINGS[400],
      402: ERROR_MEANINGS[402],
      502: ERROR_MEANINGS[502],
      503: ERROR_MEANINGS[503],
    },
    rateLimit: 'The plan’s monthly keyword searches.',
    mcpTool: 'search_keywords',
  },
  {
    operationId: 'listSavedKeywords',
    method: 'get',
    path: '/api/saved-keywords',
    route: 'api.saved-keywords.ts',
    tag: 'Keywords',
    summary: 'The saved keywords',
    description:
      'The keywords searched by hand (not Auto Pilot’s), newest first then higher volume; searched, filtered and sorted like the Keywords screen.',
    auth: 'user',
    scope: 'read',
    query: {
      schema: keywordListSchema,
      example: { q: 'email', difficulty: 'easy', sort: 'volume', order: 'desc', limit: '50' },
    },
    responses: [
      {
        status: 200,
        description: 'One page.',
        example: { data: [keywordExample], total: 1, totalCapped: false, nextCursor: null },
      },
    ],
    errors: { ...USER_ERRORS, 400: 'A bad parameter or cursor: `errors` names it.' },
    paginated: true,
    mcpTool: 'list_saved_keywords',
  },
  {
    operationId: 'deleteSavedKeyword',
    method: 'delete',
    path: '/api/saved-keywords/{id}',
    route: 'api.saved-keywords.$id.ts',
    tag: 'Keywords',
    summary: 'Delete a saved keyword',
    description: 'Removes the keyword from the account.',
    auth: 'user',
    scope: 'write',
    pathParams: idParam('saved keyword', KEYWORD_ID),
    responses: [{ status: 200, description: 'Deleted.', example: { message: 'Keyword deleted.', _id: KEYWORD_ID } }],
    errors: { ...USER_ERRORS, 404: ERROR_MEANINGS[404] },
  },
  {
    operationId: 'getKeywordSerp',
    method: 'get',
    path: '/api/keywords/{id}/serp',
    route: 'api.keywords.$id.serp.ts',
    tag: 'Keywords',
    summary: 'Google’s first page for a saved keyword',
    description:
      'The top results with their strength, kind, length and age, and a summary of what it takes to rank. The first call per keyword and UTC day counts as one keyword search.',
    auth: 'user',
    scope: 'read',
    pathParams: idParam('saved keyword', KEYWORD_ID),
    responses: [
      {
        status: 200,
        description: 'The results page.',
        example: {
          data: {
            keyword: 'email marketing for saas',
            summary: 'Mostly guides from mid-strength sites: a thorough guide can rank.',
            counts: { weak: 4, medium: 5, strong: 1 },
            hint: null,
            features: ['people_also_ask'],
            strengthAvailable: true,
            fetchedAt: CREATED,
            results: [
              {
                rank: 1,
                title: 'Email marketing for SaaS',
                url: 'https://example.org/guide',
                domain: 'example.org',
                strength: 41,
                kind: 'guide',
                words: 2400,
                publishedAt: '2025-03-01',
                age: '1 year',
              },
            ],
          },
        },
      },
    ],
    errors: {
      ...USER_ERRORS,
      402: ERROR_MEANINGS[402],
      404: ERROR_MEANINGS[404],
      502: ERROR_MEANINGS[502],
      503: ERROR_MEANINGS[503],
    },
  },
  {
    operationId: 'domainKeywords',
    method: 'get',
    path: '/api/domain-keywords',
    route: 'api.domain-keywords.ts',
    tag: 'Keywords',
    summary: 'Keywords a domain ranks for, or a competitor’s gap',
    description:
      'For the user’s own domain (their website): the keywords it ranks for, each with its position and `strikingDistance` (positions 4-20). For any other domain: the keywords it ranks for and the user’s does not. Saved like a search; counts as one keyword search the first time a day.',
    auth: 'user',
    scope: 'read',
    query: { schema: domainLookupSchema, example: { domain: 'example.com', country: '2840', language: '1000' } },
    responses: [
      {
        status: 200,
        description: 'The keywords.',
        example: {
          kind: 'ranked',
          domain: 'example.com',
          competitor: null,
          countryCode: '2840',
          languageCode: '1000',
          data: [
            {
              id: KEYWORD_ID,
              keyword: 'email marketing for saas',
              avgMonthlySearches: 1900,
              difficultyScore: 34,
              position: 8,
              url: 'https://example.com/blog/email-marketing-for-saas',
              strikingDistance: true,
              intent: 'commercial',
              cpc: 4.2,
              cpcCurrency: 'USD',
            },
          ],
        },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: 'A bad domain or market, or no website set (needed for a gap).',
      402: ERROR_MEANINGS[402],
      502: ERROR_MEANINGS[502],
      503: ERROR_MEANINGS[503],
    },
  },
  {
    operationId: 'listClusters',
    method: 'get',
    path: '/api/clusters',
    route: 'api.clusters.ts',
    tag: 'Keywords',
    summary: 'The saved keywords grouped by topic',
    description:
      'Groups of keywords that share Google results, for one market (without both parameters, the market with most saved keywords). `run`: the newest clustering run.',
    auth: 'user',
    scope: 'read',
    query: { schema: clusterQuerySchema, example: { country: '2840', language: '1000' } },
    responses: [
      {
        status: 200,
        description: 'The clusters.',
        example: {
          data: [
            {
              main: { id: KEYWORD_ID, keyword: 'email marketing for saas', volume: 1900, shared: 10 },
              members: [{ id: KEYWORD_ID, keyword: 'saas email marketing', volume: 320, shared: 6 }],
              totalVolume: 2220,
              post: null,
            },
          ],
          unclustered: [],
          market,
          keywordCount: 2,
          withoutSerp: 0,
          run: { id: POST_ID, status: 'completed', startedAt: CREATED, finishedAt: CREATED },
        },
      },
    ],
    errors: { ...USER_ERRORS, 400: ERROR_MEANINGS[400] },
  },
  {
    operationId: 'startClusterRun',
    method: 'post',
    path: '/api/clusters',
    route: 'api.clusters.ts',
    tag: 'Keywords',
    summary: 'Group a market’s saved keywords by topic',
    description:
      'Starts a clustering run (or answers the one in progress, `started: false`). One run a day counts as a keyword search.',
    auth: 'user',
    scope: 'write',
    body: { schema: clusterMarketSchema, example: market },
    responses: [
      {
        status: 202,
        description: 'Started.',
        example: { run: { id: POST_ID, status: 'running', startedAt: CREATED, finishedAt: null }, started: true },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: 'Bad fields, or no saved keywords in that market.',
      402: ERROR_MEANINGS[402],
      503: ERROR_MEANINGS[503],
    },
  },
  // ----- Posts ---------------------------------------------------------------------------------------------------
  {
    operationId: 'createPost',
    method: 'post',
    path: '/api/creator',
    route: 'api.creator.ts',
    tag: 'Posts',
    summary: 'Write a post for a saved keyword',
    description:
      'Starts writing a post (about 2 minutes; poll GET /api/blogpost/{id}). A keyword very close to an existing post or page of the user: 409 with `existing` (send `force: true` to write it anyway). Writing counts against the plan’s posts. Publishing and approving stay with a person.',
    auth: 'user',
    scope: 'write',
    body: { schema: createPostSchema, example: { keywordId: KEYWORD_ID } },
    responses: [
      {
        status: 202,
        description: 'Writing started.',
        example: {
          message: 'Your post is being generated! It may take about 2 minutes. Check the Blog Posts later.',
          _id: POST_ID,
          post_id: POST_ID,
          status: 'queued',
          created: true,
        },
      },
      {
        status: 200,
        description: 'A repeated request (same Idempotency-Key): the same post, with its real status.',
        example: {
          message: 'This post is already written.',
          _id: POST_ID,
          post_id: POST_ID,
          status: 'completed',
          created: false,
        },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: ERROR_MEANINGS[400],
      402: ERROR_MEANINGS[402],
      404: 'No such saved keyword.',
      409: 'Too close to an existing post or page (`existing`), or a post for this keyword is being written.',
      503: 'The queue was unreachable: retry with the same Idempotency-Key.',
    },
    idempotent: true,
    rateLimit: 'The plan’s monthly posts.',
    mcpTool: 'create_post',
  },
  {
    operationId: 'listPosts',
    method: 'get',
    path: '/api/blogposts',
    route: 'api.blogposts.ts',
    tag: 'Posts',
    summary: 'The posts',
    description: 'Newest first; filtered like the library.',
    auth: 'user',
    scope: 'read',
    query: { schema: postListSchema, example: { status: 'ready', limit: '20' } },
    responses: [
      {
        status: 200,
        description: 'One page.',
        example: {
          data: [
            {
              _id: POST_ID,
              post_id: POST_ID,
              title: postExample.title,
              content: postExample.content,
              createdAt: CREATED,
              status: 'completed',
            },
          ],
          total: 1,
          nextCursor: null,
        },
      },
    ],
    errors: { ...USER_ERRORS, 400: 'A bad parameter or cursor: `errors` names it.' },
    paginated: true,
    mcpTool: 'list_posts',
  },
  {
    operationId: 'getPost',
    method: 'get',
    path: '/api/blogpost/{id}',
    route: 'api.blogpost.$id.ts',
    tag: 'Posts',
    summary: 'A post with its SEO checklist and claims',
    description:
      'The Markdown, the SEO score and checklist, the claims with their sources (`sourceUrl: null`: unsourced), the JSON-LD and the brief.',
    auth: 'user',
    scope: 'read',
    pathParams: idParam('post'),
    responses: [{ status: 200, description: 'The post.', example: postExample }],
    errors: { ...USER_ERRORS, 404: ERROR_MEANINGS[404] },
    mcpTool: 'get_post',
  },
  {
    operationId: 'deletePost',
    method: 'delete',
    path: '/api/blogpost/{id}',
    route: 'api.blogpost.$id.ts',
    tag: 'Posts',
    summary: 'Delete a post',
    description:
      'A post live on a destination needs a choice per live copy (`copies`: unpublish, delete or leave, by destination id; or `?copies=` for all): without one, 400 with the live copies. When a copy is to come down: 202, and the post is deleted once it is down.',
    auth: 'user',
    scope: 'write',
    pathParams: idParam('post'),
    queryParams: {
      copies: { description: 'unpublish, delete or leave: one choice for every live copy.', example: 'leave' },
    },
    body: { schema: deletePostSchema, example: { copies: { [DESTINATION_ID]: 'leave' } } },
    responses: [
      { status: 200, description: 'Deleted.', example: { message: 'Post deleted.', _id: POST_ID } },
      {
        status: 202,
        description: 'Being deleted: a copy is coming down.',
        example: { message: 'Deleting…', _id: POST_ID, copies: [] },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: 'Bad fields, or live copies need a choice (`copies` lists them).',
      404: ERROR_MEANINGS[404],
    },
  },
  {
    operationId: 'getLinkSuggestions',
    method: 'get',
    path: '/api/blogpost/{id}/links',
    route: 'api.blogpost.$id.links.ts',
    tag: 'Posts',
    summary: 'Older posts that could link to this published post',
    description: 'Each with the change the link makes.',
    auth: 'user',
    scope: 'read',
    pathParams: idParam('post'),
    responses: [
      { status: 200, description: 'The suggestions.', example: { ready: false, reason: 'not_published', data: [] } },
    ],
    errors: { ...USER_ERRORS, 404: ERROR_MEANINGS[404] },
  },
  {
    operationId: 'addLink',
    method: 'post',
    path: '/api/blogpost/{id}/links',
    route: 'api.blogpost.$id.links.ts',
    tag: 'Posts',
    summary: 'Add a link to this post from an older post',
    description: 'Saved as a new version of the older post. 409 while this post has no live URL.',
    auth: 'user',
    scope: 'write',
    pathParams: idParam('post'),
    body: { schema: addLinkSchema, example: { fromPostId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a' } },
    responses: [
      {
        status: 200,
        description: 'Linked.',
        example: { message: 'Link added.', alreadyLinked: false, fromPostId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a' },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: ERROR_MEANINGS[400],
      404: ERROR_MEANINGS[404],
      409: 'This post has no live URL yet.',
    },
  },
  // ----- Publishing ----------------------------------------------------------------------------------------------
  {
    operationId: 'listPublications',
    method: 'get',
    path: '/api/blogpost/{id}/publish',
    route: 'api.blogpost.$id.publish.ts',
    tag: 'Publishing',
    summary: 'Where a post is published',
    description: 'Status, remote URL and last error per destination.',
    auth: 'user',
    scope: 'read',
    pathParams: idParam('post'),
    responses: [
      {
        status: 200,
        description: 'The publications.',
        example: {
          data: [
            {
              id: POST_ID,
              destinationId: DESTINATION_ID,
              status: 'published',
              remoteUrl: 'https://blog.example.com/email-marketing-for-saas',
              lastError: null,
            },
          ],
        },
      },
    ],
    errors: { ...USER_ERRORS, 404: ERROR_MEANINGS[404] },
  },
  {
    operationId: 'publishPost',
    method: 'post',
    path: '/api/blogpost/{id}/publish',
    route: 'api.blogpost.$id.publish.ts',
    tag: 'Publishing',
    summary: 'Publish, unpublish, approve or reject a post',
    description:
      '`publish` to destinations (ids or `webhook`, optionally at `publishAt`) → 202; `unpublish` one → 202; `approve` or `reject` a draft waiting for review → 200. Needs the `publish` scope: an agent’s key normally lacks it, so that a person publishes.',
    auth: 'user',
    scope: 'publish',
    pathParams: idParam('post'),
    body: { schema: publishActionSchema, example: { action: 'publish', targets: [DESTINATION_ID] } },
    responses: [
      { status: 202, description: 'Publishing.', example: { scheduled: false, publicationIds: [POST_ID] } },
      { status: 200, description: 'Approved or rejected.', example: { message: 'Approved.' } },
    ],
    errors: {
      ...USER_ERRORS,
      400: ERROR_MEANINGS[400],
      403: 'The key lacks the publish scope, or the session has ended.',
      404: ERROR_MEANINGS[404],
      409: 'Not in a state for this (not written yet, not waiting for review, already there).',
    },
  },
  {
    operationId: 'calendar',
    method: 'get',
    path: '/api/calendar',
    route: 'api.calendar.ts',
    tag: 'Publishing',
    summary: 'The publishing calendar',
    description: 'What was and will be published, per day (at most 92 days; default the next 31).',
    auth: 'user',
    scope: 'read',
    queryParams: {
      from: { description: 'First day, YYYY-MM-DD (default today).', example: '2026-12-01' },
      to: { description: 'Last day, YYYY-MM-DD.', example: '2026-12-31' },
    },
    responses: [
      {
        status: 200,
        description: 'The entries.',
        example: {
          data: [
            {
              day: '2026-12-02',
              postId: POST_ID,
              title: postExample.title,
              state: 'scheduled',
              destinations: ['Company blog'],
            },
          ],
        },
      },
    ],
    errors: { ...USER_ERRORS, 400: 'A bad date or range.' },
  },
  {
    operationId: 'listDestinations',
    method: 'get',
    path: '/api/destinations',
    route: 'api.destinations.ts',
    tag: 'Publishing',
    summary: 'The publishing destinations',
    description: 'WordPress, Ghost and Webflow sites (never their credentials).',
    auth: 'user',
    scope: 'read',
    responses: [{ status: 200, description: 'The destinations.', example: { data: [destinationExample] } }],
    errors: { ...USER_ERRORS },
  },
  {
    operationId: 'createDestination',
    method: 'post',
    path: '/api/destinations',
    route: 'api.destinations.ts',
    tag: 'Publishing',
    summary: 'Add a destination',
    description: 'Saved once its connection test passes (nothing saved otherwise).',
    auth: 'user',
    scope: 'write',
    body: { schema: destinationForm, example: destinationBody },
    responses: [
      {
        status: 201,
        description: 'Added.',
        example: { destination: destinationExample, message: 'Destination saved.' },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: 'Bad fields, or the connection test failed.',
      429: 'More than 20 connection tests a minute.',
    },
    rateLimit: '20 connection tests a minute per account.',
  },
  {
    operationId: 'getDestination',
    method: 'get',
    path: '/api/destinations/{id}',
    route: 'api.destinations.$id.ts',
    tag: 'Publishing',
    summary: 'A destination',
    description: 'Its settings, never its credentials.',
    auth: 'user',
    scope: 'read',
    pathParams: idParam('destination', DESTINATION_ID),
    responses: [{ status: 200, description: 'The destination.', example: { destination: destinationExample } }],
    errors: { ...USER_ERRORS, 404: ERROR_MEANINGS[404] },
  },
  {
    operationId: 'updateDestination',
    method: 'put',
    path: '/api/destinations/{id}',
    route: 'api.destinations.$id.ts',
    tag: 'Publishing',
    summary: 'Change a destination',
    description: 'A blank secret keeps the stored one; the connection is tested again.',
    auth: 'user',
    scope: 'write',
    pathParams: idParam('destination', DESTINATION_ID),
    body: { schema: destinationForm, example: { ...destinationBody, appPassword: '' } },
    responses: [
      {
        status: 200,
        description: 'Saved.',
        example: { destination: destinationExample, message: 'Destination saved.' },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: 'Bad fields, or the connection test failed.',
      404: ERROR_MEANINGS[404],
      429: 'More than 20 connection tests a minute.',
    },
    rateLimit: '20 connection tests a minute per account.',
  },
  {
    operationId: 'testDestination',
    method: 'post',
    path: '/api/destinations/{id}',
    route: 'api.destinations.$id.ts',
    tag: 'Publishing',
    summary: 'Test a destination’s connection',
    description: 'Send `?test`. 200 when the connection works, 400 with the reason when not.',
    auth: 'user',
    scope: 'write',
    pathParams: idParam('destination', DESTINATION_ID),
    queryParams: { test: { description: 'Present (empty): test the connection.', example: '', required: true } },
    responses: [{ status: 200, description: 'It works.', example: { ok: true, message: 'Connected.' } }],
    errors: {
      ...USER_ERRORS,
      400: 'The connection failed (`message` says why).',
      404: ERROR_MEANINGS[404],
      429: 'More than 20 connection tests a minute.',
    },
    rateLimit: '20 connection tests a minute per account.',
  },
  {
    operationId: 'deleteDestination',
    method: 'delete',
    path: '/api/destinations/{id}',
    route: 'api.destinations.$id.ts',
    tag: 'Publishing',
    summary: 'Remove a destination',
    description: 'Posts already published there stay there.',
    auth: 'user',
    scope: 'write',
    pathParams: idParam('destination', DESTINATION_ID),
    responses: [{ status: 204, description: 'Removed.', example: null }],
    errors: { ...USER_ERRORS, 404: ERROR_MEANINGS[404] },
  },
  // ----- Rankings ------------------------------------------------------------------------------------------------
  {
    operationId: 'listRankings',
    method: 'get',
    path: '/api/rankings',
    route: 'api.rankings.ts',
    tag: 'Rankings',
    summary: 'Tracked keywords and their Google positions',
    description: 'Newest movers first; `usage` is the plan’s tracking limit.',
    auth: 'user',
    scope: 'read',
    queryParams: { market: { description: 'A Google Ads geo id: only that market.', example: '2840' } },
    responses: [
      {
        status: 200,
        description: 'The rankings.',
        example: { data: [rankingExample], asOf: '2026-11-28', usage: { used: 1, limit: 50 } },
      },
    ],
    errors: { ...USER_ERRORS },
    mcpTool: 'get_rankings',
  },
  {
    operationId: 'keywordHistory',
    method: 'get',
    path: '/api/rankings/{keywordId}/history',
    route: 'api.rankings.$keywordId.history.ts',
    tag: 'Rankings',
    summary: 'A tracked keyword’s daily positions',
    description: 'Oldest first.',
    auth: 'user',
    scope: 'read',
    pathParams: { keywordId: { description: 'The tracked keyword’s id.', example: KEYWORD_ID } },
    query: { schema: historyQuerySchema, example: { days: '90' } },
    responses: [
      {
        status: 200,
        description: 'The history.',
        example: {
          keyword: {
            id: KEYWORD_ID,
            keyword: 'email marketing for saas',
            countryCode: '2840',
            languageCode: '1000',
            starred: true,
            postId: POST_ID,
            savedKeywordId: KEYWORD_ID,
            best: 7,
          },
          data: [
            {
              day: '2026-11-28',
              status: 'ranked',
              position: 8,
              url: 'https://example.com/blog/email-marketing-for-saas',
            },
          ],
        },
      },
    ],
    errors: { ...USER_ERRORS, 400: ERROR_MEANINGS[400], 404: ERROR_MEANINGS[404] },
  },
  {
    operationId: 'trackKeyword',
    method: 'post',
    path: '/api/rankings/{keywordId}/track',
    route: 'api.rankings.$keywordId.track.ts',
    tag: 'Rankings',
    summary: 'Track a saved keyword’s position',
    description: 'Stars the keyword; its position is checked daily.',
    auth: 'user',
    scope: 'write',
    pathParams: { keywordId: { description: 'A saved keyword’s id.', example: KEYWORD_ID } },
    responses: [
      {
        status: 201,
        description: 'Tracked.',
        example: { id: KEYWORD_ID, tracked: true, message: 'Tracking this keyword.' },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: 'Not a keyword id.',
      403: 'Over the plan’s tracked keywords (`limit`), or the key lacks the scope.',
      404: ERROR_MEANINGS[404],
    },
  },
  {
    operationId: 'untrackKeyword',
    method: 'delete',
    path: '/api/rankings/{keywordId}/track',
    route: 'api.rankings.$keywordId.track.ts',
    tag: 'Rankings',
    summary: 'Stop tracking a keyword',
    description: 'A published post’s keyword stays tracked (`tracked: true`).',
    auth: 'user',
    scope: 'write',
    pathParams: { keywordId: { description: 'A tracked or saved keyword’s id.', example: KEYWORD_ID } },
    responses: [{ status: 200, description: 'Untracked.', example: { tracked: false, message: 'No longer tracked.' } }],
    errors: { ...USER_ERRORS, 400: 'Not a keyword id.', 404: ERROR_MEANINGS[404] },
  },
  // ----- AI visibility (issue 37) ---------------------------------------------------------------------------------
  {
    operationId: 'aiVisibility',
    method: 'get',
    path: '/api/ai-visibility',
    route: 'api.ai-visibility.ts',
    tag: 'AI visibility',
    summary: 'Whether AI answers cite you or name you',
    description:
      'Per tracked keyword (Google AI Overviews, AI Mode) and per active prompt (ChatGPT, Perplexity, Gemini, Claude): each engine’s latest week as rates with their 95% Wilson interval (`{hits, total, rate, low, high}`; null when nothing was counted: a gap, never 0), the change from the week before (`up`/`down` only when the intervals do not overlap), the weekly history, your cited pages and the competitors named or cited.',
    auth: 'user',
    scope: 'read',
    query: { schema: aiVisibilityQuerySchema, example: { weeks: '12', kind: 'keyword' } },
    responses: [
      {
        status: 200,
        description: 'The figures.',
        example: {
          weeks: ['2026-11-23'],
          keywords: [
            {
              id: KEYWORD_ID,
              kind: 'keyword',
              keyword: 'email marketing for saas',
              engines: [
                {
                  engine: 'google_ai_overview',
                  label: 'Google AI Overviews',
                  week: '2026-11-23',
                  answers: 7,
                  gaps: 0,
                  present: { hits: 7, total: 7, rate: 1, low: 0.646, high: 1 },
                  mentioned: { hits: 2, total: 7, rate: 0.286, low: 0.082, high: 0.641 },
                  cited: { hits: 1, total: 7, rate: 0.143, low: 0.026, high: 0.513 },
                  change: { present: 'none', mentioned: 'none', cited: 'unknown' },
                  citedPages: [{ url: 'https://example.com/blog/email-marketing-for-saas', count: 1 }],
                  competitors: [{ domain: 'mailchimp.com', count: 6 }],
                  history: [],
                },
              ],
            },
          ],
          prompts: [],
          checksRun: true,
          usage: { used: 120, limit: 7000, month: '2026-11' },
        },
      },
    ],
    errors: { ...USER_ERRORS, 400: ERROR_MEANINGS[400] },
    mcpTool: 'get_ai_visibility',
  },
  {
    operationId: 'listAiPrompts',
    method: 'get',
    path: '/api/ai-prompts',
    route: 'api.ai-prompts.ts',
    tag: 'AI visibility',
    summary: 'The prompts sent to the assistants',
    description: 'The active prompts (asked daily) and the suggestions not yet accepted, with the plan’s limit.',
    auth: 'user',
    scope: 'read',
    responses: [
      {
        status: 200,
        description: 'The prompts.',
        example: {
          data: [
            {
              id: PROMPT_ID,
              text: 'What is the best email tool for a SaaS startup?',
              status: 'active',
              createdAt: CREATED,
            },
          ],
          suggested: [],
          limit: 20,
        },
      },
    ],
    errors: { ...USER_ERRORS },
  },
  {
    operationId: 'addAiPrompt',
    method: 'post',
    path: '/api/ai-prompts',
    route: 'api.ai-prompts.ts',
    tag: 'AI visibility',
    summary: 'Add a prompt',
    description:
      'A question a buyer would ask an assistant (10-300 characters). Sent to third parties: a text that looks like a key, a secret or an e-mail address is refused.',
    auth: 'user',
    scope: 'write',
    body: { schema: promptSchema, example: { prompt: 'Which tools help a small SaaS team write SEO articles?' } },
    responses: [
      {
        status: 201,
        description: 'Added.',
        example: {
          prompt: {
            id: PROMPT_ID,
            text: 'Which tools help a small SaaS team write SEO articles?',
            status: 'active',
            createdAt: CREATED,
          },
          message: 'Prompt added. Its first answers come with the next daily check.',
        },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: ERROR_MEANINGS[400],
      402: 'Over the plan’s number of prompts.',
      409: 'That prompt is already tracked.',
      429: 'More than 10 prompts added a minute.',
    },
    rateLimit: '10 prompts added a minute per account.',
  },
  {
    operationId: 'removeAiPrompt',
    method: 'delete',
    path: '/api/ai-prompts/{id}',
    route: 'api.ai-prompts.$id.ts',
    tag: 'AI visibility',
    summary: 'Remove a prompt',
    description: 'An active prompt or a suggestion, and its figures.',
    auth: 'user',
    scope: 'write',
    pathParams: idParam('prompt', PROMPT_ID),
    responses: [{ status: 200, description: 'Removed.', example: { message: 'Prompt removed.' } }],
    errors: { ...USER_ERRORS, 404: ERROR_MEANINGS[404] },
  },
  // ----- Auto Pilot ----------------------------------------------------------------------------------------------
  {
    operationId: 'autopilotStatusList',
    method: 'get',
    path: '/api/autopilot/status-list',
    route: 'api.autopilot.status-list.ts',
    tag: 'Auto Pilot',
    summary: 'The keywords Auto Pilot chose',
    description: 'Newest first; empty while Auto Pilot is off.',
    auth: 'user',
    scope: 'read',
    responses: [
      {
        status: 200,
        description: 'The list.',
        example: {
          data: [
            {
              keyword: 'email marketing for saas',
              avgMonthlySearches: 1900,
              difficultyScore: 34,
              blogPost: { _id: POST_ID },
            },
          ],
        },
      },
    ],
    errors: { ...USER_ERRORS, 500: ERROR_MEANINGS[500] },
  },
  {
    operationId: 'toggleAutopilot',
    method: 'post',
    path: '/api/autopilot/toggle',
    route: 'api.autopilot.toggle.ts',
    tag: 'Auto Pilot',
    summary: 'Turn Auto Pilot on or off',
    description: 'Auto Pilot needs a plan with it and a verified address.',
    auth: 'user',
    scope: 'write',
    body: { schema: autopilotToggleSchema, example: { enabled: false } },
    responses: [
      { status: 200, description: 'Changed.', example: { autoPilotEnabled: false, message: 'Auto Pilot is off.' } },
    ],
    errors: {
      ...USER_ERRORS,
      400: ERROR_MEANINGS[400],
      402: 'The plan has no Auto Pilot.',
      409: 'Verify your e-mail address first.',
      503: ERROR_MEANINGS[503],
    },
  },
  {
    operationId: 'saveAutopilotWebhook',
    method: 'post',
    path: '/api/autopilot/integrations/webhook',
    route: 'api.autopilot.integrations.webhook.ts',
    tag: 'Auto Pilot',
    summary: 'Set the webhook that receives finished posts',
    description: 'Stored with https:// when the scheme is left out; re-enables an endpoint disabled after failures.',
    auth: 'user',
    scope: 'write',
    body: { schema: webhookUrlForm, example: { webhookUrl: 'https://hooks.example.com/rankwell' } },
    responses: [
      {
        status: 200,
        description: 'Saved.',
        example: { webhookUrl: 'https://hooks.example.com/rankwell', message: 'Webhook saved.' },
      },
    ],
    errors: { ...USER_ERRORS, 400: ERROR_MEANINGS[400], 500: ERROR_MEANINGS[500] },
  },
  // ----- Billing -------------------------------------------------------------------------------------------------
  {
    operationId: 'createCheckoutSession',
    method: 'post',
    path: '/api/create-checkout-session',
    route: 'api.create-checkout-session.ts',
    tag: 'Billing',
    summary: 'Start a Stripe Checkout for a plan',
    description: 'The client sends the person to `url`.',
    auth: 'user',
    scope: 'write',
    body: { schema: checkoutSchema, example: { priceId: 'price_1QStarterMonthly' } },
    responses: [
      {
        status: 200,
        description: 'The session.',
        example: { sessionId: 'cs_test_a1b2c3', url: 'https://checkout.stripe.com/c/pay/cs_test_a1b2c3' },
      },
    ],
    errors: {
      ...USER_ERRORS,
      400: 'Bad fields, or a price that is not one of our plans.',
      409: 'Already subscribed.',
      502: ERROR_MEANINGS[502],
      503: ERROR_MEANINGS[503],
    },
  },
  {
    operationId: 'customerPortal',
    method: 'get',
    path: '/api/customer-portal',
    route: 'api.customer-portal.ts',
    tag: 'Billing',
    summary: 'A Stripe Customer Portal session',
    description: 'The client sends the person to `url`.',
    auth: 'user',
    scope: 'read',
    responses: [
      { status: 200, description: 'The session.', example: { url: 'https://billing.stripe.com/p/session/test_a1b2' } },
    ],
    errors: { ...USER_ERRORS, 400: 'No billing account yet.', 502: ERROR_MEANINGS[502], 503: ERROR_MEANINGS[503] },
  },
  {
    operationId: 'cancelSubscription',
    method: 'post',
    path: '/api/cancel-subscription',
    route: 'api.cancel-subscription.ts',
    tag: 'Billing',
    summary: 'Cancel at the end of the billing period',
    description: 'The plan stays until `endsAt`.',
    auth: 'user',
    scope: 'write',
    responses: [
      {
        status: 200,
        description: 'Cancelled at the period’s end.',
        example: {
          message: 'Your plan ends on Dec 20, 2026.',
          cancelAtPeriodEnd: true,
          endsAt: '2026-12-20T00:00:00.000Z',
        },
      },
    ],
    errors: { ...USER_ERRORS, 400: 'Nothing to cancel.', 502: ERROR_MEANINGS[502], 503: ERROR_MEANINGS[503] },
  },
  {
    operationId: 'stripeWebhook',
    method: 'post',
    path: '/api/stripe/webhook',
    route: 'api.stripe.webhook.ts',
    tag: 'Billing',
    summary: 'Stripe’s events (signed by Stripe)',
    description: 'Verified against the Stripe-Signature header; not for API clients.',
    auth: 'stripe',
    internal: true,
    responses: [{ status: 200, description: 'Applied (or already applied).', example: { received: true } }],
    errors: {
      400: 'A bad or stale signature (nothing changed).',
      500: 'Not processed: Stripe retries.',
      503: 'Stripe webhooks are not configured on this server.',
    },
  },
  // ----- Free tools and site ---------------------------------------------------------------------------------------
  ...(
    [
      [
        'generateKeywords',
        'generate-keywords',
        'Keyword ideas for a topic',
        keywordsInput,
        { topic: 'email marketing' },
        { keywords: [{ keyword: 'email marketing for saas', intent: 'commercial' }] },
      ],
      [
        'generateTitles',
        'generate-titles',
        'Title ideas for a keyword',
        titlesInput,
        { keyword: 'email marketing for saas' },
        { titles: ['Email marketing for SaaS: a practical guide'] },
      ],
      [
        'generateOutline',
        'generate-outline',
        'An outline for a topic',
        outlineInput,
        { keyword: 'email marketing for saas' },
        { outline: [{ heading: 'Why e-mail still works', points: ['…'] }] },
      ],
      [
        'generateSeoStrategy',
        'generate-seo-strategy',
        'An SEO strategy for a business',
        strategyInput,
        { business: 'email marketing software', segment: 'Indie SaaS founders' },
        { strategy: [{ title: 'Own the comparison pages', detail: '…' }] },
      ],
    ] as const
  ).map(([operationId, slug, summary, schema, example, answer]): ApiOperation => ({
    operationId,
    method: 'post',
    path: `/api/public/${slug}`,
    route: `api.public.${slug}.ts`,
    tag: 'Free tools',
    summary: `${summary} (free tool)`,
    description: 'The free tool of the public site, as JSON. No sign-in.',
    auth: 'public',
    body: { schema, example },
    responses: [{ status: 200, description: 'The answer.', example: answer }],
    errors: { 400: ERROR_MEANINGS[400], 429: 'Too many requests from this network today.', 503: ERROR_MEANINGS[503] },
    rateLimit: 'Per network address, a few a day; and a daily budget for the whole site.',
  })),
  {
    operationId: 'captureLead',
    method: 'post',
    path: '/api/leads',
    route: 'api.leads.ts',
    tag: 'Free tools',
    summary: 'Get the ebook by e-mail',
    description: 'Stores the address once and e-mails the ebook link. No sign-in.',
    auth: 'public',
    body: { schema: leadInput, example: { email: 'ada@example.com' } },
    responses: [{ status: 200, description: 'Sent.', example: { message: 'Check your inbox for the ebook.' } }],
    errors: { 400: ERROR_MEANINGS[400], 429: 'Too many requests from this network.', 503: ERROR_MEANINGS[503] },
    rateLimit: 'Per network address.',
  },
  {
    operationId: 'recordEvents',
    method: 'post',
    path: '/api/events',
    route: 'api.events.ts',
    tag: 'Site',
    summary: 'The site’s own page views and web vitals',
    description: 'Sent by the site’s pages (navigator.sendBeacon). Not for API clients.',
    auth: 'public',
    internal: true,
    body: { schema: analyticsPayload, example: { type: 'pageview', path: '/pricing' } },
    responses: [{ status: 204, description: 'Stored.', example: null }],
    errors: { 400: 'A bad event.', 429: 'Too many events from one client.', 503: ERROR_MEANINGS[503] },
    rateLimit: 'Per client.',
  },
  {
    operationId: 'recordPageView',
    method: 'get',
    path: '/api/events/view',
    route: 'api.events_.view.ts',
    tag: 'Site',
    summary: 'A page view counted by an image (pages without JavaScript)',
    description: 'Answers a 1×1 GIF. Not for API clients.',
    auth: 'public',
    internal: true,
    queryParams: { path: { description: 'The page’s path.', example: '/blog', required: true } },
    responses: [{ status: 200, description: 'The pixel.', contentType: 'image/gif' }],
    errors: { 400: 'A missing or bad path.', 429: 'Too many events from one client.', 503: ERROR_MEANINGS[503] },
  },
  {
    operationId: 'startPing',
    method: 'post',
    path: '/api/system/ping',
    route: 'api.system.ping.ts',
    tag: 'Site',
    summary: 'Check the background worker (start a ping)',
    description: 'Writes a row and enqueues a job that the worker marks as processed.',
    auth: 'user',
    scope: 'write',
    internal: true,
    responses: [{ status: 202, description: 'Enqueued.', example: { id: POST_ID } }],
    errors: { ...USER_ERRORS },
  },
  {
    operationId: 'readPing',
    method: 'get',
    path: '/api/system/ping',
    route: 'api.system.ping.ts',
    tag: 'Site',
    summary: 'Check the background worker (read a ping)',
    description: 'Whether the worker processed the ping.',
    auth: 'user',
    scope: 'read',
    internal: true,
    queryParams: { id: { description: 'The ping’s id.', example: POST_ID, required: true } },
    responses: [
      {
        status: 200,
        description: 'The ping.',
        example: { id: POST_ID, processedAt: CREATED, processedBy: 'worker-1' },
      },
    ],
    errors: { ...USER_ERRORS, 400: 'No id.', 404: ERROR_MEANINGS[404] },
  },
  {
    operationId: 'openapiDocument',
    method: 'get',
    path: '/api/openapi.json',
    route: 'api.openapi[.]json.ts',
    tag: 'Developers',
    summary: 'This document (OpenAPI 3.1)',
    description: 'Public and cacheable. /developers renders it as a reference page.',
    auth: 'public',
    responses: [{ status: 200, description: 'The document.', example: { openapi: '3.1.0' } }],
    errors: {},
  },
]

/** The operations an API client may use (without the webhooks, redirects and the site's beacons). */
export const publicOperations = () => API_OPERATIONS.filter((op) => !op.internal)

/** `/api/blogpost/{id}` with the example path parameters filled in, and the example query appended. */
export function exampleUrl(op: ApiOperation): string {
  let path = op.path
  for (const [name, param] of Object.entries(op.pathParams ?? {}))
    path = path.replace(`{${name}}`, encodeURIComponent(param.example))
  const query = new URLSearchParams(op.query?.example ?? {})
  for (const [name, param] of Object.entries(op.queryParams ?? {})) if (param.required) query.set(name, param.example)
  const search = query.toString()
  return search ? `${path}?${search}` : path
}
