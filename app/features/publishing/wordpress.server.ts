import { createHttp, header, parseJson, PublishError, safeHost, statusFailure, type Http } from './http.server'
import { jsonLdScripts } from '#app/platform/seo/json-ld'
import { memoryLedger, uploadOnce, withRemoteFigures } from './media.server'
import { plainField } from './publishing'
import type { ClientOptions, DestinationClient, RemoteArticle, RemoteImage, RemoteMediaRef } from './types'

/**
 * WordPress through its REST API (self-hosted and WordPress.com-style sites): Basic authentication with a user name
 * and an Application Password. The API root is discovered the way WordPress advertises it (the `Link:
 * <…>; rel="https://api.w.org/"` header of every page), so sites with plain permalinks (`?rest_route=`) work too.
 */
export type WordPressConfig = {
  siteUrl: string
  username: string
  postStatus: 'publish' | 'draft'
  unpublishMode: 'draft' | 'delete'
  categories: string[]
  tags: string[]
  /**
   * Learned by 'Test connection': whether the user has WordPress's `unfiltered_html` capability (Administrators and
   * Editors of a single site; Super Admins of a network). Only then does a script in a post survive `wp_kses`, so
   * only then is the post's JSON-LD sent (a Custom HTML block); without it WordPress would strip it silently.
   */
  unfilteredHtml?: boolean
}

/** Said after 'Connected to …' when the user cannot publish structured data. */
export const WORDPRESS_NO_STRUCTURED_DATA =
  "Posts will go out without their structured data (Article and FAQ): WordPress keeps it only from an Editor's or Administrator's account. Connect one to include it."

/**
 * The post's JSON-LD as a Custom HTML block (`core/html`), the block WordPress's editor keeps scripts in: it survives
 * `wp_kses` only for a user with `unfiltered_html`.
 */
export function jsonLdBlock(jsonLd: RemoteArticle['jsonLd']): string {
  return jsonLd.length ? `<!-- wp:html -->\n${jsonLdScripts(jsonLd)}\n<!-- /wp:html -->` : ''
}

const AUTH_MESSAGE = 'WordPress refused the user name or Application Password.'

type WpPost = { id: number; link?: string; status?: string; slug?: string }
type WpMedia = { id: number; source_url?: string; slug?: string }

export function wordpressClient(
  config: WordPressConfig,
  appPassword: string,
  opts: ClientOptions = {},
): DestinationClient {
  const http = createHttp({ stats: opts.stats })
  const media = opts.media ?? memoryLedger()
  const auth = `Basic ${Buffer.from(`${config.username}:${appPassword}`).toString('base64')}`
  const host = safeHost(config.siteUrl)
  let root: string | undefined

  /** The REST root, e.g. https://blog.example.com/wp-json/ or https://blog.example.com/?rest_route=/ */
  async function apiRoot(): Promise<string> {
    if (root) return root
    const home = await http(`${config.siteUrl}/`, { method: 'HEAD' })
    const link = header(home, 'link')
    const advertised = link?.match(/<([^>]+)>\s*;\s*rel="https:\/\/api\.w\.org\/"/)?.[1]
    if (advertised) {
      root = new URL(advertised, `${config.siteUrl}/`).toString()
      if (safeHost(root) !== host)
        throw new PublishError(
          `${host} says its API is on another host (${safeHost(root)}). Enter that address instead.`,
          'redirect',
          false,
        )
      return root
    }
    if (home.status >= 300 && home.status < 400) throw statusFailure(home, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    const probe = await http(`${config.siteUrl}/wp-json/`)
    const body = parseJson(probe) as { namespaces?: unknown } | undefined
    if (probe.status === 200 && Array.isArray(body?.namespaces)) return (root = `${config.siteUrl}/wp-json/`)
    if (home.status >= 500 || probe.status >= 500) throw statusFailure(probe, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    throw new PublishError(
      `${host} does not look like a WordPress site: it has no WordPress REST API.`,
      'not_platform',
      false,
    )
  }

  async function endpoint(path: string, params: Record<string, string | number> = {}) {
    const base = await apiRoot()
    const url = new URL(base)
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
    if (url.searchParams.has('rest_route')) {
      url.searchParams.set('rest_route', `/${path}`)
      for (const [k, v] of query) url.searchParams.set(k, v)
      return url.toString()
    }
    return `${base.replace(/\/?$/, '/')}${path}${query.size ? `?${query}` : ''}`
  }

  async function call(method: string, path: string, params: Record<string, string | number> = {}, json?: unknown) {
    const url = await endpoint(path, params)
    return http(url, { method, headers: { Authorization: auth, Accept: 'application/json' }, json })
  }

  function expectJson<T>(res: Awaited<ReturnType<Http>>): T {
    const body = parseJson(res)
    if (body === undefined)
      throw new PublishError(`${host} answered with something that is not WordPress's JSON.`, 'not_platform', false)
    return body as T
  }

  /** Term ids for names, creating the missing terms. */
  async function termIds(taxonomy: 'categories' | 'tags', names: string[]): Promise<number[]> {
    const ids: number[] = []
    for (const name of names) {
      const found = await call('GET', `wp/v2/${taxonomy}`, { search: name, per_page: 100, context: 'edit' })
      if (found.status !== 200) throw statusFailure(found, config.siteUrl, 'WordPress', AUTH_MESSAGE)
      const list = expectJson<Array<{ id: number; name: string }>>(found)
      const match = list.find((t) => decodeEntities(t.name).toLowerCase() === name.toLowerCase())
      if (match) {
        ids.push(match.id)
        continue
      }
      const created = await call('POST', `wp/v2/${taxonomy}`, {}, { name })
      const body = parseJson(created) as { id?: number; code?: string; data?: { term_id?: number } } | undefined
      if (created.status === 201 && body?.id) ids.push(body.id)
      else if (body?.code === 'term_exists' && body.data?.term_id) ids.push(body.data.term_id)
      else throw statusFailure(created, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    }
    return ids
  }

  type Me = { name?: string; capabilities?: Record<string, boolean> }

  async function me(): Promise<Me> {
    const res = await call('GET', 'wp/v2/users/me', { context: 'edit' })
    if (res.status !== 200) throw statusFailure(res, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    return expectJson<Me>(res)
  }

  /** Whether scripts may go out: as 'Test connection' learned it, or asked once (destinations saved before). */
  let unfiltered = config.unfilteredHtml
  async function mayPostScripts() {
    if (unfiltered === undefined) unfiltered = (await me()).capabilities?.unfiltered_html === true
    return unfiltered
  }

  async function findBySlug(slug: string): Promise<WpPost | null> {
    const res = await call('GET', 'wp/v2/posts', { slug, status: 'any', context: 'edit' })
    if (res.status !== 200) throw statusFailure(res, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    const list = expectJson<WpPost[]>(res)
    return Array.isArray(list) && list[0] ? list[0] : null
  }

  /**
   * An image in the media library: `POST wp/v2/media` with the file as the body (Content-Disposition names it) and
   * its alt text, caption and slug as parameters, so one request makes the whole attachment. The slug
   * `rankwell-<imageId>` is what a retry looks the upload up by.
   */
  function mediaRef(item: WpMedia): RemoteMediaRef {
    return { remoteId: String(item.id), remoteUrl: item.source_url ?? '' }
  }

  async function findMedia(image: RemoteImage): Promise<RemoteMediaRef | null> {
    const res = await call('GET', 'wp/v2/media', { slug: mediaSlug(image), context: 'edit' })
    if (res.status !== 200) throw statusFailure(res, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    const list = expectJson<WpMedia[]>(res)
    const found = Array.isArray(list) ? list.find((m) => m.slug === mediaSlug(image)) : undefined
    return found ? mediaRef(found) : null
  }

  async function uploadMedia(image: RemoteImage, bytes: Buffer): Promise<RemoteMediaRef> {
    const url = await endpoint('wp/v2/media', {
      slug: mediaSlug(image),
      title: mediaSlug(image),
      alt_text: image.alt,
      ...(image.caption ? { caption: image.caption } : {}),
    })
    const res = await http(url, {
      method: 'POST',
      headers: {
        Authorization: auth,
        Accept: 'application/json',
        'Content-Type': image.mime,
        'Content-Disposition': `attachment; filename="${image.filename}"`,
      },
      body: bytes,
    })
    if (res.status !== 201 && res.status !== 200) throw statusFailure(res, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    return mediaRef(expectJson<WpMedia>(res))
  }

  async function existing(remoteId: string): Promise<WpPost> {
    const res = await call('GET', `wp/v2/posts/${encodeURIComponent(remoteId)}`, { context: 'edit' })
    const body = parseJson(res) as WpPost | undefined
    if (res.status === 404 || res.status === 410 || (res.status === 200 && body?.status === 'trash'))
      throw new PublishError('The post was deleted on WordPress.', 'missing', false)
    if (res.status !== 200) throw statusFailure(res, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    return body!
  }

  return {
    async test() {
      const base = await apiRoot()
      const index = await http(base, { headers: { Accept: 'application/json' } })
      const info = parseJson(index) as { name?: string; authentication?: unknown } | undefined
      if (Array.isArray(info?.authentication) && info.authentication.length === 0)
        throw new PublishError(
          `${host} does not accept Application Passwords: WordPress offers them only over https (or on a local site).`,
          'auth',
          false,
        )
      const user = await me()
      if (user.capabilities && !user.capabilities.publish_posts)
        throw new PublishError(
          `The WordPress user ${config.username} may not publish posts (it needs the Author role or higher).`,
          'permission',
          false,
        )
      const site = plainField(info?.name ? decodeEntities(info.name) : host)
      const unfilteredHtml = user.capabilities?.unfiltered_html === true
      const connected = `Connected to ${site} as ${plainField(user.name ?? config.username)}.`
      return {
        message: unfilteredHtml ? connected : `${connected} ${WORDPRESS_NO_STRUCTURED_DATA}`,
        config: { unfilteredHtml },
      }
    },

    async publish(article: RemoteArticle, remoteId: string | null) {
      const [categories, tags] = [
        await termIds('categories', names(config.categories)),
        await termIds('tags', names(config.tags)),
      ]
      const structured = article.jsonLd.length && (await mayPostScripts()) ? jsonLdBlock(article.jsonLd) : ''
      // The images first, each uploaded once per site (recorded as soon as WordPress answers), then the post.
      const urls = new Map<string, string>()
      let featuredMedia: number | undefined
      for (const image of article.images) {
        const ref = await uploadOnce(media, image, {
          adopt: () => findMedia(image),
          upload: (bytes) => uploadMedia(image, bytes),
        })
        urls.set(image.id, ref.remoteUrl)
        if (image.role === 'featured') featuredMedia = Number(ref.remoteId)
      }
      const html = withRemoteFigures(article.html, urls)
      const body = {
        title: article.title,
        slug: article.slug,
        content: structured ? `${html}\n\n${structured}` : html,
        ...(featuredMedia ? { featured_media: featuredMedia } : {}),
        excerpt: article.excerpt,
        status: config.postStatus,
        ...(categories.length ? { categories } : {}),
        ...(tags.length ? { tags } : {}),
      }
      let id = remoteId
      if (id) await existing(id)
      else id = (await findBySlug(article.slug))?.id.toString() ?? null
      const res = id
        ? await call('POST', `wp/v2/posts/${encodeURIComponent(id)}`, {}, body)
        : await call('POST', 'wp/v2/posts', {}, body)
      if (res.status !== 200 && res.status !== 201) throw statusFailure(res, config.siteUrl, 'WordPress', AUTH_MESSAGE)
      const post = expectJson<WpPost>(res)
      return { remoteId: String(post.id), remoteUrl: post.link ?? null }
    },

    async unpublish(remoteId: string, mode = config.unpublishMode) {
      const path = `wp/v2/posts/${encodeURIComponent(remoteId)}`
      // Reverting to a draft would take a trashed post out of the trash: a copy deleted by hand is said to be so.
      if (mode !== 'delete') await existing(remoteId)
      const res =
        mode === 'delete'
          ? await call('DELETE', path, { force: 'true' })
          : await call('POST', path, {}, { status: 'draft' })
      if (mode === 'delete' && (res.status === 404 || res.status === 410)) return
      if (res.status === 404 || res.status === 410)
        throw new PublishError('The post was deleted on WordPress.', 'missing', false)
      if (res.status !== 200) throw statusFailure(res, config.siteUrl, 'WordPress', AUTH_MESSAGE)
    },
  }
}

/** Category and tag names as plain text (names saved before they were cleaned at save time too). */
function names(list: string[] | undefined): string[] {
  return [...new Set((list ?? []).map(plainField).filter(Boolean))]
}
const mediaSlug = (image: RemoteImage) => `rankwell-${image.id}`

function decodeEntities(s: string) {
  return s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
}
