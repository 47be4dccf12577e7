import { z } from 'zod'
import { openai } from '#app/platform/ai/openai.server'
import { getEnv } from '#app/platform/env.server'
import { allowPrivateNetworks, guardedGet, guardedRequest } from '#app/platform/security/ssrf.server'
import { withUtm, type ImageCredit } from './images'

/**
 * Issue 33: where an image's bytes come from. Generated: the OpenAI-compatible Images API through the same SDK
 * client, key and base URL as the writing (model OPENAI_IMAGE_MODEL; the GPT image models answer base64, the DALL·E
 * ones are asked for it). Stock: Unsplash or Pexels, whichever key is set (Unsplash first), searched by their REST
 * APIs; the photo itself is downloaded through the SSRF guard (its URL comes from a third party's answer) and, for
 * Unsplash, the download is reported to `links.download_location` as their API guidelines require.
 * Everything that arrives is data: the bytes go to sharp, the texts are made plain before they are kept.
 */
export class ImageSourceError extends Error {
  constructor(
    message: string,
    readonly reason: 'unavailable' | 'no-result' | 'bad-answer' | 'not-configured',
  ) {
    super(message)
    this.name = 'ImageSourceError'
  }
}

/** The most we read of one image's bytes (before processing shrinks it). */
const MAX_DOWNLOAD = 15 * 1024 * 1024
const TIMEOUT_MS = () => Math.min(getEnv().POST_MODEL_TIMEOUT_MS, 120_000)
const allowPrivate = () => allowPrivateNetworks('research')

export type Fetched = { bytes: Buffer; model?: string; credit?: ImageCredit; description?: string }

/** Which stock provider this server has a key for (null: none, stock photos are not offered). */
export function stockProvider(): 'unsplash' | 'pexels' | null {
  const env = getEnv()
  if (env.UNSPLASH_ACCESS_KEY) return 'unsplash'
  if (env.PEXELS_API_KEY) return 'pexels'
  return null
}

/** One image from the Images API for `prompt`, landscape. */
export async function generateImage(prompt: string): Promise<Fetched> {
  const model = getEnv().OPENAI_IMAGE_MODEL
  const dalle = /^dall-e/i.test(model)
  const answer = await openai({ maxRetries: 1, timeoutMs: TIMEOUT_MS() }).images.generate({
    model,
    prompt,
    n: 1,
    size: dalle ? (/3/.test(model) ? '1792x1024' : '1024x1024') : '1536x1024',
    ...(dalle ? { response_format: 'b64_json' as const } : { quality: 'medium' as const }),
  })
  const b64 = answer?.data?.[0]?.b64_json
  if (typeof b64 !== 'string' || !b64)
    throw new ImageSourceError('The image service answered without an image.', 'bad-answer')
  return { bytes: Buffer.from(b64, 'base64'), model }
}

const unsplashSearch = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      alt_description: z.string().nullish(),
      description: z.string().nullish(),
      urls: z.object({ regular: z.string().url(), full: z.string().url().optional() }),
      links: z.object({ html: z.string().url(), download_location: z.string().url() }),
      user: z.object({ name: z.string(), links: z.object({ html: z.string().url() }) }),
    }),
  ),
})

const pexelsSearch = z.object({
  photos: z.array(
    z.object({
      id: z.number(),
      url: z.string().url(),
      alt: z.string().nullish(),
      photographer: z.string(),
      photographer_url: z.string().url(),
      src: z.object({ large2x: z.string().url(), large: z.string().url() }),
    }),
  ),
})

async function apiJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let res: Response
  try {
    res = await fetch(url, {
      headers: { Accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(TIMEOUT_MS()),
    })
  } catch {
    throw new ImageSourceError('The photo library could not be reached.', 'unavailable')
  }
  const text = await res.text().catch(() => '')
  if (!res.ok) throw new ImageSourceError(`The photo library answered ${res.status}.`, 'unavailable')
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ImageSourceError('The photo library gave an answer we could not read.', 'bad-answer')
  }
}

/** A photo's bytes, through the guard; anything but a 200 with an image type is refused. */
async function download(url: string): Promise<Buffer> {
  let res: Awaited<ReturnType<typeof guardedGet>>
  try {
    res = await guardedGet(url, {
      timeoutMs: TIMEOUT_MS(),
      maxBytes: MAX_DOWNLOAD,
      headers: { Accept: 'image/webp,image/jpeg,image/*' },
      allowPrivate: allowPrivate(),
    })
  } catch {
    throw new ImageSourceError('The photo could not be downloaded.', 'unavailable')
  }
  if (res.status !== 200 || res.truncated || !/^image\//i.test(String(res.headers['content-type'] ?? '')))
    throw new ImageSourceError('The photo could not be downloaded.', 'unavailable')
  return res.bytes
}

/** `exclude`: photo pages already used in this post (each image is a different photo). */
export async function stockPhoto(query: string, exclude: string[] = []): Promise<Fetched> {
  const env = getEnv()
  const provider = stockProvider()
  if (provider === 'unsplash') {
    const auth = { Authorization: `Client-ID ${env.UNSPLASH_ACCESS_KEY}`, 'Accept-Version': 'v1' }
    const base = env.UNSPLASH_API_URL.replace(/\/+$/, '')
    const params = new URLSearchParams({ query, per_page: '10', orientation: 'landscape', content_filter: 'high' })
    const parsed = unsplashSearch.safeParse(await apiJson(`${base}/search/photos?${params}`, auth))
    if (!parsed.success) throw new ImageSourceError('The photo library gave an answer we could not read.', 'bad-answer')
    const photo = parsed.data.results.find((p) => !exclude.includes(p.links.html))
    if (!photo) throw new ImageSourceError(`No photo was found for “${query}”.`, 'no-result')
    const bytes = await download(photo.urls.regular)
    // Unsplash's guidelines: a download is reported to download_location (its answer is not needed).
    await guardedRequest(photo.links.download_location, {
      method: 'GET',
      headers: auth,
      timeoutMs: 10_000,
      maxBytes: 4096,
      allowPrivate: allowPrivate(),
    }).catch(() => undefined)
    return {
      bytes,
      description: photo.alt_description || photo.description || '',
      credit: {
        provider: 'unsplash',
        photographer: photo.user.name,
        photographerUrl: withUtm(photo.user.links.html),
        photoUrl: withUtm(photo.links.html),
      },
    }
  }
  if (provider === 'pexels') {
    const base = env.PEXELS_API_URL.replace(/\/+$/, '')
    const params = new URLSearchParams({ query, per_page: '10', orientation: 'landscape' })
    const parsed = pexelsSearch.safeParse(
      await apiJson(`${base}/search?${params}`, { Authorization: env.PEXELS_API_KEY ?? '' }),
    )
    if (!parsed.success) throw new ImageSourceError('The photo library gave an answer we could not read.', 'bad-answer')
    const photo = parsed.data.photos.find((p) => !exclude.includes(p.url))
    if (!photo) throw new ImageSourceError(`No photo was found for “${query}”.`, 'no-result')
    return {
      bytes: await download(photo.src.large2x),
      description: photo.alt ?? '',
      credit: {
        provider: 'pexels',
        photographer: photo.photographer,
        photographerUrl: photo.photographer_url,
        photoUrl: photo.url,
      },
    }
  }
  throw new ImageSourceError('Stock photos are not available on this workspace yet.', 'not-configured')
}
