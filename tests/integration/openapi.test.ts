import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRankwellClient } from '../../clients/rankwell-client'
import { API_OPERATIONS } from '#app/features/developers/api-routes'
import { parseParams } from '#app/platform/lists/list-params'
import { api, appUrl, createTestUser, uniqueIp } from '#tests/setup/app'

/**
 * Issue 38: the OpenAPI document at /api/openapi.json against the running app. It lists exactly the /api routes that
 * exist (every app/routes/api.* file, with the methods its loader and action answer), it is a well-formed OpenAPI 3.1
 * document, and every example request it shows validates with the route's zod schema and is accepted by the app for
 * a signed-in user, sent through the typed client (clients/rankwell-client.ts, on the generated clients/rankwell-api.ts).
 */

type Doc = {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> }
}
type Parameter = { name: string; in: string; required?: boolean; example?: unknown }
type Operation = {
  operationId: string
  security: Array<Record<string, unknown>>
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> }
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>
  'x-scope'?: string
}

const METHODS = ['get', 'post', 'put', 'delete'] as const
const ROUTES = path.resolve(import.meta.dirname, '../../app/routes')

/** `api.blogpost.$id.links.ts` → `/api/blogpost/{id}/links` (Remix flat routes: `_` suffix, `[.]` a literal dot). */
function urlPathOf(file: string) {
  return (
    '/' +
    file
      .replace(/\.tsx?$/, '')
      .replace(/\[\.\]/g, '~')
      .split('.')
      .map((s) =>
        s
          .replace(/_$/, '')
          .replace(/^\$(.+)$/, '{$1}')
          .replace(/~/g, '.'),
      )
      .join('/')
  )
}

/** The /api route files (the catch-all `api.$.ts` is the JSON 404, not an endpoint) and whether they have a loader. */
function routeFiles() {
  return fs
    .readdirSync(ROUTES)
    .filter((f) => /^api\..+\.tsx?$/.test(f) && f !== 'api.$.ts')
    .map((file) => {
      const source = fs.readFileSync(path.join(ROUTES, file), 'utf8')
      return {
        file,
        path: urlPathOf(file),
        loader: /export (const|async function|function) loader\b/.test(source),
      }
    })
}

/** The few examples the app refuses for a reason other than their shape (the account has no such thing). */
const BUSINESS_REFUSALS: Record<string, RegExp> = {
  resetPassword: /link/i, // the example token is not a real link's
  createCheckoutSession: /price/i, // the example price is not one of this server's plans
  customerPortal: /plan/i, // a new account has no Stripe customer yet
  cancelSubscription: /cancel/i, // nor a subscription to cancel
  createDestination: /./, // the example site (blog.example.com) does not answer the connection test
  stripeWebhook: /signature/i, // not signed by Stripe
}

describe('OpenAPI document (issue 38)', () => {
  it('lists every /api route and method, is valid 3.1, and the app accepts each example request', async () => {
    const served = await fetch(`${appUrl()}/api/openapi.json`)
    expect(served.status).toBe(200)
    expect(served.headers.get('cache-control')).toMatch(/public/)
    const doc = (await served.json()) as Doc

    // A well-formed OpenAPI 3.1 document.
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).toBe('Rankwell API')
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/)
    const ids = new Set<string>()
    const json = JSON.stringify(doc)
    for (const ref of json.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g))
      expect(doc.components.schemas[ref[1]!], `$ref ${ref[1]}`).toBeDefined()
    for (const [p, item] of Object.entries(doc.paths)) {
      expect(p).toMatch(/^\/api\//)
      for (const [method, op] of Object.entries(item)) {
        expect(METHODS).toContain(method)
        expect(ids.has(op.operationId), `operationId ${op.operationId} is unique`).toBe(false)
        ids.add(op.operationId)
        const declared = (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name)
        expect(declared.sort(), `${method} ${p} declares its path parameters`).toEqual(
          [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
        )
        for (const x of op.parameters ?? []) expect(['path', 'query', 'header', 'cookie']).toContain(x.in)
        for (const s of op.security)
          for (const name of Object.keys(s)) expect(doc.components.securitySchemes[name]).toBeDefined()
        expect(
          Object.keys(op.responses).some((s) => /^[23]\d\d$/.test(s)),
          `${op.operationId} has a success answer`,
        ).toBe(true)
        for (const r of Object.values(op.responses)) expect(r.description.length).toBeGreaterThan(0)
        if (op.security.length > 0) expect(['read', 'write', 'publish']).toContain(op['x-scope'])
      }
    }

    // Exactly the routes that exist: every file's path is documented and every documented path has a file.
    const files = routeFiles()
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(files.map((f) => f.path))].sort())
    const user = await createTestUser()
    for (const f of files) {
      const documented = Object.keys(doc.paths[f.path] ?? {})
      if (f.loader && !documented.includes('get')) {
        const res = await api(f.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000'), { as: user })
        expect(res.status, `GET ${f.path} is documented or refused`).toBe(405)
      }
      // A method the document does not list is refused by the route (405), so nothing answers undocumented.
      for (const method of METHODS.filter((m) => m !== 'get' && !documented.includes(m))) {
        const res = await api(f.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000'), {
          method: method.toUpperCase(),
          as: user,
          headers: { 'X-Forwarded-For': uniqueIp() },
        })
        expect(res.status, `${method.toUpperCase()} ${f.path} is not documented, so it is refused`).toBe(405)
      }
    }

    // Every example request: valid for the route's own schema, then accepted by the app (never a 400 for its shape,
    // never a 405 or a 500). The account's session ends last (sign out, delete), with accounts of their own.
    const client = createRankwellClient({ baseUrl: appUrl(), token: user.token })
    const last = new Set(['signOut', 'deleteAccount'])
    const ops = Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ p, m, op })))
    const ordered = [
      ...ops.filter((o) => !last.has(o.op.operationId)),
      ...ops.filter((o) => last.has(o.op.operationId)),
    ]
    const answers: string[] = []
    for (const { p, m, op } of ordered) {
      const source = API_OPERATIONS.find((o) => o.operationId === op.operationId)!
      const body = op.requestBody?.content['application/json']?.example
      if (source.body) expect(source.body.schema.safeParse(body).success, `${op.operationId}'s example body`).toBe(true)
      const params = Object.fromEntries(
        (op.parameters ?? [])
          .filter((x) => x.in === 'query' && x.example !== undefined)
          .map((x) => [x.name, String(x.example)]),
      )
      if (source.query)
        expect(parseParams(source.query.schema, new URLSearchParams(params)).ok, `${op.operationId}'s query`).toBe(true)
      const pathParams = Object.fromEntries(
        (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => [x.name, String(x.example)]),
      )
      const who = last.has(op.operationId) ? await createTestUser() : null
      const send = who ? createRankwellClient({ baseUrl: appUrl(), token: who.token }) : client
      const headers = { 'X-Forwarded-For': uniqueIp() }
      // Any path and method of the document: the client's types are per path, so this loop calls it untyped.
      const res = (await send.request(
        m as never,
        p as never,
        {
          path: pathParams,
          query: params,
          body,
          headers,
        } as never,
      )) as unknown as { status: number; data: unknown }
      answers.push(`${m.toUpperCase()} ${p} → ${res.status}`)
      const data = res.data as { message?: string } | undefined
      if (BUSINESS_REFUSALS[op.operationId]) {
        if (res.status === 400) expect(data?.message, op.operationId).toMatch(BUSINESS_REFUSALS[op.operationId]!)
      } else {
        expect(res.status, `${op.operationId}: ${JSON.stringify(data)}`).not.toBe(400)
      }
      expect([405, 500], `${op.operationId}: ${JSON.stringify(data)}`).not.toContain(res.status)
      expect(Object.keys(op.responses), `${op.operationId} documents its answer ${res.status}`).toContain(
        String(res.status),
      )
    }
    console.log(answers.join('\n'))

    // The typed client, typed: the signed-in user, and the spec's error shape for a missing key.
    const me = await client.request('get', '/api/user')
    expect(me.status).toBe(200)
    if (me.status === 200) expect(me.data).toMatchObject({ email: user.email })
    const anonymous = await createRankwellClient({ baseUrl: appUrl() }).request('get', '/api/blogposts', {
      query: { limit: 1 },
    })
    expect(anonymous.status).toBe(401)
    expect(anonymous.data).toEqual({ message: expect.any(String) })
  })
})
