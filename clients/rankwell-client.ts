/**
 * The typed client of Rankwell's /api routes: one typed `request` per path and method, answering {status, data,
 * response}. The types come from clients/rankwell-api.ts, which `npm run api:client` generates from the OpenAPI
 * document (GET /api/openapi.json).
 */
import type { components, paths } from './rankwell-api'

type Method = 'get' | 'post' | 'put' | 'delete'
type Operation<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never
type ParamsOf<O> = O extends { parameters: infer Q } ? Q : never
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never
type AnswersOf<O> = O extends { responses: infer R } ? R : never
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined
/** The JSON body of each documented status, as a union tagged by `status`. */
export type ApiAnswer<O> = {
  [S in keyof AnswersOf<O>]: { status: S extends `${infer N extends number}` ? N : S; data: JsonOf<AnswersOf<O>[S]> }
}[keyof AnswersOf<O>]

export type ApiError = components['schemas']['Error']

export type RequestOptions<O> = {
  path?: ParamsOf<O> extends { path?: infer X } ? X : never
  query?: ParamsOf<O> extends { query?: infer X } ? X : never
  body?: BodyOf<O>
  headers?: Record<string, string>
}

export type ClientOptions = {
  /** The site, e.g. https://app.rankwell.example */
  baseUrl: string
  /** A personal API key (rwk_…) or the token POST /api/login answers. */
  token?: string
  fetch?: typeof fetch
}

export function createRankwellClient(options: ClientOptions) {
  const doFetch = options.fetch ?? fetch
  async function request<P extends keyof paths, M extends Method & keyof paths[P]>(
    method: M,
    path: P,
    init: RequestOptions<Operation<P, M>> = {},
  ): Promise<ApiAnswer<Operation<P, M>> & { response: Response }> {
    let url = String(path)
    for (const [name, value] of Object.entries((init.path ?? {}) as Record<string, unknown>))
      url = url.replace(`{${name}}`, encodeURIComponent(String(value)))
    const query = new URLSearchParams()
    for (const [name, value] of Object.entries((init.query ?? {}) as Record<string, unknown>))
      if (value !== undefined && value !== null) query.set(name, String(value))
    const search = query.toString()
    const headers = new Headers(init.headers)
    if (options.token) headers.set('Authorization', `Bearer ${options.token}`)
    if (init.body !== undefined) headers.set('Content-Type', 'application/json')
    const response = await doFetch(new URL(url + (search ? `?${search}` : ''), options.baseUrl), {
      method: method.toUpperCase(),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
    })
    const type = response.headers.get('content-type') ?? ''
    const data = type.includes('application/json') ? await response.json() : undefined
    return { status: response.status, data, response } as ApiAnswer<Operation<P, M>> & { response: Response }
  }
  return { request }
}
