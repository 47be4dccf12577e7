import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { createApiKey, revokeApiKey } from '#app/features/accounts/api-keys.server'
import { api, appUrl, createTestUser } from '#tests/setup/app'

/**
 * Issue 38: the MCP server at /mcp, reached by the SDK's own client over Streamable HTTP with a personal API key. It
 * lists its tools (none publishes or approves), searches, creates a post and reads it back (tool and Markdown
 * resource), refuses a read-only key's create_post, refuses hostile input with tool errors (never a stack trace), and
 * answers 401 with WWW-Authenticate without a key or with a revoked one.
 */

const clients: Client[] = []
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {})
})

async function connect(key: string) {
  const client = new Client({ name: 'rankwell-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', appUrl()), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  })
  await client.connect(transport)
  clients.push(client)
  return client
}

type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: unknown }
const textOf = (r: ToolAnswer) => r.content.map((c) => c.text ?? '').join('\n')

async function newKey(userId: string, scopes: Array<'read' | 'write' | 'publish'>) {
  const created = await createApiKey(userId, { name: `mcp ${scopes.join(' ')}`, scopes })
  if (!created.ok) throw new Error('could not create a key')
  return created
}

describe('MCP server (issue 38)', () => {
  it('an agent with a key searches, writes a post and reads it back; it cannot publish; scopes and input are enforced', async () => {
    const user = await createTestUser()
    const writer = await newKey(user.id, ['read', 'write'])
    const reader = await newKey(user.id, ['read'])

    // Without a key (or with a session token instead of a key): 401 with WWW-Authenticate, nothing runs.
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
    for (const auth of [undefined, `Bearer ${user.token}`]) {
      const res = await fetch(`${appUrl()}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(auth ? { Authorization: auth } : {}),
        },
        body: JSON.stringify(init),
      })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
      expect(await res.json()).toEqual({ message: expect.stringContaining('API key') })
    }

    const agent = await connect(writer.key)
    expect(agent.getInstructions()).toMatch(/cannot publish/i)
    const { tools } = await agent.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'create_post',
        'get_ai_visibility',
        'get_post',
        'get_rankings',
        'list_posts',
        'list_saved_keywords',
        'search_keywords',
      ].sort(),
    )
    expect(tools.some((t) => /publish|approve/i.test(t.name))).toBe(false)
    const createTool = tools.find((t) => t.name === 'create_post')!
    expect(createTool.description).toMatch(/does NOT publish/)
    expect(createTool.inputSchema).toMatchObject({
      type: 'object',
      required: ['keywordId'],
      additionalProperties: false,
    })

    // Search (the keyword provider's fake), then write a post for the first keyword.
    const search = (await agent.callTool({
      name: 'search_keywords',
      arguments: { query: 'email marketing', countryCode: '2840', languageCode: '1000' },
    })) as ToolAnswer
    expect(search.isError, textOf(search)).toBeFalsy()
    const keywords = (search.structuredContent as { data: Array<{ _id: string; keyword: string }> }).data
    expect(keywords.length).toBeGreaterThan(0)
    const saved = (await agent.callTool({ name: 'list_saved_keywords', arguments: { limit: 5 } })) as ToolAnswer
    expect((saved.structuredContent as { total: number }).total).toBeGreaterThan(0)

    const requestKey = `mcp-test-${Date.now()}`
    const created = (await agent.callTool({
      name: 'create_post',
      arguments: { keywordId: keywords[0]!._id, requestKey },
    })) as ToolAnswer
    expect(created.isError, textOf(created)).toBeFalsy()
    const post = created.structuredContent as { id: string; created: boolean; status: string }
    expect(post).toMatchObject({ created: true, status: 'queued' })
    // The same requestKey again: the same post, not a second one (as the route's Idempotency-Key).
    const again = (await agent.callTool({
      name: 'create_post',
      arguments: { keywordId: keywords[0]!._id, requestKey },
    })) as ToolAnswer
    expect(again.structuredContent).toMatchObject({ id: post.id, created: false })

    const read = (await agent.callTool({ name: 'get_post', arguments: { id: post.id } })) as ToolAnswer
    expect(read.isError, textOf(read)).toBeFalsy()
    expect(read.structuredContent).toMatchObject({
      id: post.id,
      keyword: keywords[0]!.keyword,
      markdown_resource: `rankwell://posts/${post.id}.md`,
    })
    expect(read.structuredContent).toHaveProperty('seo_checklist')
    expect(read.structuredContent).toHaveProperty('claims')
    const listed = (await agent.callTool({ name: 'list_posts', arguments: {} })) as ToolAnswer
    expect((listed.structuredContent as { data: Array<{ id: string }> }).data.map((p) => p.id)).toContain(post.id)
    const resource = await agent.readResource({ uri: `rankwell://posts/${post.id}.md` })
    expect(resource.contents[0]).toMatchObject({ uri: `rankwell://posts/${post.id}.md`, mimeType: 'text/markdown' })
    const rankings = (await agent.callTool({ name: 'get_rankings', arguments: {} })) as ToolAnswer
    expect(rankings.structuredContent).toMatchObject({ data: [], usage: expect.any(Object) })
    // AI visibility: the same figures as GET /api/ai-visibility (nothing checked yet for a new account: no rates).
    const visibility = (await agent.callTool({
      name: 'get_ai_visibility',
      arguments: { weeks: '4', kind: 'prompt' },
    })) as ToolAnswer
    expect(visibility.isError, textOf(visibility)).toBeFalsy()
    expect(visibility.structuredContent).toMatchObject({ keywords: [], prompts: [], checksRun: false })
    expect((visibility.structuredContent as { weeks: string[] }).weeks).toHaveLength(4)

    // A read-only key reads, but may not write a post.
    const readOnly = await connect(reader.key)
    const refused = (await readOnly.callTool({
      name: 'create_post',
      arguments: { keywordId: keywords[0]!._id },
    })) as ToolAnswer
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(/'write' scope/)
    const allowed = (await readOnly.callTool({ name: 'get_post', arguments: { id: post.id } })) as ToolAnswer
    expect(allowed.isError).toBeFalsy()

    // Hostile input: wrong types, huge strings, unknown fields, markup, a tool that does not exist. Each one a tool
    // error with a message for a person; no stack trace, no post written.
    const hostile: Array<[string, Record<string, unknown>]> = [
      ['create_post', { keywordId: 42 }],
      ['create_post', { keywordId: keywords[0]!._id, publish: true }],
      ['create_post', { keywordId: keywords[0]!._id, force: 'yes' }],
      ['search_keywords', { query: 'x'.repeat(100_000), countryCode: '2840', languageCode: '1000' }],
      ['search_keywords', { query: '<script>alert(1)</script>', countryCode: '2840', languageCode: '1000' }],
      ['search_keywords', { query: 'seo', countryCode: '9999999', languageCode: '1000' }],
      ['get_post', { id: '<img src=x onerror=alert(1)>' }],
      ['list_posts', { limit: 'all', status: 'published; drop table posts' }],
      ['get_rankings', { market: { $ne: null } }],
      ['get_ai_visibility', { weeks: '99' }],
      ['get_ai_visibility', { kind: 'everything' }],
      ['publish_post', { id: post.id }],
      ['approve_post', { id: post.id }],
    ]
    for (const [name, args] of hostile) {
      const answer = (await agent.callTool({ name, arguments: args })) as ToolAnswer
      expect(answer.isError, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(true)
      const message = textOf(answer)
      expect(message.length).toBeGreaterThan(0)
      expect(message.length).toBeLessThan(2000)
      expect(message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/)
    }
    const after = (await agent.callTool({ name: 'list_posts', arguments: {} })) as ToolAnswer
    expect((after.structuredContent as { total: number }).total).toBe(1)

    // GET and DELETE have nothing to do on a stateless server: 405 (with a key).
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${appUrl()}/mcp`, { method, headers: { Authorization: `Bearer ${writer.key}` } })
      expect(res.status).toBe(405)
    }

    // A revoked key stops at once: 401, for the MCP server and the API alike.
    await revokeApiKey(user.id, writer.id)
    await expect(agent.listTools()).rejects.toMatchObject({ code: 401 })
    const apiAnswer = await api('/api/blogposts', { as: { token: writer.key } })
    expect(apiAnswer.status).toBe(401)
  })
})
