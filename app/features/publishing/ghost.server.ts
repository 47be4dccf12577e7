import crypto from 'node:crypto'
import { createHttp, parseJson, PublishError, safeHost, statusFailure } from './http.server'
import { jsonLdScripts } from '#app/platform/seo/json-ld'
import { memoryLedger, multipart, uploadOnce, withRemoteFigures } from './media.server'
import { plainField } from './publishing'
import type { ClientOptions, DestinationClient, RemoteArticle, RemoteImage, RemoteMediaRef } from './types'

/**
 * Ghost through its Admin API. The Admin API key (`id:secret`, from Ghost Admin → Integrations) signs a
 * short-lived JWT as Ghost documents it: HS256 with the hex-decoded secret, `kid` = the key id, audience
 * `/admin/`, five minutes of validity. Posts are sent as HTML (`?source=html`).
 */
export type GhostConfig = {
  adminUrl: string
  postStatus: 'publish' | 'draft'
  unpublishMode: 'draft' | 'delete'
  tags: string[]
}

const AUTH_MESSAGE = 'Ghost refused the Admin API key.'
const ACCEPT_VERSION = 'v5.0'

export function ghostToken(adminApiKey: string, now = Date.now()) {
  const [id, secret] = adminApiKey.split(':')
  if (!id || !secret) throw new PublishError('The Admin API key is not in the id:secret form.', 'auth', false)
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const iat = Math.floor(now / 1000)
  const unsigned = `${b64({ alg: 'HS256', kid: id, typ: 'JWT' })}.${b64({ iat, exp: iat + 300, aud: '/admin/' })}`
  const signature = crypto.createHmac('sha256', Buffer.from(secret, 'hex')).update(unsigned).digest('base64url')
  return `${unsigned}.${signature}`
}

type GhostPost = { id: string; url?: string; slug?: string; status?: string; updated_at?: string }

export function ghostClient(config: GhostConfig, adminApiKey: string, opts: ClientOptions = {}): DestinationClient {
  const http = createHttp({ stats: opts.stats })
  const media = opts.media ?? memoryLedger()
  const base = `${config.adminUrl}/ghost/api/admin/`
  const host = safeHost(config.adminUrl)
  let siteUrl: string | undefined

  async function call(method: string, path: string, json?: unknown) {
    return http(`${base}${path}`, {
      method,
      headers: { Authorization: `Ghost ${ghostToken(adminApiKey)}`, 'Accept-Version': ACCEPT_VERSION },
      json,
    })
  }

  function posts(res: Awaited<ReturnType<typeof call>>): GhostPost[] {
    const body = parseJson(res) as { posts?: GhostPost[] } | undefined
    if (!Array.isArray(body?.posts))
      throw new PublishError(`${host} answered with something that is not Ghost's Admin API.`, 'not_platform', false)
    return body.posts
  }

  async function read(remoteId: string): Promise<GhostPost> {
    const res = await call('GET', `posts/${encodeURIComponent(remoteId)}/`)
    if (res.status === 404) throw new PublishError('The post was deleted on Ghost.', 'missing', false)
    if (res.status !== 200) throw statusFailure(res, config.adminUrl, 'Ghost', AUTH_MESSAGE)
    return posts(res)[0]!
  }

  async function findBySlug(slug: string): Promise<GhostPost | null> {
    const res = await call('GET', `posts/slug/${encodeURIComponent(slug)}/`)
    if (res.status === 404) return null
    if (res.status !== 200) throw statusFailure(res, config.adminUrl, 'Ghost', AUTH_MESSAGE)
    return posts(res)[0] ?? null
  }

  /**
   * An image upload (`POST images/upload/`, multipart `file`, `purpose`, `ref`). Ghost's media has no id and no
   * search: the URL is all there is. The default (local) storage keeps the file name under
   * content/images/<yyyy>/<mm>/, so a retry after a crash finds an upload it never recorded by asking for that
   * URL (this month's and last month's); a storage adapter that renames files defeats this, and then a retry
   * uploads a second copy of the file (never a second post).
   */
  async function upload(image: RemoteImage, bytes: Buffer): Promise<RemoteMediaRef> {
    const form = multipart([
      { name: 'file', filename: image.filename, contentType: image.mime, data: bytes },
      { name: 'purpose', value: 'image' },
      { name: 'ref', value: image.id },
    ])
    const res = await http(`${base}images/upload/`, {
      method: 'POST',
      headers: {
        Authorization: `Ghost ${ghostToken(adminApiKey)}`,
        'Accept-Version': ACCEPT_VERSION,
        'Content-Type': form.contentType,
      },
      body: form.body,
    })
    if (res.status !== 201 && res.status !== 200) throw statusFailure(res, config.adminUrl, 'Ghost', AUTH_MESSAGE)
    const body = parseJson(res) as { images?: Array<{ url?: string }> } | undefined
    const url = body?.images?.[0]?.url
    if (!url) throw new PublishError(`${host} answered the image upload without a URL.`, 'server', true)
    return { remoteId: url, remoteUrl: url }
  }

  async function adopt(image: RemoteImage): Promise<RemoteMediaRef | null> {
    if (!siteUrl) {
      const site = parseJson(await http(`${base}site/`, { headers: { 'Accept-Version': ACCEPT_VERSION } })) as
        { site?: { url?: string } } | undefined
      siteUrl = (site?.site?.url ?? config.adminUrl).replace(/\/+$/, '')
    }
    const now = new Date()
    for (const back of [0, 1]) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))
      const url = `${siteUrl}/content/images/${month.getUTCFullYear()}/${String(month.getUTCMonth() + 1).padStart(2, '0')}/${image.filename}`
      try {
        const res = await http(url, { method: 'HEAD' })
        if (res.status === 200) return { remoteId: url, remoteUrl: url }
      } catch (error) {
        if (!(error instanceof PublishError) || error.kind === 'blocked') throw error
      }
    }
    return null
  }

  const status = (s: 'publish' | 'draft') => (s === 'publish' ? 'published' : 'draft')

  return {
    async test() {
      const site = await http(`${base}site/`, { headers: { 'Accept-Version': ACCEPT_VERSION } })
      const info = parseJson(site) as { site?: { title?: string; version?: string } } | undefined
      if (site.status >= 300 && site.status < 400) throw statusFailure(site, config.adminUrl, 'Ghost', AUTH_MESSAGE)
      if (site.status >= 500) throw statusFailure(site, config.adminUrl, 'Ghost', AUTH_MESSAGE)
      if (site.status !== 200 || !info?.site)
        throw new PublishError(
          `${host} does not look like a Ghost site: it has no Ghost Admin API.`,
          'not_platform',
          false,
        )
      const check = await call('GET', 'posts/?limit=1&fields=id')
      if (check.status !== 200) throw statusFailure(check, config.adminUrl, 'Ghost', AUTH_MESSAGE)
      posts(check)
      return {
        message: `Connected to ${info.site.title ?? host} (Ghost ${info.site.version ?? ''}).`.replace(' )', ')'),
      }
    },

    async publish(article: RemoteArticle, remoteId: string | null) {
      const tags = [...new Set((config.tags ?? []).map(plainField).filter(Boolean))]
      const urls = new Map<string, string>()
      let featured: { url: string; image: RemoteImage } | undefined
      for (const image of article.images) {
        const ref = await uploadOnce(media, image, {
          adopt: () => adopt(image),
          upload: (bytes) => upload(image, bytes),
        })
        urls.set(image.id, ref.remoteUrl)
        if (image.role === 'featured') featured = { url: ref.remoteUrl, image }
      }
      const fields = {
        title: article.title,
        slug: article.slug,
        html: withRemoteFigures(article.html, urls),
        ...(featured
          ? {
              feature_image: featured.url,
              // Ghost keeps at most 191 characters of alt text; the caption is HTML there, so the text is escaped.
              feature_image_alt: featured.image.alt.slice(0, 191),
              feature_image_caption: featured.image.caption ? escapeHtml(featured.image.caption) : null,
            }
          : {}),
        custom_excerpt: article.excerpt.slice(0, 300),
        meta_description: article.excerpt.slice(0, 500),
        // The post's JSON-LD in its own code injection, which Ghost prints in the page's <head> ({{ghost_head}}):
        // a script in `html` would not survive Ghost's conversion of HTML to its editor's format.
        codeinjection_head: article.jsonLd.length ? jsonLdScripts(article.jsonLd) : null,
        status: status(config.postStatus),
        ...(tags.length ? { tags: tags.map((name) => ({ name })) } : {}),
      }
      const current = remoteId ? await read(remoteId) : await findBySlug(article.slug)
      const res = current
        ? await call('PUT', `posts/${encodeURIComponent(current.id)}/?source=html`, {
            posts: [{ ...fields, updated_at: current.updated_at }],
          })
        : await call('POST', 'posts/?source=html', { posts: [fields] })
      if (res.status !== 200 && res.status !== 201) throw statusFailure(res, config.adminUrl, 'Ghost', AUTH_MESSAGE)
      const post = posts(res)[0]!
      return { remoteId: post.id, remoteUrl: post.url ?? null }
    },

    async unpublish(remoteId: string, mode = config.unpublishMode) {
      if (mode === 'delete') {
        const res = await call('DELETE', `posts/${encodeURIComponent(remoteId)}/`)
        if (res.status === 204 || res.status === 200 || res.status === 404) return
        throw statusFailure(res, config.adminUrl, 'Ghost', AUTH_MESSAGE)
      }
      // A copy deleted by hand throws 'missing' (the screens say so).
      const current = await read(remoteId)
      const res = await call('PUT', `posts/${encodeURIComponent(remoteId)}/`, {
        posts: [{ status: 'draft', updated_at: current.updated_at }],
      })
      if (res.status !== 200) throw statusFailure(res, config.adminUrl, 'Ghost', AUTH_MESSAGE)
    },
  }
}

function escapeHtml(s: string) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
