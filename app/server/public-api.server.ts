import { json } from '@remix-run/node'
import type { ToolId } from '#app/lib/seo-tools'
import { outcomeHeaders, runFreeTool } from './free-tools.server'

/** Reads a JSON object body; null when the body is not JSON. */
export async function readJsonBody(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const text = await request.text()
    const body: unknown = text ? JSON.parse(text) : {}
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The action of a POST /api/public/generate-* route: JSON in, the tool's result or `{ message }` out. */
export async function publicToolAction(tool: ToolId, request: Request) {
  if (request.method !== 'POST')
    return json({ message: 'Method not allowed.' }, { status: 405, headers: { Allow: 'POST' } })
  try {
    const body = await readJsonBody(request)
    if (!body) return json({ message: 'The request body must be a JSON object.' }, { status: 400 })
    const outcome = await runFreeTool(tool, body, request)
    if (outcome.ok) return json(outcome.data, { headers: { 'Cache-Control': 'no-store' } })
    return json(
      { message: outcome.message, ...(outcome.errors ? { errors: outcome.errors } : {}) },
      { status: outcome.status, headers: outcomeHeaders(outcome) },
    )
  } catch (error) {
    console.error(`[free-tools] ${tool}: unexpected failure`, error)
    return json(
      { message: 'The service is temporarily unavailable. Please try again later.' },
      { status: 503, headers: { 'Retry-After': '60' } },
    )
  }
}

/** The loader of a POST-only /api route: GET answers 405 with `Allow: POST`. */
export function methodNotAllowed() {
  return json({ message: 'Method not allowed.' }, { status: 405, headers: { Allow: 'POST' } })
}
