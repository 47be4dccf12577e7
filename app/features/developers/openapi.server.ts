import type { z } from 'zod'
import { zodToJsonSchema } from 'zod-to-json-schema'
import { API_KEY_RATE_LIMIT } from '#app/features/accounts/api-auth.server'
import { API_OPERATIONS, ERROR_MEANINGS, type ApiOperation, type ErrorStatus } from './api-routes'

/**
 * The OpenAPI 3.1 document of the /api routes (issue 38), built from `API_OPERATIONS`: request schemas from the zod
 * schemas the routes validate with (zod-to-json-schema, JSON Schema 2019-09, which OpenAPI 3.1's schema objects
 * accept), response schemas from the examples (their fields and types; which fields are always present is not
 * claimed). Served by GET /api/openapi.json, rendered by /developers, and the source of clients/rankwell-api.ts.
 */

type JsonSchema = Record<string, unknown>

export const API_VERSION = '1.0.0'

export const API_INTRO = [
  'The JSON API of Rankwell: keyword research, posts written with their sources and SEO checklist, publishing and rankings.',
  'Authenticate with a personal API key (create one on /profile: name it and choose its scopes; it is shown once) sent as `Authorization: Bearer rwk_…`, or with the token `POST /api/login` answers.',
  'Scopes: `read` for GET requests, `write` for changes, `publish` to publish, unpublish, approve or reject (a person’s decision; give it to an agent’s key only on purpose). A key without the scope needed gets 403.',
  `Rate limits: ${API_KEY_RATE_LIMIT.limit} requests a minute per key (429 with \`Retry-After\` beyond), besides the plan’s quotas (402) and the limits some operations state.`,
  'Errors are JSON `{message, errors?}`: `message` for a person, `errors` by field name for a 400.',
  'Agents can use the MCP server at /mcp with the same key (see /developers).',
].join('\n\n')

/** zod → JSON Schema as the request's input (what the client sends: before transforms and defaults). */
export function jsonSchemaOf(schema: z.ZodTypeAny): JsonSchema {
  const out = zodToJsonSchema(schema, {
    target: 'jsonSchema2019-09',
    $refStrategy: 'none',
    pipeStrategy: 'input',
    effectStrategy: 'input',
  }) as JsonSchema
  delete out.$schema
  return out
}

/** A schema of an example answer: its fields and their types (nothing is claimed required). */
export function schemaOfExample(value: unknown): JsonSchema {
  if (value === null || value === undefined) return {}
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaOfExample(value[0]) : {} }
  if (typeof value === 'object') {
    const properties: Record<string, JsonSchema> = {}
    for (const [key, v] of Object.entries(value)) properties[key] = schemaOfExample(v)
    return { type: 'object', properties }
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' }
  return { type: typeof value }
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Every error: a message for a person; for a 400, `errors` by field name.',
  properties: {
    message: { type: 'string' },
    errors: {
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    },
    redirect_to_profile: { type: 'boolean', description: 'On a 402: the plan’s limit is reached.' },
  },
  required: ['message'],
}

function parameters(op: ApiOperation) {
  const list: JsonSchema[] = []
  for (const [name, p] of Object.entries(op.pathParams ?? {}))
    list.push({
      name,
      in: 'path',
      required: true,
      description: p.description,
      schema: { type: 'string' },
      example: p.example,
    })
  if (op.query) {
    const schema = jsonSchemaOf(op.query.schema)
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>
    const required = new Set((schema.required ?? []) as string[])
    for (const [name, s] of Object.entries(props))
      list.push({
        name,
        in: 'query',
        required: required.has(name),
        schema: s,
        ...(op.query.example[name] !== undefined ? { example: op.query.example[name] } : {}),
      })
  }
  for (const [name, p] of Object.entries(op.queryParams ?? {}))
    list.push({
      name,
      in: 'query',
      required: p.required ?? false,
      description: p.description,
      schema: { type: 'string' },
      example: p.example,
      ...(p.example === '' ? { allowEmptyValue: true } : {}),
    })
  if (op.idempotent)
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Any unique string (up to 200 characters): a retry with the same key never does the work twice.',
      schema: { type: 'string', maxLength: 200 },
      example: 'c3a1e2d4-retry-safe',
    })
  return list
}

function describe(op: ApiOperation) {
  const notes = [op.description]
  if (op.auth === 'user' && op.scope) notes.push(`**Scope:** \`${op.scope}\`.`)
  if (op.rateLimit) notes.push(`**Rate limit:** ${op.rateLimit}`)
  if (op.idempotent) notes.push('**Idempotent:** send an `Idempotency-Key` header to retry safely.')
  if (op.paginated)
    notes.push(
      '**Pagination:** `limit` (1-500) and `cursor` (the previous page’s `nextCursor`; null on the last page).',
    )
  if (op.mcpTool) notes.push(`**MCP tool:** \`${op.mcpTool}\`.`)
  return notes.join('\n\n')
}

function operation(op: ApiOperation): JsonSchema {
  const responses: Record<string, JsonSchema> = {}
  for (const r of op.responses) {
    const contentType = r.contentType ?? 'application/json'
    responses[String(r.status)] =
      r.example === null || (r.example === undefined && contentType === 'application/json')
        ? { description: r.description }
        : {
            description: r.description,
            content: {
              [contentType]:
                contentType === 'application/json'
                  ? { schema: schemaOfExample(r.example), example: r.example }
                  : { schema: { type: 'string', format: 'binary' } },
            },
          }
  }
  for (const [status, text] of Object.entries(op.errors) as Array<[string, string]>)
    responses[status] = {
      description: text || ERROR_MEANINGS[Number(status) as ErrorStatus],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    }
  const params = parameters(op)
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: describe(op),
    tags: [op.tag],
    security: op.auth === 'user' ? [{ apiKey: [] }, { sessionCookie: [] }] : [],
    ...(op.auth === 'user' && op.scope ? { 'x-scope': op.scope } : {}),
    ...(op.internal ? { 'x-internal': true } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.method !== 'delete',
            content: { 'application/json': { schema: jsonSchemaOf(op.body.schema), example: op.body.example } },
          },
        }
      : {}),
    responses,
  }
}

/** The whole document; `serverUrl` (the site's APP_URL) fills `servers`, left out for the generated client. */
export function buildOpenApiDocument(serverUrl?: string) {
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const op of API_OPERATIONS) (paths[op.path] ??= {})[op.method] = operation(op)
  const tags = [...new Set(API_OPERATIONS.map((op) => op.tag))].map((name) => ({ name }))
  return {
    openapi: '3.1.0',
    info: { title: 'Rankwell API', version: API_VERSION, description: API_INTRO },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    tags,
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal API key (`rwk_…`, created on /profile with its scopes) or the token POST /api/login answers.',
        },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: '__session', description: 'The browser’s session.' },
      },
    },
  }
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>

let cached: { serverUrl: string; json: string } | null = null

/** The document as JSON text, built once per process. */
export function openApiJson(serverUrl: string) {
  if (cached?.serverUrl !== serverUrl) cached = { serverUrl, json: JSON.stringify(buildOpenApiDocument(serverUrl)) }
  return cached.json
}
