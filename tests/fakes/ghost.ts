/**
 * Fake Ghost Admin API (v5). Checks the Admin API JWT the way Ghost does: `Authorization: Ghost <token>`, HS256,
 * `kid` naming a known key, the signature made with that key's hex-decoded secret, audience `/admin/` (or the
 * versioned `/v5/admin/`), `iat` present and `exp - iat` at most 5 minutes, not expired.
 *
 *   GET    /ghost/api/admin/site/                      (no auth, like Ghost)
 *   GET    /ghost/api/admin/posts/?limit=&fields=
 *   GET    /ghost/api/admin/posts/:id/
 *   GET    /ghost/api/admin/posts/slug/:slug/
 *   POST   /ghost/api/admin/posts/?source=html          { posts: [{ title, slug, html, status, … }] }
 *   PUT    /ghost/api/admin/posts/:id/?source=html      (updated_at must match: Ghost's collision check)
 *   DELETE /ghost/api/admin/posts/:id/
 * Control: GET /__control/key (the accepted Admin API key), GET /__control/posts, POST /__control/posts/:id/delete.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import {
  isRecord,
  randomId,
  sendJson,
  startFakeServer,
  type FakeHandle,
  type FakeOptions,
  type FakeRequest,
} from './http'

export type GhostPost = {
  id: string
  uuid: string
  title: string
  slug: string
  html: string
  status: 'draft' | 'published' | 'scheduled'
  custom_excerpt: string | null
  meta_description: string | null
  codeinjection_head: string | null
  tags: Array<{ name: string }>
  url: string
  created_at: string
  updated_at: string
  published_at: string | null
}

export type GhostFakeHandle = FakeHandle & { adminApiKey: string; posts(): GhostPost[] }

const PREFIX = '/ghost/api/admin/'

function error(ctx: FakeRequest, status: number, type: string, message: string) {
  sendJson(ctx.res, status, { errors: [{ message, type, context: null }] })
}

function slugify(s: string) {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'untitled'
  )
}

export async function startGhost(opts: FakeOptions & { title?: string } = {}): Promise<GhostFakeHandle> {
  const keyId = randomBytes(12).toString('hex')
  const secret = randomBytes(32).toString('hex')
  const posts = new Map<string, GhostPost>()
  let siteUrl = ''

  function verify(ctx: FakeRequest): boolean {
    const header = String(ctx.headers.authorization ?? '')
    const token = header.startsWith('Ghost ') ? header.slice(6) : ''
    const [h, p, sig] = token.split('.')
    const fail = (message: string) => {
      error(ctx, 401, 'UnauthorizedError', message)
      return false
    }
    if (!h || !p || !sig) return fail('Authorization header format is "Authorization: Ghost [token]"')
    let head: Record<string, unknown>, payload: Record<string, unknown>
    try {
      head = JSON.parse(Buffer.from(h, 'base64url').toString())
      payload = JSON.parse(Buffer.from(p, 'base64url').toString())
    } catch {
      return fail('Invalid token')
    }
    if (head.alg !== 'HS256') return fail('Invalid token: algorithm')
    if (head.kid !== keyId) return fail('Unknown Admin API Key')
    const expected = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${h}.${p}`).digest()
    const given = Buffer.from(sig, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('Invalid token: signature')
    const aud = payload.aud
    if (aud !== '/admin/' && aud !== '/v5/admin/') return fail('Invalid token: audience')
    const iat = Number(payload.iat)
    const exp = Number(payload.exp)
    const now = Math.floor(Date.now() / 1000)
    if (!Number.isFinite(iat) || !Number.isFinite(exp)) return fail('Invalid token: iat and exp are required')
    if (exp - iat > 5 * 60) return fail('Invalid token: maximum lifetime is 5 minutes')
    if (exp < now - 5) return fail('Invalid token: expired')
    return true
  }

  function publicUrl(post: GhostPost) {
    return post.status === 'published' ? `${siteUrl}/${post.slug}/` : `${siteUrl}/p/${post.uuid}/`
  }

  function uniqueSlug(wanted: string, except?: string) {
    let slug = wanted
    for (let i = 2; [...posts.values()].some((p) => p.slug === slug && p.id !== except); i++) slug = `${wanted}-${i}`
    return slug
  }

  function apply(post: GhostPost, input: Record<string, unknown>) {
    if (typeof input.title === 'string') post.title = input.title
    if (typeof input.html === 'string') post.html = input.html
    if (typeof input.slug === 'string') post.slug = uniqueSlug(slugify(input.slug), post.id)
    if (input.status === 'draft' || input.status === 'published') {
      if (input.status === 'published' && post.status !== 'published') post.published_at = new Date().toISOString()
      post.status = input.status
    }
    if (typeof input.custom_excerpt === 'string') post.custom_excerpt = input.custom_excerpt
    if (typeof input.meta_description === 'string') post.meta_description = input.meta_description
    if (typeof input.codeinjection_head === 'string' || input.codeinjection_head === null)
      post.codeinjection_head = input.codeinjection_head
    if (Array.isArray(input.tags)) post.tags = input.tags.filter(isRecord).map((t) => ({ name: String(t.name ?? '') }))
    post.updated_at = new Date(Math.max(Date.now(), Date.parse(post.updated_at) + 1)).toISOString()
    post.url = publicUrl(post)
  }

  function validate(ctx: FakeRequest, input: Record<string, unknown>) {
    if (typeof input.custom_excerpt === 'string' && input.custom_excerpt.length > 300) {
      error(
        ctx,
        422,
        'ValidationError',
        'Validation error, cannot save post. custom_excerpt exceeds maximum length of 300 characters.',
      )
      return false
    }
    return true
  }

  const handle = await startFakeServer(
    {
      name: 'ghost',
      async handler(ctx) {
        siteUrl = ctx.baseUrl
        if (!ctx.path.startsWith(PREFIX)) return error(ctx, 404, 'NotFoundError', 'Resource not found')
        const rest = ctx.path.slice(PREFIX.length)
        if (rest === 'site/' && ctx.method === 'GET')
          return sendJson(ctx.res, 200, {
            site: {
              title: opts.title ?? 'Fake Ghost Blog',
              description: 'A Ghost site',
              url: `${siteUrl}/`,
              version: '5.96',
            },
          })
        if (!verify(ctx)) return
        const body = isRecord(ctx.body) ? ctx.body : {}
        const input =
          Array.isArray(body.posts) && isRecord(body.posts[0]) ? (body.posts[0] as Record<string, unknown>) : {}

        if (rest === 'posts/' && ctx.method === 'GET') {
          const limit = Number(ctx.query.limit ?? 15)
          return sendJson(ctx.res, 200, {
            posts: [...posts.values()].slice(0, limit),
            meta: { pagination: { total: posts.size } },
          })
        }
        if (rest === 'posts/' && ctx.method === 'POST') {
          if (!input.title)
            return error(ctx, 422, 'ValidationError', 'Validation error, cannot save post. title is required.')
          if (!validate(ctx, input)) return
          const now = new Date().toISOString()
          const post: GhostPost = {
            id: randomBytes(12).toString('hex'),
            uuid: randomId('', 16),
            title: '',
            slug: '',
            html: '',
            status: 'draft',
            custom_excerpt: null,
            meta_description: null,
            codeinjection_head: null,
            tags: [],
            url: '',
            created_at: now,
            updated_at: now,
            published_at: null,
          }
          post.slug = uniqueSlug(slugify(String(input.slug ?? input.title)))
          apply(post, { ...input, slug: post.slug })
          posts.set(post.id, post)
          return sendJson(ctx.res, 201, { posts: [post] })
        }
        const bySlug = rest.match(/^posts\/slug\/([^/]+)\/$/)
        if (bySlug && ctx.method === 'GET') {
          const post = [...posts.values()].find((p) => p.slug === decodeURIComponent(bySlug[1]!))
          return post ? sendJson(ctx.res, 200, { posts: [post] }) : error(ctx, 404, 'NotFoundError', 'Post not found.')
        }
        const byId = rest.match(/^posts\/([a-f0-9]{24})\/$/)
        if (byId) {
          const post = posts.get(byId[1]!)
          if (!post) return error(ctx, 404, 'NotFoundError', 'Post not found.')
          if (ctx.method === 'GET') return sendJson(ctx.res, 200, { posts: [post] })
          if (ctx.method === 'DELETE') {
            posts.delete(post.id)
            ctx.res.writeHead(204)
            return void ctx.res.end()
          }
          if (ctx.method === 'PUT') {
            if (input.updated_at !== post.updated_at)
              return error(ctx, 409, 'UpdateCollisionError', 'Saving failed! Someone else is editing this post.')
            if (!validate(ctx, input)) return
            apply(post, input)
            return sendJson(ctx.res, 200, { posts: [post] })
          }
        }
        return error(ctx, 404, 'NotFoundError', 'Resource not found')
      },
      control(ctx, sub) {
        if (sub === 'key' && ctx.method === 'GET') {
          sendJson(ctx.res, 200, { adminApiKey: `${keyId}:${secret}` })
          return true
        }
        if (sub === 'posts' && ctx.method === 'GET') {
          sendJson(ctx.res, 200, { posts: [...posts.values()] })
          return true
        }
        const del = sub.match(/^posts\/([a-f0-9]{24})\/delete$/)
        if (del && ctx.method === 'POST') {
          sendJson(ctx.res, 200, { deleted: posts.delete(del[1]!) })
          return true
        }
        return false
      },
      onReset: () => posts.clear(),
    },
    opts,
  )
  siteUrl = handle.url
  return { ...handle, adminApiKey: `${keyId}:${secret}`, posts: () => [...posts.values()] }
}
