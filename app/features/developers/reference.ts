/**
 * The /developers page's view of the OpenAPI document (issue 38): the document as built by openapi.server.ts,
 * turned into plain rows for the page (operations by tag, their parameters, examples as formatted JSON, errors).
 * Pure: the page renders what the document says, nothing else.
 */

type Schema = {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  format?: string
  minimum?: number
  maximum?: number
  maxLength?: number
  anyOf?: Schema[]
}
type DocParameter = {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: Schema
  example?: unknown
}
type DocOperation = {
  operationId: string
  summary: string
  description: string
  tags: string[]
  security: Array<Record<string, unknown>>
  'x-scope'?: string
  'x-internal'?: boolean
  parameters?: DocParameter[]
  requestBody?: { content: Record<string, { example?: unknown }> }
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>
}
export type ReferenceDocument = {
  info: { title: string; version: string; description: string }
  servers?: Array<{ url: string }>
  paths: Record<string, Record<string, DocOperation>>
}

export type ReferenceParameter = { name: string; in: string; required: boolean; about: string }
export type ReferenceOperation = {
  id: string
  method: string
  path: string
  summary: string
  description: string
  auth: string
  scope: string | null
  internal: boolean
  parameters: ReferenceParameter[]
  request: string | null
  responses: Array<{ status: string; description: string; example: string | null }>
  errors: Array<{ status: string; description: string }>
}
export type ReferenceTag = { name: string; slug: string; operations: ReferenceOperation[] }

const json = (value: unknown) => JSON.stringify(value, null, 2)

export const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** A parameter's schema in a few words: its type, allowed values and bounds. */
export function describeSchema(schema: Schema | undefined): string {
  if (!schema) return 'string'
  if (schema.anyOf) return schema.anyOf.map(describeSchema).join(' or ')
  if (schema.enum) return `one of ${schema.enum.map(String).join(', ')}`
  if (schema.const !== undefined) return String(schema.const)
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any')
  const bounds = [
    schema.format,
    schema.minimum !== undefined && schema.maximum !== undefined ? `${schema.minimum}-${schema.maximum}` : null,
    schema.maxLength !== undefined ? `at most ${schema.maxLength} characters` : null,
  ].filter(Boolean)
  return bounds.length > 0 ? `${type} (${bounds.join(', ')})` : type
}

export function referenceView(doc: ReferenceDocument): ReferenceTag[] {
  const tags = new Map<string, ReferenceOperation[]>()
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? 'Other'
      const responses = Object.entries(op.responses)
      const example = (r: (typeof responses)[number][1]) => {
        const value = r.content?.['application/json']?.example
        return value === undefined ? null : json(value)
      }
      const operation: ReferenceOperation = {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        description: op.description,
        auth: op.security.length > 0 ? 'API key or token' : 'None (public)',
        scope: op['x-scope'] ?? null,
        internal: op['x-internal'] === true,
        parameters: (op.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required ?? false,
          about: [p.description, describeSchema(p.schema)].filter(Boolean).join(' · '),
        })),
        request:
          op.requestBody?.content['application/json']?.example === undefined
            ? null
            : json(op.requestBody.content['application/json'].example),
        responses: responses
          .filter(([status]) => /^[23]/.test(status))
          .map(([status, r]) => ({ status, description: r.description, example: example(r) })),
        errors: responses
          .filter(([status]) => /^[45]/.test(status))
          .map(([status, r]) => ({ status, description: r.description })),
      }
      tags.set(tag, [...(tags.get(tag) ?? []), operation])
    }
  return [...tags].map(([name, operations]) => ({ name, slug: slugify(name), operations }))
}

/** Inline Markdown of the document's descriptions (`code` and **bold** only), as parts for React to render as text. */
export type InlinePart = { kind: 'text' | 'code' | 'strong'; text: string }
export function inlineParts(text: string): InlinePart[] {
  const parts: InlinePart[] = []
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*/g
  let at = 0
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push({ kind: 'text', text: text.slice(at, match.index) })
    parts.push(match[1] !== undefined ? { kind: 'code', text: match[1] } : { kind: 'strong', text: match[2]! })
    at = match.index + match[0].length
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) })
  return parts
}
