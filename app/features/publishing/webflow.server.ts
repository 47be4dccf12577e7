import { getEnv } from '#app/platform/env.server'
import { createHttp, parseJson, PublishError, statusFailure } from './http.server'
import crypto from 'node:crypto'
import { jsonForScript } from '#app/platform/seo/json-ld'
import { memoryLedger, multipart, uploadOnce, withRemoteFigures } from './media.server'
import { httpUrlOrNull } from './publishing'
import type { ClientOptions, DestinationClient, RemoteArticle, RemoteImage, RemoteMediaRef } from './types'

/**
 * Webflow through the Data API v2 (CMS): a site API token, a site and a CMS collection, and a mapping of the
 * post's parts onto the collection's fields. Items are created staged, then published; an update patches the
 * item and publishes it again; unpublishing takes the live item down (or deletes the item).
 */
export type WebflowConfig = {
  siteId: string
  collectionId: string
  titleField: string
  slugField: string
  bodyField: string
  summaryField?: string
  /**
   * A Plain text field that receives the post's JSON-LD (a JSON array of the Article and FAQPage objects), for the
   * collection template's custom code: `<script type="application/ld+json">` + the field + `</script>`.
   */
  jsonLdField?: string
  /** An Image field that receives the featured image ({ fileId, url, alt }), when mapped. */
  imageField?: string
  unpublishMode: 'draft' | 'delete'
  /** Learned by 'Test connection': where the collection's items live on the public site. */
  siteDomain?: string
  collectionSlug?: string
}

const AUTH_MESSAGE = 'Webflow refused the API token.'

type Asset = { id: string; hostedUrl?: string; assetUrl?: string; originalFileName?: string; displayName?: string }
type AssetUpload = Asset & { uploadUrl?: string; uploadDetails?: Record<string, unknown> }
type Item = { id: string; fieldData?: Record<string, unknown>; isDraft?: boolean }
type Collection = { slug?: string; displayName?: string; fields?: Array<{ slug: string; type: string }> }
type Site = { displayName?: string; shortName?: string; customDomains?: Array<{ url?: string }> }

export function webflowClient(config: WebflowConfig, apiToken: string, opts: ClientOptions = {}): DestinationClient {
  const http = createHttp({ stats: opts.stats })
  const media = opts.media ?? memoryLedger()
  const base = getEnv().WEBFLOW_API_URL.replace(/\/+$/, '')
  const items = `collections/${encodeURIComponent(config.collectionId)}/items`
  const assets = `sites/${encodeURIComponent(config.siteId)}/assets`

  async function call(method: string, path: string, json?: unknown) {
    return http(`${base}/${path}`, {
      method,
      headers: { Authorization: `Bearer ${apiToken}`, Accept: 'application/json' },
      json,
    })
  }

  function json<T>(res: Awaited<ReturnType<typeof call>>): T {
    const body = parseJson(res)
    if (body === undefined || typeof body !== 'object')
      throw new PublishError('Webflow answered with something that is not JSON.', 'server', true)
    return body as T
  }

  async function ok(res: Awaited<ReturnType<typeof call>>, what: string) {
    if (res.status === 404)
      throw new PublishError(`Webflow has no ${what} with this ID (or the token cannot see it).`, 'not_found', false)
    if (res.status < 200 || res.status >= 300) throw statusFailure(res, base, 'Webflow', AUTH_MESSAGE)
    return res
  }

  function fieldData(article: RemoteArticle, uploaded: Map<string, RemoteMediaRef>) {
    const urls = new Map([...uploaded].map(([id, ref]) => [id, ref.remoteUrl]))
    const featured = article.images.find((i) => i.role === 'featured')
    const featuredRef = featured && uploaded.get(featured.id)
    return {
      [config.titleField]: article.title,
      [config.slugField]: article.slug,
      [config.bodyField]: withRemoteFigures(article.html, urls),
      ...(config.summaryField ? { [config.summaryField]: article.excerpt } : {}),
      ...(config.jsonLdField
        ? { [config.jsonLdField]: article.jsonLd.length ? jsonForScript(article.jsonLd) : '' }
        : {}),
      ...(config.imageField && featured && featuredRef
        ? { [config.imageField]: { fileId: featuredRef.remoteId, url: featuredRef.remoteUrl, alt: featured.alt } }
        : {}),
    }
  }

  const assetRef = (asset: Asset): RemoteMediaRef => ({
    remoteId: asset.id,
    remoteUrl: asset.hostedUrl ?? asset.assetUrl ?? '',
  })

  /** An asset this site already has under the image's file name (an upload a crash kept from being recorded). */
  async function findAsset(image: RemoteImage): Promise<RemoteMediaRef | null> {
    for (let offset = 0, page = 0; page < 50; page++) {
      const list = json<{ assets?: Asset[]; pagination?: { total?: number } }>(
        await ok(await call('GET', `${assets}?offset=${offset}&limit=100`), 'site'),
      )
      const found = list.assets?.find((a) => a.originalFileName === image.filename || a.displayName === image.filename)
      if (found) return assetRef(found)
      offset += list.assets?.length ?? 0
      if (!list.assets?.length || offset >= (list.pagination?.total ?? 0)) return null
    }
    return null
  }

  /**
   * Webflow's two-step upload: `POST sites/:id/assets` with the file name and its MD5 gives an upload URL and the
   * form fields to send with the file (an S3 POST); the asset's hosted URL is where the site serves it.
   */
  async function uploadAsset(image: RemoteImage, bytes: Buffer): Promise<RemoteMediaRef> {
    const fileHash = crypto.createHash('md5').update(bytes).digest('hex')
    const created = json<AssetUpload>(
      await ok(await call('POST', assets, { fileName: image.filename, fileHash }), 'site'),
    )
    const uploadUrl = httpUrlOrNull(created.uploadUrl)
    if (!uploadUrl || !created.id)
      throw new PublishError('Webflow answered the asset upload without an upload address.', 'server', true)
    const form = multipart([
      ...Object.entries(created.uploadDetails ?? {}).map(([name, value]) => ({ name, value: String(value) })),
      { name: 'file', filename: image.filename, contentType: image.mime, data: bytes },
    ])
    const sent = await http(uploadUrl, {
      method: 'POST',
      headers: { 'Content-Type': form.contentType },
      body: form.body,
    })
    if (sent.status < 200 || sent.status >= 300) throw statusFailure(sent, uploadUrl, 'Webflow', AUTH_MESSAGE)
    return assetRef(created)
  }

  async function publishItem(id: string) {
    await ok(await call('POST', `${items}/publish`, { itemIds: [id] }), 'item')
  }

  function publicUrl(slug: string) {
    if (!config.siteDomain || !config.collectionSlug) return null
    return `https://${config.siteDomain}/${config.collectionSlug}/${slug}`
  }

  return {
    async test() {
      const site = json<Site>(await ok(await call('GET', `sites/${encodeURIComponent(config.siteId)}`), 'site'))
      const collection = json<Collection>(
        await ok(await call('GET', `collections/${encodeURIComponent(config.collectionId)}`), 'collection'),
      )
      const fields = collection.fields ?? []
      const slugs = fields.map((f) => f.slug)
      for (const [label, slug] of [
        ['Title', config.titleField],
        ['Slug', config.slugField],
        ['Body', config.bodyField],
        ['Summary', config.summaryField],
        ['Structured data', config.jsonLdField],
        ['Image', config.imageField],
      ] as const) {
        if (slug && !slugs.includes(slug))
          throw new PublishError(
            `The collection ${collection.displayName ?? ''} has no field "${slug}" for the ${label.toLowerCase()}. Its fields: ${slugs.join(', ')}.`.replace(
              '  ',
              ' ',
            ),
            'rejected',
            false,
          )
      }
      const body = fields.find((f) => f.slug === config.bodyField)
      if (body && body.type !== 'RichText')
        throw new PublishError(
          `The body field "${config.bodyField}" is a ${body.type} field; choose a Rich text field.`,
          'rejected',
          false,
        )
      const jsonLd = fields.find((f) => f.slug === config.jsonLdField)
      if (jsonLd && jsonLd.type !== 'PlainText')
        throw new PublishError(
          `The structured data field "${config.jsonLdField}" is a ${jsonLd.type} field; choose a Plain text field.`,
          'rejected',
          false,
        )
      const image = config.imageField ? fields.find((f) => f.slug === config.imageField) : undefined
      if (image && image.type !== 'Image')
        throw new PublishError(
          `The image field "${config.imageField}" is a ${image.type} field; choose an Image field.`,
          'rejected',
          false,
        )
      const domain =
        site.customDomains?.find((d) => d.url)?.url ?? (site.shortName ? `${site.shortName}.webflow.io` : undefined)
      return {
        message: `Connected to ${site.displayName ?? 'the Webflow site'}, collection ${collection.displayName ?? config.collectionId}.`,
        config: {
          siteDomain: domain?.replace(/^https?:\/\//, '').replace(/\/+$/, ''),
          collectionSlug: collection.slug,
        },
      }
    },

    async publish(article: RemoteArticle, remoteId: string | null) {
      const uploaded = new Map<string, RemoteMediaRef>()
      for (const image of article.images) {
        const ref = await uploadOnce(media, image, {
          adopt: () => findAsset(image),
          upload: (bytes) => uploadAsset(image, bytes),
        })
        uploaded.set(image.id, ref)
      }
      let id = remoteId
      if (id) {
        const current = await call('GET', `${items}/${encodeURIComponent(id)}`)
        if (current.status === 404) throw new PublishError('The item was deleted on Webflow.', 'missing', false)
        await ok(current, 'item')
      } else {
        const found = json<{ items?: Item[] }>(
          await ok(await call('GET', `${items}?slug=${encodeURIComponent(article.slug)}`), 'collection'),
        )
        id = found.items?.find((i) => i.fieldData?.[config.slugField] === article.slug)?.id ?? null
      }
      if (id) {
        await ok(
          await call('PATCH', `${items}/${encodeURIComponent(id)}`, {
            isDraft: false,
            isArchived: false,
            fieldData: fieldData(article, uploaded),
          }),
          'item',
        )
      } else {
        const created = json<Item>(
          await ok(
            await call('POST', items, { isDraft: false, isArchived: false, fieldData: fieldData(article, uploaded) }),
            'collection',
          ),
        )
        id = created.id
      }
      await publishItem(id)
      return { remoteId: id, remoteUrl: publicUrl(article.slug) }
    },

    async unpublish(remoteId: string, mode = config.unpublishMode) {
      if (mode !== 'delete') {
        // A copy deleted by hand is said to be so (taking a gone item off the live site would look like success).
        const current = await call('GET', `${items}/${encodeURIComponent(remoteId)}`)
        if (current.status === 404) throw new PublishError('The item was deleted on Webflow.', 'missing', false)
        await ok(current, 'item')
      }
      const path =
        mode === 'delete' ? `${items}/${encodeURIComponent(remoteId)}` : `${items}/${encodeURIComponent(remoteId)}/live`
      const res = await call('DELETE', path)
      if (res.status === 404 || res.status === 204 || res.status === 200) return
      throw statusFailure(res, base, 'Webflow', AUTH_MESSAGE)
    },
  }
}
