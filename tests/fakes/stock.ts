/**
 * Fake stock photo libraries (issue 33), one loopback server speaking both wire shapes:
 * - Unsplash under /unsplash: GET /search/photos?query=&per_page=&orientation= with `Authorization: Client-ID <key>`
 *   → { total, total_pages, results: [{ id, width, height, alt_description, description, urls, links: { html,
 *   download, download_location }, user: { name, username, links: { html } } }] }; GET /photos/:id/download (the
 *   download tracking endpoint) → { url }. A missing or wrong key → 401 { errors: ['OAuth error: The access token is
 *   invalid'] }.
 * - Pexels under /pexels/v1: GET /search?query=&per_page= with `Authorization: <key>` → { page, per_page, photos:
 *   [{ id, width, height, url, photographer, photographer_url, photographer_id, avg_color, src: { original, large2x,
 *   large, medium, small, portrait, landscape, tiny }, alt }], total_results }; wrong key → 401.
 * The photos themselves: GET /img/<id>.jpg → a real JPEG (with EXIF, which Rankwell must strip). A query containing
 * 'nothing' finds no photo. Downloads tracked are listed by GET /__control/downloads.
 */
import type { ServerResponse } from 'node:http'
import sharp from 'sharp'
import { sendJson, startFakeServer, type FakeHandle, type FakeOptions } from './http'
import { fakePng } from './openai'

export const FAKE_STOCK_KEYS = { unsplash: 'fake-unsplash-access-key', pexels: 'fake-pexels-api-key' } as const

export type StockFakeHandle = FakeHandle & { downloads(): string[] }

const PEOPLE = ['Ana Lima', 'Kenji Watanabe', 'Marta Nowak', 'Samuel Okafor', 'Lea Dubois', 'Ravi Menon']

async function photoJpeg(id: string): Promise<Buffer> {
  const png = await fakePng(`stock-${id}`, 1600, 1067)
  return sharp(png)
    .withExif({ IFD0: { Copyright: 'Fake camera owner', Model: 'Fake Camera 3000' } })
    .jpeg({ quality: 85 })
    .toBuffer()
}

export async function startStock(opts: FakeOptions = {}): Promise<StockFakeHandle> {
  const downloads: string[] = []
  const results = (query: string) => {
    if (/nothing/i.test(query)) return []
    const slug = query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 40)
    return Array.from({ length: 3 }, (_, i) => ({
      id: `${slug}-${i + 1}`,
      person: PEOPLE[(slug.length + i) % PEOPLE.length]!,
    }))
  }
  const handle = await startFakeServer(
    {
      name: 'stock',
      onReset: () => {
        downloads.length = 0
      },
      control: (ctx, sub) => {
        if (sub === 'downloads') {
          sendJson(ctx.res, 200, { downloads })
          return true
        }
        return false
      },
      handler: async (ctx) => {
        const base = ctx.baseUrl
        const q = typeof ctx.query.query === 'string' ? ctx.query.query : ''
        const auth = String(ctx.headers.authorization ?? '')
        if (ctx.path.startsWith('/unsplash/')) {
          if (auth !== `Client-ID ${FAKE_STOCK_KEYS.unsplash}`) {
            sendJson(ctx.res, 401, { errors: ['OAuth error: The access token is invalid'] })
            return
          }
          if (ctx.path === '/unsplash/search/photos' && ctx.method === 'GET') {
            if (!q) {
              sendJson(ctx.res, 400, { errors: ['query is missing'] })
              return
            }
            const found = results(q)
            sendJson(ctx.res, 200, {
              total: found.length,
              total_pages: found.length ? 1 : 0,
              results: found.map((p) => {
                const username = p.person.toLowerCase().replace(/\s+/g, '')
                return {
                  id: p.id,
                  created_at: '2024-03-01T10:00:00Z',
                  width: 1600,
                  height: 1067,
                  color: '#40a0c0',
                  blur_hash: 'LKO2?U%2Tw=w]~RBVZRi};RPxuwH',
                  description: null,
                  alt_description: `a desk with a laptop and notes about ${q}`,
                  urls: {
                    raw: `${base}/img/${p.id}.jpg?ixid=raw`,
                    full: `${base}/img/${p.id}.jpg?ixid=full`,
                    regular: `${base}/img/${p.id}.jpg?ixid=regular&w=1080`,
                    small: `${base}/img/${p.id}.jpg?w=400`,
                    thumb: `${base}/img/${p.id}.jpg?w=200`,
                  },
                  links: {
                    self: `${base}/unsplash/photos/${p.id}`,
                    html: `https://unsplash.com/photos/${p.id}`,
                    download: `https://unsplash.com/photos/${p.id}/download`,
                    download_location: `${base}/unsplash/photos/${p.id}/download?ixid=track`,
                  },
                  user: {
                    id: `u-${username}`,
                    username,
                    name: p.person,
                    links: { html: `https://unsplash.com/@${username}` },
                  },
                }
              }),
            })
            return
          }
          const dl = /^\/unsplash\/photos\/([^/]+)\/download$/.exec(ctx.path)
          if (dl && ctx.method === 'GET') {
            downloads.push(dl[1]!)
            sendJson(ctx.res, 200, { url: `${base}/img/${dl[1]}.jpg?ixid=dl` })
            return
          }
        }
        if (ctx.path.startsWith('/pexels/')) {
          if (auth !== FAKE_STOCK_KEYS.pexels) {
            sendJson(ctx.res, 401, { error: 'Unauthorized' })
            return
          }
          if (ctx.path === '/pexels/v1/search' && ctx.method === 'GET') {
            const found = results(q)
            sendJson(ctx.res, 200, {
              page: 1,
              per_page: 10,
              total_results: found.length,
              photos: found.map((p, i) => {
                const src = `${base}/img/${p.id}.jpg`
                return {
                  id: 1000 + i,
                  width: 1600,
                  height: 1067,
                  url: `https://www.pexels.com/photo/${p.id}-${1000 + i}/`,
                  photographer: p.person,
                  photographer_url: `https://www.pexels.com/@${p.person.toLowerCase().replace(/\s+/g, '-')}`,
                  photographer_id: 500 + i,
                  avg_color: '#40A0C0',
                  src: {
                    original: src,
                    large2x: `${src}?auto=compress&cs=tinysrgb&dpr=2&h=650&w=940`,
                    large: `${src}?auto=compress&cs=tinysrgb&h=650&w=940`,
                    medium: `${src}?h=350`,
                    small: `${src}?h=130`,
                    portrait: `${src}?fit=crop&h=1200&w=800`,
                    landscape: `${src}?fit=crop&h=627&w=1200`,
                    tiny: `${src}?h=200&w=280`,
                  },
                  liked: false,
                  alt: `Laptop on a desk, notes about ${q}`,
                }
              }),
            })
            return
          }
        }
        const img = /^\/img\/([^/]+)\.jpg$/.exec(ctx.path)
        if (img && ctx.method === 'GET') {
          const bytes = await photoJpeg(img[1]!)
          sendBytes(ctx.res, bytes, 'image/jpeg')
          return
        }
        sendJson(ctx.res, 404, { errors: ['Not found'] })
      },
    },
    opts,
  )
  const { server: _server, ...rest } = handle
  return { ...rest, downloads: () => [...downloads] }
}

function sendBytes(res: ServerResponse, bytes: Buffer, type: string) {
  res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.byteLength) })
  res.end(bytes)
}
