import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { requireApiSession, type ApiSession } from '#app/features/accounts/api-auth.server'
import { API_KEY_PREFIX, type ApiScope } from '#app/features/accounts/api-keys'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { overlapMessage } from '#app/features/content/cannibalisation.server'
import { postListSchema } from '#app/features/content/library'
import { pagePostsJson } from '#app/features/content/library.server'
import { createPostSchema, POST_MESSAGES } from '#app/features/content/posts'
import { createPost, getPost } from '#app/features/content/posts.server'
import { keywordListSchema } from '#app/features/keywords/keyword-library'
import { pageKeywords } from '#app/features/keywords/keyword-library.server'
import { keywordSearchSchema, SEARCH_ERROR_MESSAGE, SEARCH_UNAVAILABLE_MESSAGE } from '#app/features/keywords/keywords'
import { searchKeywordsWithQuota, toApiKeyword } from '#app/features/keywords/keywords.server'
import { listRankings, toApiRanking, trackingUsage } from '#app/features/rankings/rankings.server'
import { aiVisibilityOverview, toApiSubject } from '#app/features/visibility/read.server'
import { aiVisibilityQuerySchema } from '#app/features/visibility/visibility'
import { apiErrors } from '#app/platform/forms/submission'
import { BadCursorError } from '#app/platform/lists/keyset.server'
import { API_VERSION } from './openapi.server'
import {
  MCP_INSTRUCTIONS,
  MCP_SERVER_NAME,
  MCP_TOOLS,
  POST_RESOURCE_TEMPLATE,
  postResourceUri,
  type McpToolInfo,
} from './mcp-tools'

/**
 * The MCP server (issue 38, decision 0381): the Model Context Protocol's Streamable HTTP transport at /mcp, stateless
 * (a server and a transport per request, JSON answers, no session kept in memory: the web runs as several
 * processes). Authenticated by a personal API key as Bearer (no cookie, no session token); the key's scopes decide
 * which tools may run. Every tool validates its input with the zod schema of the route that does the same (made strict,
 * so unknown fields are refused) and calls the same feature function as that route. Errors are tool results with
 * `isError` and a message for a person, never a stack trace. No tool publishes or approves.
 */

const MCP_LIMIT = 20
const MAX_BODY_BYTES = 256 * 1024
const SOMETHING_WENT_WRONG = 'Something went wrong on our side. Try again in a minute.'

/** Thrown inside a tool: its message is what the caller reads. */
class ToolRefusal extends Error {}

const text = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
})
const refusal = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true })

/** The object schema inside a route's schema (under its transforms), strict: the tool's declared input. */
function strictObject(schema: z.ZodTypeAny): z.AnyZodObject {
  let inner: z.ZodTypeAny = schema
  while (inner instanceof z.ZodEffects) inner = inner.innerType()
  if (!(inner instanceof z.ZodObject)) throw new Error('An MCP tool needs an object schema.')
  return inner.strict()
}

/** Validates with the route's own schema (its refinements and transforms); a refusal names the fields. */
function validate<S extends z.ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const { message, errors } = apiErrors(parsed.error)
  const details = Object.entries(errors ?? {})
    .map(([field, e]) => `${field}: ${Array.isArray(e) ? e.join(' ') : String(e)}`)
    .join('; ')
  throw new ToolRefusal(details ? `${message} (${details})` : message)
}

/** A thrown API answer (apiError) → its message; anything else is logged and answered without details. */
async function toolError(error: unknown): Promise<CallToolResult> {
  if (error instanceof ToolRefusal) return refusal(error.message)
  if (error instanceof Response) {
    const body = (await error.json().catch(() => null)) as { message?: unknown } | null
    return refusal(typeof body?.message === 'string' ? body.message : SOMETHING_WENT_WRONG)
  }
  console.error('[mcp] tool failed', error)
  return refusal(SOMETHING_WENT_WRONG)
}

const postIdInput = z.object({ id: z.string({ required_error: 'id is required.' }).uuid('id must be a post id.') })
const rankingsInput = z.object({
  market: z
    .string()
    .regex(/^\d{1,10}$/, 'market must be a Google Ads geo id such as 2840.')
    .optional(),
})

function postJson(post: NonNullable<Awaited<ReturnType<typeof getPost>>>) {
  return {
    id: post.id,
    title: post.title || post.keyword,
    keyword: post.keyword,
    status: post.status,
    created_at: post.createdAt.toISOString(),
    seo_score: post.seoScore,
    seo_checklist: post.seoChecklist,
    claims: post.claims,
    research_status: post.researchStatus,
    ...(post.status === 'failed' ? { failure_reason: post.failureReason } : {}),
    markdown_resource: postResourceUri(post.id),
    content: post.contentMarkdown,
  }
}

function buildServer(session: ApiSession) {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: API_VERSION },
    { instructions: MCP_INSTRUCTIONS, capabilities: { tools: {}, resources: {} } },
  )
  const { userId } = session
  const info = (name: string) => MCP_TOOLS.find((t) => t.name === name)!

  /** Registers a tool whose input is the route's schema; runs it when the key has the scope. */
  function tool<S extends z.ZodTypeAny>(
    name: string,
    schema: S,
    run: (input: z.infer<S>) => Promise<CallToolResult>,
    annotations: { readOnlyHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean } = {},
  ) {
    const meta: McpToolInfo = info(name)
    server.registerTool(
      name,
      {
        title: meta.title,
        description: meta.description,
        inputSchema: strictObject(schema),
        annotations: { title: meta.title, destructiveHint: false, ...annotations },
      },
      async (args: unknown) => {
        if (!session.scopes.includes(meta.scope as ApiScope))
          return refusal(`This API key cannot ${meta.title.toLowerCase()}: it needs the '${meta.scope}' scope.`)
        try {
          return await run(validate(schema, args))
        } catch (error) {
          return toolError(error)
        }
      },
    )
  }

  tool(
    'search_keywords',
    keywordSearchSchema,
    async (input) => {
      const result = await searchKeywordsWithQuota(userId, input)
      if (result.ok)
        return text({ data: result.keywords.map(toApiKeyword), ...(result.note ? { note: result.note } : {}) })
      if (result.reason === 'quota') return refusal((await quotaRefusal(userId, 'keywordSearches')).message)
      return refusal(result.reason === 'unavailable' ? SEARCH_UNAVAILABLE_MESSAGE : SEARCH_ERROR_MESSAGE)
    },
    { openWorldHint: true },
  )

  tool(
    'list_saved_keywords',
    keywordListSchema,
    async (input) => {
      try {
        const page = await pageKeywords(userId, input, { limit: Math.min(input.limit ?? MCP_LIMIT, 100) })
        return text({ data: page.rows.map(toApiKeyword), total: page.total, nextCursor: page.nextCursor })
      } catch (error) {
        if (error instanceof BadCursorError) throw new ToolRefusal(`cursor: ${error.message}`)
        throw error
      }
    },
    { readOnlyHint: true },
  )

  tool('create_post', createPostSchema, async (input) => {
    const result = await createPost({
      userId,
      keywordId: input.keywordId,
      requestKey: `mcp:${input.requestKey ?? crypto.randomUUID()}`,
      source: 'manual',
      force: input.force,
    })
    if (result.ok)
      return text({
        id: result.postId,
        status: result.status,
        created: result.created,
        message: result.created ? POST_MESSAGES.created : POST_MESSAGES.alreadyWritten,
        next: 'Call get_post with this id until status is completed. A person publishes it in the Rankwell app.',
        ...(result.status === 'failed' ? { failure_reason: result.failureReason } : {}),
      })
    if (result.reason === 'overlap')
      return refusal(
        `${overlapMessage(result.overlap)} Existing: ${result.overlap.title} (${result.overlap.url ?? result.overlap.postId}). Send force: true to write a new post anyway.`,
      )
    if (result.reason === 'quota') return refusal((await quotaRefusal(userId, 'blogPosts')).message)
    if (result.reason === 'not_found') return refusal(POST_MESSAGES.keywordNotFound)
    if (result.reason === 'in_progress') return refusal(POST_MESSAGES.inProgress)
    return refusal(`${POST_MESSAGES.failed} Retry with the same requestKey.`)
  })

  tool(
    'get_post',
    postIdInput,
    async ({ id }) => {
      const post = await getPost(userId, id)
      return post ? text(postJson(post)) : refusal(POST_MESSAGES.notFound)
    },
    { readOnlyHint: true },
  )

  tool(
    'list_posts',
    postListSchema,
    async (input) => {
      try {
        const page = await pagePostsJson(userId, input, Math.min(input.limit ?? MCP_LIMIT, 100))
        const data = page.items.map((item) => {
          const p = JSON.parse(Buffer.from(item).toString('utf8')) as Record<string, unknown>
          return { id: p._id, title: p.title, status: p.status, createdAt: p.createdAt }
        })
        return text({ data, total: page.total, nextCursor: page.nextCursor })
      } catch (error) {
        if (error instanceof BadCursorError) throw new ToolRefusal(`cursor: ${error.message}`)
        throw error
      }
    },
    { readOnlyHint: true },
  )

  tool(
    'get_rankings',
    rankingsInput,
    async ({ market }) => {
      const [rankings, usage] = await Promise.all([listRankings(userId, { market }), trackingUsage(userId)])
      return text({ data: rankings.rows.map(toApiRanking), asOf: rankings.asOf, usage })
    },
    { readOnlyHint: true },
  )

  tool(
    'get_ai_visibility',
    aiVisibilityQuerySchema,
    async ({ weeks, kind }) => {
      const overview = await aiVisibilityOverview(userId, { weeks, page: 'all' })
      return text({
        weeks: overview.weeks,
        keywords: kind === 'prompt' ? [] : overview.keywords.map(toApiSubject),
        prompts: kind === 'keyword' ? [] : overview.prompts.map(toApiSubject),
        checksRun: overview.anyChecks,
        usage: overview.usage,
      })
    },
    { readOnlyHint: true },
  )

  server.registerResource(
    'post-markdown',
    new ResourceTemplate(POST_RESOURCE_TEMPLATE, {
      list: async () => {
        const page = await pagePostsJson(userId, {}, MCP_LIMIT)
        return {
          resources: page.items.map((item) => {
            const p = JSON.parse(Buffer.from(item).toString('utf8')) as { _id: string; title: string }
            return { uri: postResourceUri(p._id), name: p.title, mimeType: 'text/markdown' }
          }),
        }
      },
    }),
    { title: 'A post’s Markdown', description: 'The article as Markdown.', mimeType: 'text/markdown' },
    async (uri, variables) => {
      const id = String(variables.id ?? '')
      const post = await getPost(userId, id)
      if (!post) throw new Error(POST_MESSAGES.notFound)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: post.contentMarkdown ?? '' }] }
    },
  )
  return server
}

const WWW_AUTHENTICATE = 'Bearer realm="Rankwell MCP", error="invalid_token"'

function unauthorized(message: string) {
  return Response.json(
    { message },
    { status: 401, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE, 'Cache-Control': 'no-store' } },
  )
}

/**
 * One HTTP request to /mcp. POST carries JSON-RPC messages; GET (a server-to-client stream) and DELETE (ending a
 * session) have no meaning for a stateless server: 405, as the transport's specification allows.
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const header = request.headers.get('Authorization') ?? ''
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? ''
  if (!token.startsWith(API_KEY_PREFIX))
    return unauthorized('An API key is required: send Authorization: Bearer rwk_… (create one on /profile).')
  let session: ApiSession
  try {
    // Reading is the least any tool needs; each tool checks its own scope.
    session = await requireApiSession(request, { scope: 'read' })
  } catch (error) {
    if (error instanceof Response) {
      if (error.status === 401) error.headers.set('WWW-Authenticate', WWW_AUTHENTICATE)
      return error
    }
    throw error
  }
  if (request.method !== 'POST')
    return Response.json(
      {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST.' },
        id: null,
      },
      { status: 405, headers: { Allow: 'POST' } },
    )
  const server = buildServer(session)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  })
  try {
    await server.connect(transport)
    const response = await transport.handleRequest(request)
    response.headers.set('Cache-Control', 'no-store')
    return response
  } finally {
    await server.close().catch(() => undefined)
  }
}
