/**
 * Exercises every fake through the official clients (openai SDK, stripe SDK,
 * nodemailer) or plain fetch, the way the app will use them.
 */
import { spawn } from 'node:child_process'
import { createPublicKey, verify as verifySignature, type JsonWebKey } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import nodemailer from 'nodemailer'
import OpenAI from 'openai'
import { zodResponseFormat } from 'openai/helpers/zod'
import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { markdownUrls } from '../../scripts/lib/post-metrics'
import {
  EVIL_LINK_FORMS,
  EVIL_URLS,
  FIGURE_IN_REWRITE,
  INVENTED_FIGURE,
  OBEYED_INSTRUCTION,
  UNSOURCED_SENTENCE,
} from './claims'
import { clearSmtp, countChatCompletions, fakeControl, googleOAuthControl, smtpMessages, stripeControl } from './client'
import { startFakes, type RunningFakes } from './index'
import { aiControl } from './dataforseo-ai'
import { parseMail } from './mime'
import { signStripePayload } from './stripe'
import { INJECTED_INSTRUCTIONS, MISBEHAVING_HANG_MS } from './web'

let running: RunningFakes
let env: Record<string, string>

interface Received {
  headers: IncomingHttpHeaders
  body: string
}
let webhookServer: Server
let webhookUrl = ''
let received: Received[] = []
let webhookStatus = 200

beforeAll(async () => {
  webhookServer = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(webhookStatus, { 'content-type': 'application/json' })
      res.end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => webhookServer.listen(0, '127.0.0.1', resolve))
  webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/webhooks/stripe`
  running = await startFakes({ stripeWebhookUrl: webhookUrl })
  env = running.env
})

afterAll(async () => {
  await running?.close()
  await new Promise<void>((resolve) => webhookServer?.close(() => resolve()))
})

describe('startFakes env', () => {
  it('exposes exactly the variables the app reads', () => {
    for (const key of [
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'OPENAI_MODEL',
      'DATAFORSEO_LOGIN',
      'DATAFORSEO_PASSWORD',
      'DATAFORSEO_API_URL',
      'GOOGLE_ADS_DEVELOPER_TOKEN',
      'GOOGLE_ADS_CLIENT_ID',
      'GOOGLE_ADS_CLIENT_SECRET',
      'GOOGLE_ADS_REFRESH_TOKEN',
      'GOOGLE_ADS_CUSTOMER_ID',
      'GOOGLE_ADS_API_URL',
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'STRIPE_API_URL',
      'STRIPE_PRICE_MONTHLY',
      'STRIPE_PRICE_QUARTERLY',
      'STRIPE_PRICE_YEARLY',
      'GOOGLE_CLIENT_ID',
      'GOOGLE_CLIENT_SECRET',
      'GOOGLE_OAUTH_URL',
      'SMTP_URL',
      'FAKE_SMTP_CONTROL_URL',
      'FAKE_OPENAI_URL',
      'FAKE_DATAFORSEO_URL',
      'FAKE_GOOGLE_ADS_URL',
      'FAKE_STRIPE_URL',
      'FAKE_GOOGLE_OAUTH_URL',
    ]) {
      expect(env[key], key).toBeTruthy()
    }
    expect(env.OPENAI_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(env.DATAFORSEO_API_URL).toMatch(/\/v3$/)
    expect(env.SMTP_URL).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/)
  })
})

// ---------------------------------------------------------------------------
describe('openai fake', () => {
  let client: OpenAI
  beforeEach(async () => {
    client = new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, maxRetries: 2 })
    await fakeControl('openai', env).reset()
  })

  it('answers plain text mentioning the main phrase, with usage and headers', async () => {
    const { data, response } = await client.chat.completions
      .create({
        model: env.OPENAI_MODEL,
        messages: [
          { role: 'system', content: 'You are an SEO writer.' },
          { role: 'user', content: "Write an introduction about 'keyword research tools' for small businesses." },
        ],
      })
      .withResponse()
    const content = data.choices[0].message.content ?? ''
    expect(data.object).toBe('chat.completion')
    expect(data.choices[0].finish_reason).toBe('stop')
    expect(content.toLowerCase()).toContain('keyword research tools')
    const words = content.split(/\s+/).length
    expect(words).toBeGreaterThan(120)
    expect(words).toBeLessThan(360)
    expect(data.usage?.prompt_tokens).toBeGreaterThan(10)
    expect(data.usage?.completion_tokens).toBeGreaterThan(100)
    expect(response.headers.get('x-request-id')).toMatch(/^req_/)
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBeTruthy()

    // deterministic for identical requests
    const again = await client.chat.completions.create({
      model: env.OPENAI_MODEL,
      messages: [
        { role: 'system', content: 'You are an SEO writer.' },
        { role: 'user', content: "Write an introduction about 'keyword research tools' for small businesses." },
      ],
    })
    expect(again.choices[0].message.content).toBe(content)
  })

  it('produces JSON that validates against a json_schema (raw and via zod helper)', async () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['title', 'sections'],
      properties: {
        title: { type: 'string' },
        sections: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['heading', 'keywords'],
            properties: { heading: { type: 'string' }, keywords: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    }
    const res = await client.chat.completions.create({
      model: env.OPENAI_MODEL,
      messages: [
        { role: 'system', content: 'You write SEO outlines.' },
        { role: 'user', content: "Outline an article for 'keyword research tools'." },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'article_outline', strict: true, schema } },
    })
    const parsed = JSON.parse(res.choices[0].message.content ?? '') as {
      title: string
      sections: Array<{ heading: string; keywords: string[] }>
    }
    expect(parsed.title.toLowerCase()).toContain('keyword research tools')
    expect(parsed.sections.length).toBeGreaterThanOrEqual(3)
    expect(parsed.sections.length).toBeLessThanOrEqual(5)
    for (const s of parsed.sections) {
      expect(typeof s.heading).toBe('string')
      expect(s.heading.toLowerCase()).toContain('keyword research tools')
      expect(s.keywords.every((k) => typeof k === 'string' && k.length > 0)).toBe(true)
    }

    const Brief = z.object({
      title: z.string().max(70),
      slug: z.string(),
      metaDescription: z.string().min(50).max(160),
      intent: z.enum(['informational', 'commercial', 'transactional']),
      difficulty: z.number().int().min(0).max(100),
      confidence: z.number().min(0).max(1),
      featured: z.boolean(),
      note: z.string().nullable(),
      faqs: z
        .array(z.object({ question: z.string(), answer: z.string() }))
        .min(2)
        .max(4),
      tags: z.array(z.string()).length(2),
    })
    const completion = await client.chat.completions.parse({
      model: env.OPENAI_MODEL,
      messages: [{ role: 'user', content: 'Create a content brief for the keyword: vegan meal prep' }],
      response_format: zodResponseFormat(Brief, 'content_brief'),
    })
    const brief = completion.choices[0].message.parsed
    expect(brief).not.toBeNull()
    expect(Brief.parse(brief)).toBeTruthy()
    expect(brief?.title.toLowerCase()).toContain('vegan meal prep')
  })

  it('streams chunks with include_usage and [DONE]', async () => {
    const messages = [{ role: 'user' as const, content: 'Write about "technical seo audits".' }]
    const stream = await client.chat.completions.create({
      model: env.OPENAI_MODEL,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    })
    let text = ''
    let contentChunks = 0
    let finish: string | null = null
    let usage: OpenAI.CompletionUsage | null | undefined
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk')
      if (chunk.choices.length > 0) {
        const delta = chunk.choices[0].delta.content
        if (delta) {
          text += delta
          contentChunks++
        }
        if (chunk.choices[0].finish_reason) finish = chunk.choices[0].finish_reason
      }
      if (chunk.usage) usage = chunk.usage
    }
    expect(contentChunks).toBeGreaterThan(5)
    expect(finish).toBe('stop')
    expect(usage?.completion_tokens).toBeGreaterThan(0)
    expect(text.toLowerCase()).toContain('technical seo audits')
    const nonStream = await client.chat.completions.create({ model: env.OPENAI_MODEL, messages })
    expect(nonStream.choices[0].message.content).toBe(text)
  })

  it('retries an enqueued 429 and then succeeds', async () => {
    await fakeControl('openai', env).enqueue({
      status: 429,
      path: '/chat/completions',
      headers: { 'retry-after-ms': '20' },
      body: {
        error: {
          message: 'Rate limit reached for gpt-4o-mini',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
    })
    const res = await client.chat.completions.create({
      model: env.OPENAI_MODEL,
      messages: [{ role: 'user', content: 'Hello about seo' }],
    })
    expect(res.choices[0].message.content).toBeTruthy()
    expect(await countChatCompletions(env)).toBe(2)
    expect(running.fakes.openai?.countChatCompletions()).toBe(2)

    await fakeControl('openai', env).enqueue({ status: 429, times: 5, headers: { 'retry-after-ms': '5' } })
    const noRetry = new OpenAI({ apiKey: 'x', baseURL: env.OPENAI_BASE_URL, maxRetries: 0 })
    const err = await noRetry.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.RateLimitError)
    expect((err as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded')
  })

  it('hangs on demand (timeout) and rejects bad auth / bad strict schemas', async () => {
    await fakeControl('openai', env).enqueue({ status: 200, hang: true })
    const impatient = new OpenAI({ apiKey: 'x', baseURL: env.OPENAI_BASE_URL, maxRetries: 0, timeout: 300 })
    const err = await impatient.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError)

    const res = await fetch(`${env.OPENAI_BASE_URL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    })
    expect(res.status).toBe(401)
    const body = (await res.json()) as { error: { type: string } }
    expect(body.error.type).toBe('invalid_request_error')

    const bad = await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'x', strict: true, schema: { type: 'object', properties: { a: { type: 'string' } } } },
        },
      })
      .catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError)

    const models = await client.models.list()
    expect(models.data[0].id).toBe('gpt-4o-mini')
  })
})

// ---------------------------------------------------------------------------
describe('request log', () => {
  it('lists the requests after a mark only, with sequence numbers that a reset does not reuse', async () => {
    const control = fakeControl('openai', env)
    const client = new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, maxRetries: 0 })
    const ask = (content: string) =>
      client.chat.completions.create({ model: env.OPENAI_MODEL, messages: [{ role: 'user', content }] })
    await ask('before the mark')
    const mark = await control.mark()
    expect(mark).toBeGreaterThan(0)
    expect(await control.requests({ since: mark })).toEqual([])
    await ask('after the mark')
    await ask('after the mark, again')
    const after = await control.requests({ method: 'POST', path: '/chat/completions', since: mark })
    expect(after.map((r) => r.seq)).toEqual([mark + 1, mark + 2])
    expect(JSON.stringify(after[0]!.body)).toContain('after the mark')
    expect((await control.requests()).length).toBeGreaterThanOrEqual(3)
    expect(running.fakes.openai!.requests(mark)).toHaveLength(2)
    expect(running.fakes.openai!.mark()).toBe(mark + 2)

    await control.reset()
    expect(await control.requests()).toEqual([])
    expect(await control.mark()).toBe(mark + 2)
    await ask('after the reset')
    expect((await control.requests({ since: mark })).map((r) => r.seq)).toEqual([mark + 3])
  })
})

describe('dataforseo fake', () => {
  const auth = (): string =>
    `Basic ${Buffer.from(`${env.DATAFORSEO_LOGIN}:${env.DATAFORSEO_PASSWORD}`).toString('base64')}`
  const post = (path: string, body: unknown, authorization = auth()): Promise<Response> =>
    fetch(`${env.DATAFORSEO_API_URL}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  interface Envelope {
    status_code: number
    tasks_count: number
    tasks_error: number
    tasks: Array<{
      id: string
      status_code: number
      status_message: string
      path: string[]
      data: Record<string, unknown>
      result: Array<Record<string, unknown>> | null
    }>
  }

  it('returns keyword ideas in the real envelope', async () => {
    const res = await post('/dataforseo_labs/google/keyword_ideas/live', [
      { keywords: ['keyword research'], location_code: 2840, language_code: 'en', limit: 50 },
    ])
    expect(res.status).toBe(200)
    const env1 = (await res.json()) as Envelope
    expect(env1.status_code).toBe(20000)
    expect(env1.tasks_count).toBe(1)
    const task = env1.tasks[0]
    expect(task.status_code).toBe(20000)
    expect(task.path).toEqual(['v3', 'dataforseo_labs', 'google', 'keyword_ideas', 'live'])
    expect(task.data).toMatchObject({
      api: 'dataforseo_labs',
      function: 'keyword_ideas',
      keywords: ['keyword research'],
    })
    const result = task.result?.[0] as {
      items_count: number
      total_count: number
      items: Array<{
        keyword: string
        keyword_info: { search_volume: number | null }
        keyword_properties: { keyword_difficulty: number | null }
      }>
    }
    expect(result.items_count).toBe(50)
    expect(result.total_count).toBeGreaterThan(50)
    const volumes = result.items.map((i) => i.keyword_info.search_volume)
    expect(volumes.some((v) => v === null || v < 10)).toBe(true)
    const kds = result.items.map((i) => i.keyword_properties.keyword_difficulty).filter((k): k is number => k !== null)
    expect(Math.min(...kds)).toBeLessThan(30)
    expect(Math.max(...kds)).toBeGreaterThan(70)
    expect(result.items.every((i) => i.keyword.includes('keyword research'))).toBe(true)

    // deterministic, but market-dependent
    const again = (await (
      await post('/dataforseo_labs/google/keyword_ideas/live', [
        { keywords: ['keyword research'], location_code: 2840, language_code: 'en', limit: 50 },
      ])
    ).json()) as Envelope
    expect((again.tasks[0].result?.[0] as typeof result).items.map((i) => i.keyword_info.search_volume)).toEqual(
      volumes,
    )
    const uk = (await (
      await post('/dataforseo_labs/google/keyword_ideas/live', [
        { keywords: ['keyword research'], location_code: 2826, language_code: 'en', limit: 50 },
      ])
    ).json()) as Envelope
    expect((uk.tasks[0].result?.[0] as typeof result).items.map((i) => i.keyword_info.search_volume)).not.toEqual(
      volumes,
    )
  })

  it('handles auth failure, empty results, extra tasks and missing location', async () => {
    const unauth = await post(
      '/dataforseo_labs/google/keyword_ideas/live',
      [{ keywords: ['x y z'], location_code: 2840 }],
      `Basic ${Buffer.from('nope:wrong').toString('base64')}`,
    )
    expect(unauth.status).toBe(401)
    expect(((await unauth.json()) as Envelope).status_code).toBe(40100)

    const empty = (await (
      await post('/dataforseo_labs/google/keyword_ideas/live', [
        { keywords: ['emptyresult seed'], location_code: 2840, language_code: 'en' },
      ])
    ).json()) as Envelope
    expect(empty.tasks[0].status_code).toBe(20000)
    expect(empty.tasks[0].result?.[0]).toMatchObject({ items_count: 0, items: [] })

    const two = (await (
      await post('/keywords_data/google_ads/keywords_for_keywords/live', [{ keywords: ['seo'] }, { keywords: ['sem'] }])
    ).json()) as Envelope
    expect(two.tasks_error).toBe(1)
    expect(two.tasks[1].status_code).toBe(40000)
    expect(Array.isArray(two.tasks[0].result)).toBe(true)
    expect(two.tasks[0].result?.[0]).toHaveProperty('competition_index')

    const noLoc = (await (
      await post('/dataforseo_labs/google/keyword_ideas/live', [{ keywords: ['seo tools'] }])
    ).json()) as Envelope
    expect(noLoc.tasks[0].status_code).toBe(40501)
    expect(noLoc.tasks[0].result).toBeNull()

    const kd = (await (
      await post('/dataforseo_labs/google/bulk_keyword_difficulty/live', [
        { keywords: ['seo tools', 'keyword research'], location_code: 2840, language_code: 'en' },
      ])
    ).json()) as Envelope
    expect(kd.tasks[0].result?.[0]).toMatchObject({ items_count: 2 })

    const related = (await (
      await post('/dataforseo_labs/google/related_keywords/live', [
        { keyword: 'seo tools', location_code: 2840, language_code: 'en', depth: 2, limit: 10 },
      ])
    ).json()) as Envelope
    expect(related.tasks[0].status_code).toBe(20000)
    expect((related.tasks[0].result?.[0] as { items: unknown[] }).items.length).toBe(10)

    const sv = (await (
      await post('/keywords_data/google_ads/search_volume/live', [{ keywords: ['seo tools'], location_code: 2840 }])
    ).json()) as Envelope
    expect(sv.tasks[0].result?.[0]).toMatchObject({ keyword: 'seo tools' })
  })

  it('answers the AI endpoints (issue 37) in their shapes, as scripted: failures, partial results, calls per unit', async () => {
    const ai = aiControl(env)
    await ai.script(
      'crm for teams',
      { text: 'Acme leads.', references: [{ url: 'https://acme.example/a' }] },
      'chatgpt',
    )
    await ai.script('crm for teams', { partial: true }, 'gemini')
    await ai.script('crm for teams', { fail: 50000, failTimes: 1 }, 'claude')
    await ai.script('seo tools', { fail: 'html', failTimes: 1 }, 'google_ai_mode')
    const llm = async (platform: string, task: Record<string, unknown>) =>
      (await (await post(`/ai_optimization/${platform}/llm_responses/live`, [task])).json()) as Envelope
    const chat = await llm('chat_gpt', { user_prompt: 'CRM for teams', model_name: 'gpt-4.1-mini', web_search: true })
    expect(chat.tasks[0].result?.[0]).toMatchObject({
      web_search: true,
      items: [
        {
          type: 'message',
          sections: [{ type: 'text', text: 'Acme leads.', annotations: [{ url: 'https://acme.example/a' }] }],
        },
      ],
    })
    // Without web_search, no sources (annotations null), as DataForSEO answers.
    const plain = await llm('chat_gpt', { user_prompt: 'CRM for teams', model_name: 'gpt-4.1-mini' })
    expect(
      (plain.tasks[0].result?.[0] as { items: Array<{ sections: Array<{ annotations: unknown }> }> }).items[0]!
        .sections[0]!.annotations,
    ).toBeNull()
    const partial = await llm('gemini', { user_prompt: 'CRM for teams', model_name: 'gemini-2.5-flash' })
    expect(partial.tasks[0].result?.[0]).toMatchObject({
      items: [{ type: 'reasoning' }, { type: 'message', sections: [] }],
    })
    const failed = await llm('claude', { user_prompt: 'CRM for teams', model_name: 'claude-sonnet-4-0' })
    expect(failed.tasks[0]).toMatchObject({ status_code: 50000, result: null })
    expect((await llm('claude', { user_prompt: 'CRM for teams', model_name: 'x' })).tasks[0].status_code).toBe(20000)
    expect((await llm('perplexity', { model_name: 'sonar' })).tasks[0].status_code).toBe(40501)

    const mode = () =>
      post('/serp/google/ai_mode/live/advanced', [{ keyword: 'SEO tools', location_code: 2840, language_code: 'en' }])
    const page = await mode()
    expect([page.status, (await page.text()).startsWith('<!DOCTYPE html>')]).toEqual([502, true])
    const answer = (await (await mode()).json()) as Envelope
    expect(answer.tasks[0].result?.[0]).toMatchObject({
      type: 'ai_mode',
      items: [
        {
          type: 'ai_overview',
          references: expect.arrayContaining([expect.objectContaining({ type: 'ai_overview_reference' })]),
        },
      ],
    })
    const { calls } = await ai.calls()
    // A task the fake cannot tie to a unit (no prompt) is not counted.
    expect(calls).toEqual({
      'chatgpt|crm for teams||': 2,
      'gemini|crm for teams||': 1,
      'claude|crm for teams||': 2,
      'google_ai_mode|seo tools|2840|en': 2,
    })
    await ai.clearScripts()
    await ai.resetCalls()
  })
})

// ---------------------------------------------------------------------------
describe('google ads fake', () => {
  async function token(
    url: string,
    clientId = env.GOOGLE_ADS_CLIENT_ID,
    refresh = env.GOOGLE_ADS_REFRESH_TOKEN,
  ): Promise<Response> {
    return fetch(`${url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: clientId,
        client_secret: env.GOOGLE_ADS_CLIENT_SECRET,
        refresh_token: refresh,
      }),
    })
  }
  const ideas = (accessToken: string, body: unknown, devToken = env.GOOGLE_ADS_DEVELOPER_TOKEN): Promise<Response> =>
    fetch(`${env.GOOGLE_ADS_API_URL}/v21/customers/${env.GOOGLE_ADS_CUSTOMER_ID}:generateKeywordIdeas`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'developer-token': devToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    })

  it('exchanges the refresh token and pages through ideas (proto3 JSON)', async () => {
    const t = await token(env.GOOGLE_ADS_API_URL)
    expect(t.status).toBe(200)
    const tok = (await t.json()) as { access_token: string; expires_in: number; token_type: string; scope: string }
    expect(tok).toMatchObject({
      expires_in: 3599,
      token_type: 'Bearer',
      scope: 'https://www.googleapis.com/auth/adwords',
    })

    const body = {
      language: 'languageConstants/1000',
      geoTargetConstants: ['geoTargetConstants/2840'],
      keywordPlanNetwork: 'GOOGLE_SEARCH',
      keywordSeed: { keywords: ['keyword research'] },
      pageSize: 5,
    }
    const res = await ideas(tok.access_token, body)
    expect(res.status).toBe(200)
    const page1 = (await res.json()) as {
      results: Array<{ text: string; keywordIdeaMetrics: Record<string, unknown> }>
      nextPageToken?: string
      totalSize: string
    }
    expect(page1.results).toHaveLength(5)
    expect(typeof page1.totalSize).toBe('string')
    expect(page1.nextPageToken).toBeTruthy()
    const metrics = page1.results[0].keywordIdeaMetrics
    expect(typeof metrics.avgMonthlySearches).toBe('string')
    expect(['LOW', 'MEDIUM', 'HIGH']).toContain(metrics.competition)
    const monthly = metrics.monthlySearchVolumes as Array<{ year: unknown; month: unknown; monthlySearches: unknown }>
    expect(typeof monthly[0].year).toBe('string')
    expect(monthly[0].month).toMatch(/^[A-Z]+$/)
    expect(Object.values(page1.results.flatMap((r) => Object.values(r.keywordIdeaMetrics))).includes(null)).toBe(false)

    const page2 = (await (
      await ideas(tok.access_token, { ...body, pageToken: page1.nextPageToken })
    ).json()) as typeof page1
    expect(page2.results[0].text).not.toBe(page1.results[0].text)

    const all = (await (await ideas(tok.access_token, { ...body, pageSize: 10000 })).json()) as typeof page1
    expect(all.nextPageToken).toBeUndefined()
    expect(String(all.results.length)).toBe(all.totalSize)

    const empty = await ideas(tok.access_token, { ...body, keywordSeed: { keywords: ['emptyresult'] } })
    expect(await empty.json()).toEqual({})
  })

  it('accepts tokens minted by the google-oauth fake and rejects bad credentials', async () => {
    const t = await token(env.GOOGLE_OAUTH_URL)
    expect(t.status).toBe(200)
    const { access_token } = (await t.json()) as { access_token: string }
    expect(access_token.startsWith('ya29.fake-')).toBe(true)
    const ok = await ideas(access_token, { keywordSeed: { keywords: ['seo'] }, pageSize: 1 })
    expect(ok.status).toBe(200)

    const badGrant = await token(env.GOOGLE_OAUTH_URL, env.GOOGLE_ADS_CLIENT_ID, 'wrong-refresh')
    expect(badGrant.status).toBe(400)
    expect(await badGrant.json()).toMatchObject({ error: 'invalid_grant' })

    const unauth = await ideas('not-a-token', { keywordSeed: { keywords: ['seo'] } })
    expect(unauth.status).toBe(401)
    const unauthBody = (await unauth.json()) as { error: { status: string; details: Array<Record<string, unknown>> } }
    expect(unauthBody.error.status).toBe('UNAUTHENTICATED')
    expect(unauthBody.error.details[0]['@type']).toContain('GoogleAdsFailure')

    const forbidden = await ideas(access_token, { keywordSeed: { keywords: ['seo'] } }, 'wrong-dev-token')
    expect(forbidden.status).toBe(403)
    expect(((await forbidden.json()) as { error: { status: string } }).error.status).toBe('PERMISSION_DENIED')
  })
})

// ---------------------------------------------------------------------------
describe('stripe fake', () => {
  let stripe: Stripe
  const secret = (): string => env.STRIPE_WEBHOOK_SECRET
  const url = new URL('http://x')

  beforeEach(async () => {
    url.href = env.STRIPE_API_URL
    stripe = new Stripe(env.STRIPE_SECRET_KEY, {
      host: url.hostname,
      port: Number(url.port),
      protocol: 'http',
      maxNetworkRetries: 1,
    })
    await stripeControl(env).reset()
    received = []
    webhookStatus = 200
  })

  it('signs payloads like Stripe (reference test vector)', () => {
    expect(
      signStripePayload(
        '{"id":"evt_test_1","object":"event","type":"invoice.paid"}',
        'whsec_test_refdata_secret',
        1735689600,
      ),
    ).toBe('t=1735689600,v1=19b5533b661f57f731f9486fc5795e94d5b08cf0d67c199aa7ab70ff3ae9dc88')
  })

  it('runs the checkout → subscription → webhooks flow', async () => {
    const customer = await stripe.customers.create({
      email: 'owner@example.com',
      name: 'Owner',
      metadata: { userId: 'u_1' },
    })
    expect(customer.id).toMatch(/^cus_/)
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      email: 'owner@example.com',
      metadata: { userId: 'u_1' },
    })

    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: env.STRIPE_PRICE_MONTHLY, quantity: 1 }],
      success_url: 'http://app.local/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.local/billing',
      client_reference_id: 'org_42',
      metadata: { orgId: 'org_42' },
      subscription_data: { metadata: { orgId: 'org_42' } },
    })
    expect(session.url).toBe(`${env.STRIPE_API_URL}/checkout/${session.id}`)
    expect(session.status).toBe('open')
    expect(session.amount_total).toBe(4990)

    const page = await fetch(session.url ?? '')
    const html = await page.text()
    expect(html).toContain('Fake Stripe Checkout')
    expect(html).toContain('$49.90')
    expect(html).toContain(`action="/checkout/${session.id}/pay"`)
    expect(html).toContain('href="http://app.local/billing"')

    const pay = await fetch(`${env.STRIPE_API_URL}/checkout/${session.id}/pay`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ email: 'owner@example.com' }),
    })
    expect(pay.status).toBe(303)
    expect(pay.headers.get('location')).toBe(`http://app.local/billing/success?session_id=${session.id}`)

    expect(received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ])
    const events = received.map((r) =>
      stripe.webhooks.constructEvent(r.body, String(r.headers['stripe-signature']), secret()),
    )
    const completed = events[0].data.object as Stripe.Checkout.Session
    expect(completed).toMatchObject({
      client_reference_id: 'org_42',
      customer: customer.id,
      status: 'complete',
      payment_status: 'paid',
    })
    expect(events[0].api_version).toBe('2025-03-31.basil')
    const sub = events[1].data.object as Stripe.Subscription
    expect(sub.status).toBe('active')
    expect(sub.metadata).toEqual({ orgId: 'org_42' })
    const item = sub.items.data[0]
    expect(item.price).toMatchObject({
      id: 'price_monthly',
      unit_amount: 4990,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
    })
    expect(item.current_period_end).toBeGreaterThan(item.current_period_start)
    const invoice = events[2].data.object as Stripe.Invoice
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id)
    expect(invoice.status).toBe('paid')

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] })
    expect((retrieved.subscription as Stripe.Subscription).id).toBe(sub.id)

    // cancel at period end → customer.subscription.updated
    received = []
    const updated = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })
    expect(updated.cancel_at_period_end).toBe(true)
    const upd = stripe.webhooks.constructEvent(
      received[0].body,
      String(received[0].headers['stripe-signature']),
      secret(),
    )
    expect(upd.type).toBe('customer.subscription.updated')
    expect(upd.data.previous_attributes).toMatchObject({ cancel_at_period_end: false })

    // renew with cancel_at_period_end → ends the subscription
    received = []
    const renewed = await stripeControl(env).renew(sub.id)
    expect(renewed.deliveries.map((d) => d.type)).toEqual(['customer.subscription.deleted'])
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled')

    // billing portal
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://app.local/settings',
    })
    expect(portal.object).toBe('billing_portal.session')
    expect(portal.id).toMatch(/^bps_/)
    const portalHtml = await (await fetch(portal.url)).text()
    expect(portalHtml).toContain('href="http://app.local/settings"')
  })

  it('renews, fails payments, re-sends events and deletes subscriptions', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'buyer@example.com',
      line_items: [{ price: env.STRIPE_PRICE_QUARTERLY, quantity: 1 }],
      success_url: 'http://app.local/ok',
    })
    const ctl = stripeControl(env)
    const done = await ctl.completeCheckout(session.id)
    expect(done.deliveries.every((d) => d.status === 200)).toBe(true)
    const subId = String(done.session.subscription)
    const before = await stripe.subscriptions.retrieve(subId)

    const renew = await ctl.renew(subId)
    expect(renew.deliveries.map((d) => d.type)).toEqual(['invoice.paid', 'customer.subscription.updated'])
    const after = await stripe.subscriptions.retrieve(subId)
    expect(after.items.data[0].current_period_start).toBe(before.items.data[0].current_period_end)

    const failed = await ctl.paymentFailed(subId)
    expect(failed.deliveries.map((d) => d.type)).toEqual(['invoice.payment_failed', 'customer.subscription.updated'])
    expect((await stripe.subscriptions.retrieve(subId)).status).toBe('past_due')

    // duplicate delivery is byte-identical, receiver status is reported
    const events = await ctl.events('invoice.payment_failed')
    received = []
    webhookStatus = 500
    const resent = await ctl.resend(events[0].id)
    expect(resent.status).toBe(500)
    const original = (await ctl.events()).find((e) => e.id === events[0].id)
    expect(JSON.parse(received[0].body)).toEqual(original?.event)
    expect(
      stripe.webhooks.constructEvent(received[0].body, String(received[0].headers['stripe-signature']), secret()).id,
    ).toBe(events[0].id)
    webhookStatus = 200

    const sent = await ctl.sendEvent('customer.subscription.trial_will_end', { id: subId, object: 'subscription' })
    expect(sent.status).toBe(200)

    received = []
    const deleted = await stripe.subscriptions.cancel(subId)
    expect(deleted.status).toBe('canceled')
    expect((JSON.parse(received[0].body) as { type: string }).type).toBe('customer.subscription.deleted')
  })

  it('replays idempotent requests and reports errors in the Stripe envelope', async () => {
    const a = await stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: 'key-1' })
    const b = await stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: 'key-1' })
    expect(b.id).toBe(a.id)
    const conflict = await stripe.customers
      .create({ email: 'other@example.com' }, { idempotencyKey: 'key-1' })
      .catch((e: unknown) => e)
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)

    const missingCustomer = await stripe.customers.retrieve('cus_nope').catch((e: unknown) => e)
    expect(missingCustomer).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect((missingCustomer as Stripe.errors.StripeError).code).toBe('resource_missing')
    expect((missingCustomer as Stripe.errors.StripeError).requestId).toMatch(/^req_/)

    const noCustomer = await stripe.billingPortal.sessions
      .create({} as Stripe.BillingPortal.SessionCreateParams)
      .catch((e: unknown) => e)
    expect((noCustomer as Stripe.errors.StripeError).param).toBe('customer')

    const badKey = new Stripe('sk_test_wrong', { host: url.hostname, port: Number(url.port), protocol: 'http' })
    expect(await badKey.customers.list().catch((e: unknown) => e)).toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    )

    const price = await stripe.prices.retrieve(env.STRIPE_PRICE_YEARLY)
    expect(price).toMatchObject({ unit_amount: 49990, recurring: { interval: 'year', interval_count: 1 } })
    const created = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 999,
      recurring: { interval: 'month' },
      product_data: { name: 'Extra' },
    })
    expect((await stripe.prices.retrieve(created.id)).unit_amount).toBe(999)
  })
})

// ---------------------------------------------------------------------------
describe('smtp fake', () => {
  it('stores multipart mail sent by nodemailer with decoded subject/text/html', async () => {
    await clearSmtp(env)
    const transport = nodemailer.createTransport(env.SMTP_URL)
    await transport.sendMail({
      from: '"Rankwell" <no-reply@rankwell.test>',
      to: 'Jane Doe <jane@example.com>',
      bcc: 'audit@example.com',
      subject: 'Vérifiez votre adresse — Rankwell ✓',
      text: 'Bonjour Jane,\n\nCliquez ici : https://app.local/verify?token=abc123&x=1\n\nÀ bientôt — l’équipe',
      html: '<p>Bonjour <strong>Jane</strong>,</p><p><a href="https://app.local/verify?token=abc123&amp;x=1">Vérifier</a></p>',
    })
    transport.close()
    const msgs = await smtpMessages('jane@example.com', env)
    expect(msgs).toHaveLength(1)
    const m = msgs[0]
    expect(m.subject).toBe('Vérifiez votre adresse — Rankwell ✓')
    expect(m.from).toBe('no-reply@rankwell.test')
    expect(m.to).toEqual(['jane@example.com', 'audit@example.com'])
    expect(m.text).toContain('https://app.local/verify?token=abc123&x=1')
    expect(m.text).toContain('À bientôt — l’équipe')
    expect(m.html).toContain('<a href="https://app.local/verify?token=abc123&amp;x=1">Vérifier</a>')
    expect(m.headers['content-type']).toContain('multipart/alternative')
    expect(await smtpMessages('audit@example.com', env)).toHaveLength(1)
    expect(await smtpMessages('nobody@example.com', env)).toHaveLength(0)
    expect(running.fakes.smtp?.messages()).toHaveLength(1)
  })

  it('parses base64 parts and encoded words', () => {
    const raw = [
      'From: a@example.com',
      'To: b@example.com',
      'Subject: =?UTF-8?B?SGVsbG8g8J+Riw==?=',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="XX"',
      '',
      '--XX',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('Grüße').toString('base64'),
      '--XX',
      'Content-Type: application/pdf; name="a.pdf"',
      'Content-Disposition: attachment; filename="a.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      'JVBERi0=',
      '--XX--',
      '',
    ].join('\r\n')
    const parsed = parseMail(raw)
    expect(parsed.subject).toBe('Hello 👋')
    expect(parsed.text).toBe('Grüße')
    expect(parsed.attachments).toEqual([{ filename: 'a.pdf', contentType: 'application/pdf', size: 5 }])
  })
})

// ---------------------------------------------------------------------------
describe('google oauth fake', () => {
  const redirectUri = 'http://app.local/auth/google/callback'
  beforeEach(async () => {
    await googleOAuthControl(env).reset()
  })

  function authUrl(extra: Record<string, string> = {}): string {
    const u = new URL(`${env.GOOGLE_OAUTH_URL}/o/oauth2/v2/auth`)
    u.search = new URLSearchParams({
      client_id: env.GOOGLE_CLIENT_ID,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid https://www.googleapis.com/auth/userinfo.profile https://www.googleapis.com/auth/userinfo.email',
      state: 'st-123',
      nonce: 'n-456',
      ...extra,
    }).toString()
    return u.toString()
  }

  function exchange(code: string, redirect = redirectUri): Promise<Response> {
    return fetch(`${env.GOOGLE_OAUTH_URL}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${env.GOOGLE_CLIENT_ID}:${env.GOOGLE_CLIENT_SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect }),
    })
  }

  it('runs consent → code → token → id_token (JWKS) → userinfo', async () => {
    const discovery = (await (
      await fetch(`${env.GOOGLE_OAUTH_URL}/.well-known/openid-configuration`)
    ).json()) as Record<string, string>
    expect(discovery.token_endpoint).toBe(`${env.GOOGLE_OAUTH_URL}/token`)

    const page = await fetch(authUrl({ login_hint: 'sam@example.com' }))
    const html = await page.text()
    expect(html).toContain('Sign in with Google (fake)')
    expect(html).toContain('action="/o/oauth2/v2/auth/decision"')
    expect(html).toContain('name="email" value="sam@example.com"')
    expect(html).toContain('name="decision" value="allow"')
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1] ?? ''

    const decision = await fetch(`${env.GOOGLE_OAUTH_URL}/o/oauth2/v2/auth/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        request_id: requestId,
        email: 'sam@example.com',
        name: 'Sam Smith',
        email_verified: 'true',
        decision: 'allow',
      }),
    })
    expect(decision.status).toBe(302)
    const location = new URL(decision.headers.get('location') ?? '')
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri)
    expect(location.searchParams.get('state')).toBe('st-123')
    const code = location.searchParams.get('code') ?? ''

    const wrongRedirect = await exchange(code, 'http://evil.local/cb')
    expect(wrongRedirect.status).toBe(400) // also burns the code (single use)
    const page2 = await fetch(authUrl())
    const requestId2 = /name="request_id" value="([^"]+)"/.exec(await page2.text())?.[1] ?? ''
    const decision2 = await fetch(`${env.GOOGLE_OAUTH_URL}/o/oauth2/v2/auth/decision`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        request_id: requestId2,
        email: 'sam@example.com',
        name: 'Sam Smith',
        email_verified: 'true',
        decision: 'allow',
      }),
    })
    const code2 = new URL(decision2.headers.get('location') ?? '').searchParams.get('code') ?? ''

    const tokenRes = await exchange(code2)
    expect(tokenRes.status).toBe(200)
    const tokens = (await tokenRes.json()) as {
      access_token: string
      id_token: string
      expires_in: number
      token_type: string
      scope: string
    }
    expect(tokens).toMatchObject({ expires_in: 3599, token_type: 'Bearer' })
    expect((await exchange(code2)).status).toBe(400) // single use

    // verify the ID token against the JWKS with node:crypto
    const [h, p, s] = tokens.id_token.split('.')
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string; kid: string }
    const jwks = (await (await fetch(`${env.GOOGLE_OAUTH_URL}/oauth2/v3/certs`)).json()) as {
      keys: Array<JsonWebKey & { kid: string }>
    }
    const jwk = jwks.keys.find((k) => k.kid === header.kid)
    expect(header.alg).toBe('RS256')
    expect(jwk).toBeTruthy()
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' })
    expect(verifySignature('sha256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))).toBe(true)
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>
    expect(claims).toMatchObject({
      iss: 'https://accounts.google.com',
      aud: env.GOOGLE_CLIENT_ID,
      email: 'sam@example.com',
      email_verified: true,
      name: 'Sam Smith',
      given_name: 'Sam',
      family_name: 'Smith',
      nonce: 'n-456',
    })
    expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000)

    for (const path of ['/oauth2/v3/userinfo', '/v1/userinfo', '/oauth2/v2/userinfo']) {
      const info = (await (
        await fetch(`${env.GOOGLE_OAUTH_URL}${path}`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
      ).json()) as Record<string, unknown>
      expect(info).toMatchObject({
        sub: claims.sub,
        email: 'sam@example.com',
        name: 'Sam Smith',
        given_name: 'Sam',
        family_name: 'Smith',
      })
      expect(typeof info.picture).toBe('string')
    }
    const bad = await fetch(`${env.GOOGLE_OAUTH_URL}/oauth2/v3/userinfo`, { headers: { authorization: 'Bearer nope' } })
    expect(bad.status).toBe(401)
    expect(await bad.json()).toEqual({ error: 'invalid_request', error_description: 'Invalid Credentials' })
  })

  it('supports deny, auto decisions and the identity control', async () => {
    const html = await (await fetch(authUrl())).text()
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1] ?? ''
    const deny = await fetch(`${env.GOOGLE_OAUTH_URL}/o/oauth2/v2/auth/decision`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ request_id: requestId, decision: 'deny' }),
    })
    expect(deny.headers.get('location')).toBe(`${redirectUri}?error=access_denied&state=st-123`)

    const ctl = googleOAuthControl(env)
    await ctl.setIdentity({ email: 'auto@example.com', name: 'Auto User', email_verified: false })
    await ctl.setAuto('allow')
    const auto = await fetch(authUrl(), { redirect: 'manual' })
    expect(auto.status).toBe(302)
    const code = new URL(auto.headers.get('location') ?? '').searchParams.get('code') ?? ''
    const tokens = (await (await exchange(code)).json()) as { id_token: string }
    const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >
    expect(claims).toMatchObject({ email: 'auto@example.com', email_verified: false, name: 'Auto User' })

    await ctl.setAuto('deny')
    const denied = await fetch(authUrl(), { redirect: 'manual' })
    expect(new URL(denied.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied')
  })
})

// ---------------------------------------------------------------------------
describe('run.ts', () => {
  it('prints FAKES_READY with env and exits on SIGTERM', async () => {
    const runPath = fileURLToPath(new URL('./run.ts', import.meta.url))
    const tsxCli = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url))
    const child = spawn(process.execPath, [tsxCli, runPath, '--only=openai,smtp'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const line = await new Promise<string>((resolve, reject) => {
      let buf = ''
      const timer = setTimeout(() => reject(new Error(`timeout; got: ${buf}`)), 20_000)
      child.stdout.on('data', (c: Buffer) => {
        buf += c.toString()
        const l = buf.split('\n').find((x) => x.startsWith('FAKES_READY '))
        if (l) {
          clearTimeout(timer)
          resolve(l)
        }
      })
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${buf}`)))
    })
    const childEnv = JSON.parse(line.slice('FAKES_READY '.length)) as Record<string, string>
    expect(Object.keys(childEnv).sort()).toEqual(
      [
        'FAKE_OPENAI_URL',
        'FAKE_SMTP_CONTROL_URL',
        'OPENAI_API_KEY',
        'OPENAI_BASE_URL',
        'OPENAI_MODEL',
        'SMTP_URL',
      ].sort(),
    )
    const health = await fetch(`${childEnv.FAKE_OPENAI_URL}/__control/health`)
    expect(health.status).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 30_000)
})

describe('issue 32: a model that cites facts, a misbehaving one, and the misbehaving research pages', () => {
  let client: OpenAI
  beforeEach(async () => {
    client = new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, maxRetries: 0 })
    await fakeControl('openai', env).reset()
  })

  const FACTS = [
    '- [F3] 45% of marketers say invoice software is their top priority this year.',
    '- [F7] Teams that use invoice software publish 137 posts a month on average.',
    '- [F9] The average invoice software project takes 6 weeks from start to results.',
  ]
  const sectionPrompt = (keyword: string, facts = FACTS) =>
    [
      `Keyword: "${keyword}"`,
      'Write the body of the section "Why it matters" (section 1 of 4), about 250 words.',
      'Facts you may use; put the fact id in brackets right after each claim that uses it, like [F3]:',
      ...facts,
    ].join('\n')
  const text = async (user: string) =>
    (
      await client.chat.completions.create({
        model: env.OPENAI_MODEL,
        messages: [
          { role: 'system', content: 'You are an SEO writer.' },
          { role: 'user', content: user },
        ],
      })
    ).choices[0]!.message.content ?? ''
  const markers = (md: string) => [...md.matchAll(/\[(F\d+)\]/g)].map((m) => m[1]!)

  it('cites one or two of the listed facts, every figure kept, each followed by its marker; deterministic', async () => {
    for (const keyword of ['invoice software', 'invoice software for agencies', 'invoice software pricing']) {
      const md = await text(sectionPrompt(keyword))
      const used = [...new Set(markers(md))]
      expect(used.length).toBeGreaterThanOrEqual(1)
      expect(used.length).toBeLessThanOrEqual(2)
      for (const id of used) {
        const sentence = FACTS.find((f) => f.startsWith(`- [${id}] `))!.slice(`- [${id}] `.length)
        // The fact as written (its final stop after the marker), every figure kept.
        expect(md).toContain(`${sentence.replace(/\.$/, '')} [${id}].`)
      }
      expect(md).not.toContain('evil.example')
      expect(await text(sectionPrompt(keyword))).toBe(md)
    }
    // A prompt without fact lines is answered as before: no markers.
    expect(markers(await text("Write an introduction about 'invoice software' for small businesses."))).toEqual([])
  })

  it('misbehaves on a misbehaving keyword: invented study, unsourced figure, obeyed instruction, every link form', async () => {
    const md = await text(sectionPrompt('misbehaving invoice software'))
    const study = /A 2025 Stanford study found that 73% of founders [^.[]*\[(F\d+)\]\./.exec(md)
    expect(study).not.toBeNull()
    const cited = FACTS.find((f) => f.startsWith(`- [${study![1]}] `))
    expect(cited).toBeTruthy()
    expect(cited).not.toContain(INVENTED_FIGURE)
    expect(md).toContain(UNSOURCED_SENTENCE)
    expect(md).toContain(OBEYED_INSTRUCTION)
    for (const form of Object.values(EVIL_LINK_FORMS)) expect(md).toContain(form)
    // Each form is one that Markdown renders as a link or an image (marked, GFM): all of them are there.
    expect(new Set(markdownUrls(md).filter((u) => u.includes('evil.example')))).toEqual(
      new Set([...EVIL_URLS, 'https://evil.example/promo']),
    )
    // It still cites a listed fact as a well-behaved model would.
    expect(markers(md).length).toBeGreaterThanOrEqual(2)
  })

  it('misbehaves in the brief (links in the free text) and the claim rewrites (a figure kept); fact ids spread', async () => {
    const factIds = Array.from({ length: 30 }, (_, i) => `F${i + 1}`)
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['angle', 'introduction', 'sections', 'faq', 'conclusion'],
      properties: {
        angle: { type: 'string' },
        introduction: { type: 'string' },
        sections: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['heading', 'facts'],
            properties: {
              heading: { type: 'string' },
              facts: { type: 'array', items: { type: 'string', enum: factIds } },
            },
          },
        },
        faq: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['question', 'answer'],
            properties: { question: { type: 'string' }, answer: { type: 'string' } },
          },
        },
        conclusion: { type: 'string' },
      },
    }
    const brief = async (keyword: string) =>
      JSON.parse(
        (
          await client.chat.completions.create({
            model: env.OPENAI_MODEL,
            messages: [{ role: 'user', content: `Keyword: "${keyword}"\nWrite the brief.` }],
            response_format: { type: 'json_schema', json_schema: { name: 'blog_post_brief', strict: true, schema } },
          })
        ).choices[0]!.message.content!,
      ) as {
        angle: string
        introduction: string
        conclusion: string
        sections: Array<{ facts: string[] }>
        faq: Array<{ answer: string }>
      }
    const good = await brief('invoice software')
    expect(JSON.stringify(good)).not.toContain('evil.example')
    const cited = good.sections.flatMap((s) => s.facts)
    for (const s of good.sections) expect(new Set(s.facts).size).toBe(s.facts.length)
    expect(cited.every((id) => factIds.includes(id))).toBe(true)
    // Not always the first ids: the sections cite facts from across the list.
    expect(new Set(cited).size).toBeGreaterThan(5)

    const bad = await brief('misbehaving invoice software')
    const urls = (md: string) => markdownUrls(md).filter((u) => u.includes('evil.example'))
    expect(urls(bad.angle)).toEqual(['https://evil.example/study', 'https://evil.example/x'])
    expect(urls(bad.introduction)).toEqual(['http://www.evil.example/w', 'https://evil.example/auto'])
    expect(urls(bad.conclusion)).toEqual(['https://evil.example/t', 'https://evil.example/raw'])
    expect(bad.faq.length).toBeGreaterThan(0)
    for (const f of bad.faq) expect(urls(f.answer)).toEqual(['https://evil.example/study', 'https://evil.example/x'])

    const rewrites = async (keyword: string) => {
      const ids = ['C1', 'C2', 'C3', 'C4']
      const answer = await client.chat.completions.create({
        model: env.OPENAI_MODEL,
        messages: [{ role: 'user', content: `Keyword: "${keyword}"\nRewrite these claims without their figures.` }],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'claim_rewrites',
            strict: true,
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['rewrites'],
              properties: {
                rewrites: {
                  type: 'array',
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['id', 'text'],
                    properties: { id: { type: 'string', enum: ids }, text: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      })
      return (JSON.parse(answer.choices[0]!.message.content!) as { rewrites: Array<{ id: string; text: string }> })
        .rewrites
    }
    const plain = await rewrites('invoice software')
    expect(plain.map((r) => r.id)).toEqual(['C1', 'C2', 'C3', 'C4'])
    expect(plain.every((r) => !/\d/.test(r.text))).toBe(true)
    const figured = await rewrites('misbehaving invoice software')
    expect(figured.map((r) => r.id)).toEqual(['C1', 'C2', 'C3', 'C4'])
    expect(figured.filter((r) => r.text.includes(FIGURE_IN_REWRITE))).toHaveLength(1)

    // Ids as plain strings: the ids of the prompt's `C1: …` lines, one rewrite each.
    const listed = await client.chat.completions.create({
      model: env.OPENAI_MODEL,
      messages: [
        {
          role: 'user',
          content:
            'Keyword: "invoice software"\nThese sentences state a figure:\nC1: 73% of founders agree.\nC2: Teams lose 4.2 million hours.\n\nRewrite each one.',
        },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'claim_rewrites',
          strict: true,
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['rewrites'],
            properties: {
              rewrites: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['id', 'text'],
                  properties: { id: { type: 'string' }, text: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    })
    const byLine = JSON.parse(listed.choices[0]!.message.content!) as { rewrites: Array<{ id: string; text: string }> }
    expect(byLine.rewrites.map((r) => r.id)).toEqual(['C1', 'C2'])
    expect(byLine.rewrites.every((r) => r.text.length > 0 && !/\d/.test(r.text))).toBe(true)
  })

  it('serves the misbehaving research pages: a 500, a hang past research’s 2.5 s, robots.txt, a hostile page', async () => {
    const web = env.FAKE_WEB_URL!
    const slug = 'misbehaving-invoice-software-zc1'
    const broken = await fetch(`${web}/site/4/${slug}`)
    expect(broken.status).toBe(500)
    expect(broken.headers.get('content-type')).toContain('text/html')
    expect(await broken.text()).toContain('Internal Server Error')

    const started = Date.now()
    await expect(fetch(`${web}/site/6/${slug}`, { signal: AbortSignal.timeout(2_500) })).rejects.toThrow()
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_400)
    const slow = Date.now()
    const late = await fetch(`${web}/site/6/${slug}`)
    expect(Date.now() - slow).toBeGreaterThanOrEqual(MISBEHAVING_HANG_MS - 50)
    expect(late.status).toBe(200)

    expect(await (await fetch(`${web}/robots.txt`)).text()).toContain('Disallow: /site/9/')

    const hostile = await fetch(`${web}/site/2/${slug}`)
    expect(hostile.status).toBe(200)
    const html = await hostile.text()
    expect(html).toContain('<article>')
    expect(html).toContain(INJECTED_INSTRUCTIONS)
    expect(html).toContain('href="https://evil.example/win"')
    expect(html).toMatch(/<p>\d+% of marketers|publish \d+ posts|survey of \d+ companies|takes \d+ weeks/)

    // The other pages of the set, and every page of an ordinary keyword, are as usual.
    const normal = await fetch(`${web}/site/3/${slug}`)
    expect(normal.status).toBe(200)
    expect(await normal.text()).not.toContain('evil.example')
    for (const n of [2, 4, 6]) {
      const page = await fetch(`${web}/site/${n}/invoice-software-zc1`)
      expect(page.status).toBe(200)
      expect(await page.text()).not.toContain('evil.example')
    }
  })
})
