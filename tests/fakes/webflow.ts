/**
 * Fake Webflow Data API v2 (CMS): Bearer site token, one site and one blog collection.
 *
 *   GET    /v2/sites/:site_id
 *   GET    /v2/collections/:collection_id
 *   GET    /v2/collections/:collection_id/items?slug=&offset=&limit=
 *   POST   /v2/collections/:collection_id/items                 { isDraft, isArchived, fieldData }
 *   GET    /v2/collections/:collection_id/items/:item_id
 *   PATCH  /v2/collections/:collection_id/items/:item_id        { isDraft, isArchived, fieldData }
 *   POST   /v2/collections/:collection_id/items/publish         { itemIds }
 *   DELETE /v2/collections/:collection_id/items/:item_id/live   (unpublish)
 *   DELETE /v2/collections/:collection_id/items/:item_id
 * Control: GET /__control/config ({ token, siteId, collectionId }), GET /__control/items,
 * POST /__control/items/:id/delete.
 */
import { randomBytes } from 'node:crypto'
import {
  bearerToken,
  isRecord,
  sendJson,
  startFakeServer,
  type FakeHandle,
  type FakeOptions,
  type FakeRequest,
} from './http'

export type WebflowItem = {
  id: string
  cmsLocaleId: string
  lastPublished: string | null
  lastUpdated: string
  createdOn: string
  isArchived: boolean
  isDraft: boolean
  fieldData: Record<string, unknown>
}

export type WebflowFakeHandle = FakeHandle & {
  token: string
  siteId: string
  collectionId: string
  items(): Array<WebflowItem & { live: boolean }>
}

const hex = () => randomBytes(12).toString('hex')

const FIELDS = [
  { slug: 'name', type: 'PlainText', displayName: 'Name', isRequired: true },
  { slug: 'slug', type: 'PlainText', displayName: 'Slug', isRequired: true },
  { slug: 'post-body', type: 'RichText', displayName: 'Post Body', isRequired: false },
  { slug: 'post-summary', type: 'PlainText', displayName: 'Post Summary', isRequired: false },
  { slug: 'main-image', type: 'Image', displayName: 'Main Image', isRequired: false },
  // A Plain text field for the post's JSON-LD, placed by the collection template's custom code.
  { slug: 'structured-data', type: 'PlainText', displayName: 'Structured Data', isRequired: false },
]

function fail(ctx: FakeRequest, status: number, code: string, message: string, details: unknown[] = []) {
  sendJson(ctx.res, status, { code, message, externalReference: null, details })
}

export async function startWebflow(opts: FakeOptions = {}): Promise<WebflowFakeHandle> {
  const token = `wf_${randomBytes(24).toString('hex')}`
  const siteId = hex()
  const collectionId = hex()
  const locale = hex()
  const items = new Map<string, WebflowItem & { live: boolean }>()

  const view = ({ live: _live, ...item }: WebflowItem & { live: boolean }): WebflowItem => item

  function checkFields(ctx: FakeRequest, fieldData: Record<string, unknown>, except?: string) {
    const known = new Set(FIELDS.map((f) => f.slug))
    const unknown = Object.keys(fieldData).filter((k) => !known.has(k))
    if (unknown.length) {
      fail(
        ctx,
        400,
        'validation_error',
        'Validation Error',
        unknown.map((k) => `Field not described in schema: ${k}`),
      )
      return false
    }
    const slug = fieldData.slug
    if (typeof slug === 'string' && [...items.values()].some((i) => i.fieldData.slug === slug && i.id !== except)) {
      fail(ctx, 409, 'conflict', 'Unique value is already in database', [
        { param: 'slug', description: `'${slug}' already exists` },
      ])
      return false
    }
    return true
  }

  const handle = await startFakeServer(
    {
      name: 'webflow',
      handler(ctx) {
        if (bearerToken(ctx.headers) !== token) return fail(ctx, 401, 'not_authorized', 'Request not authorized')
        const parts = ctx.path.split('/').filter(Boolean)
        if (parts[0] !== 'v2') return fail(ctx, 404, 'route_not_found', 'Requested route not found')
        const body = isRecord(ctx.body) ? ctx.body : {}
        if (parts[1] === 'sites' && parts.length === 3 && ctx.method === 'GET') {
          if (parts[2] !== siteId) return fail(ctx, 404, 'resource_not_found', 'Requested resource not found')
          return sendJson(ctx.res, 200, {
            id: siteId,
            workspaceId: hex(),
            displayName: 'Fake Webflow Site',
            shortName: 'fake-site',
            previewUrl: '',
            timeZone: 'UTC',
            createdOn: '2026-01-01T00:00:00.000Z',
            lastUpdated: new Date().toISOString(),
            lastPublished: new Date().toISOString(),
            customDomains: [],
            locales: { primary: { id: locale, cmsLocaleId: locale, enabled: true, displayName: 'English', tag: 'en' } },
          })
        }
        if (parts[1] !== 'collections' || parts[2] !== collectionId)
          return fail(ctx, 404, 'resource_not_found', 'Requested resource not found')
        if (parts.length === 3 && ctx.method === 'GET')
          return sendJson(ctx.res, 200, {
            id: collectionId,
            displayName: 'Blog Posts',
            singularName: 'Blog Post',
            slug: 'blog',
            createdOn: '2026-01-01T00:00:00.000Z',
            lastUpdated: '2026-01-01T00:00:00.000Z',
            fields: FIELDS.map((f, i) => ({ id: `${i}`.padStart(24, 'f'), isEditable: true, ...f })),
          })
        if (parts[3] !== 'items') return fail(ctx, 404, 'route_not_found', 'Requested route not found')
        if (parts.length === 4 && ctx.method === 'GET') {
          const slug = typeof ctx.query.slug === 'string' ? ctx.query.slug : undefined
          const list = [...items.values()].filter((i) => !slug || i.fieldData.slug === slug).map(view)
          return sendJson(ctx.res, 200, { items: list, pagination: { limit: 100, offset: 0, total: list.length } })
        }
        if (parts.length === 4 && ctx.method === 'POST') {
          const fieldData = isRecord(body.fieldData) ? body.fieldData : {}
          if (!fieldData.name || !fieldData.slug)
            return fail(ctx, 400, 'validation_error', 'Validation Error', [
              'fieldData.name and fieldData.slug are required',
            ])
          if (!checkFields(ctx, fieldData)) return
          const now = new Date().toISOString()
          const item = {
            id: hex(),
            cmsLocaleId: locale,
            lastPublished: null,
            lastUpdated: now,
            createdOn: now,
            isArchived: body.isArchived === true,
            isDraft: body.isDraft !== false,
            fieldData,
            live: false,
          }
          items.set(item.id, item)
          return sendJson(ctx.res, 202, view(item))
        }
        if (parts.length === 5 && parts[4] === 'publish' && ctx.method === 'POST') {
          const ids = Array.isArray(body.itemIds) ? body.itemIds.map(String) : []
          const missing = ids.filter((id) => !items.has(id))
          for (const id of ids) {
            const item = items.get(id)
            if (!item) continue
            item.live = true
            item.isDraft = false
            item.lastPublished = new Date().toISOString()
          }
          return sendJson(ctx.res, 202, {
            publishedItemIds: ids.filter((id) => items.has(id)),
            errors: missing.map((id) => `Item ${id} not found`),
          })
        }
        const item = items.get(parts[4] ?? '')
        if (!item) return fail(ctx, 404, 'resource_not_found', 'Requested resource not found')
        if (parts.length === 5 && ctx.method === 'GET') return sendJson(ctx.res, 200, view(item))
        if (parts.length === 5 && ctx.method === 'PATCH') {
          const fieldData = isRecord(body.fieldData) ? body.fieldData : {}
          if (!checkFields(ctx, fieldData, item.id)) return
          Object.assign(item.fieldData, fieldData)
          if (typeof body.isDraft === 'boolean') item.isDraft = body.isDraft
          item.lastUpdated = new Date().toISOString()
          return sendJson(ctx.res, 200, view(item))
        }
        if (parts.length === 5 && ctx.method === 'DELETE') {
          items.delete(item.id)
          ctx.res.writeHead(204)
          return void ctx.res.end()
        }
        if (parts.length === 6 && parts[5] === 'live' && ctx.method === 'DELETE') {
          item.live = false
          item.lastPublished = null
          ctx.res.writeHead(204)
          return void ctx.res.end()
        }
        return fail(ctx, 404, 'route_not_found', 'Requested route not found')
      },
      control(ctx, sub) {
        if (sub === 'config' && ctx.method === 'GET') {
          sendJson(ctx.res, 200, { token, siteId, collectionId })
          return true
        }
        if (sub === 'items' && ctx.method === 'GET') {
          sendJson(ctx.res, 200, { items: [...items.values()] })
          return true
        }
        const del = sub.match(/^items\/([a-f0-9]{24})\/delete$/)
        if (del && ctx.method === 'POST') {
          sendJson(ctx.res, 200, { deleted: items.delete(del[1]!) })
          return true
        }
        return false
      },
      onReset: () => items.clear(),
    },
    opts,
  )
  return { ...handle, token, siteId, collectionId, items: () => [...items.values()] }
}
