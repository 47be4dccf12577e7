/**
 * Publishing overhead per destination: the time a publication takes in the worker's code beyond the time spent
 * waiting for the remote (measured around every HTTP exchange). Ghost and Webflow are the loopback fakes with a
 * fixed 100 ms latency per answer; WordPress is the real one (Debian's package) when it is installed.
 * Target: overhead p50 < 50 ms per destination.
 *
 * Issue 33, images: the image work per featured image (decode, resize to 1200×630, WebP + JPEG encodes with an XMP
 * packet) p50/p95, the overhead of a publication that uploads a featured image, and the process's RSS (start and
 * peak) while it makes and publishes 100 posts with featured images in a row.
 */
import crypto from 'node:crypto'
import sharp from 'sharp'
import { encryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import type { HttpStats } from '#app/features/publishing/http.server'
import { processPublication } from '#app/features/publishing/publications.server'
import { createUser } from '#app/features/accounts/users.server'
import { startWordPress, wordpressUnavailable } from '#tests/setup/wordpress'
import type { BenchContext } from './context'

const RUNS = Number(process.env.BENCH_PUBLISH_RUNS ?? 20)
const LATENCY_MS = 100

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function control(base: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/__control/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return res.json() as Promise<Record<string, string>>
}

export default async function bench(ctx: BenchContext) {
  const user = await createUser({
    email: `bench-publish-${Date.now()}@example.com`,
    name: 'Bench',
    password: 'bench-password-1',
  })
  if (!user) throw new Error('could not create the bench user')
  const ghostUrl = ctx.fakes.FAKE_GHOST_URL!
  const webflowUrl = ctx.fakes.FAKE_WEBFLOW_URL!
  const { adminApiKey } = await control(ghostUrl, 'key')
  const wf = await control(webflowUrl, 'config')
  await control(ghostUrl, 'latency', { ms: LATENCY_MS })
  await control(webflowUrl, 'latency', { ms: LATENCY_MS })

  const destinations: Array<{
    label: string
    kind: 'wordpress' | 'ghost' | 'webflow'
    config: object
    secret: string
  }> = [
    {
      label: `Ghost (fake, ${LATENCY_MS} ms/answer)`,
      kind: 'ghost',
      config: { adminUrl: ghostUrl, postStatus: 'publish', unpublishMode: 'draft', tags: [] },
      secret: adminApiKey!,
    },
    {
      label: `Webflow (fake, ${LATENCY_MS} ms/answer)`,
      kind: 'webflow',
      config: {
        siteId: wf.siteId,
        collectionId: wf.collectionId,
        titleField: 'name',
        slugField: 'slug',
        bodyField: 'post-body',
        summaryField: 'post-summary',
        unpublishMode: 'draft',
        siteDomain: 'fake-site.webflow.io',
        collectionSlug: 'blog',
      },
      secret: wf.token!,
    },
  ]
  const unavailable = process.env.BENCH_WORDPRESS === '0' ? 'BENCH_WORDPRESS=0' : wordpressUnavailable()
  const wp = unavailable ? null : await startWordPress()
  if (wp)
    destinations.push({
      label: 'WordPress (real, loopback)',
      kind: 'wordpress',
      config: {
        siteUrl: wp.url,
        username: 'admin',
        postStatus: 'publish',
        unpublishMode: 'draft',
        categories: [],
        tags: [],
      },
      secret: wp.admin.appPassword,
    })
  else console.log(`WordPress not measured: ${unavailable}`)

  try {
    console.log(
      'destination'.padEnd(34) +
        'total p50'.padStart(11) +
        'remote p50'.padStart(12) +
        'overhead p50'.padStart(14) +
        'p95'.padStart(8) +
        'calls'.padStart(7),
    )
    for (const d of destinations) {
      const [dest] = await db
        .insert(schema.destinations)
        .values({
          userId: user.id,
          kind: d.kind,
          name: d.label,
          config: d.config,
          credentials: encryptSecret(d.secret),
        })
        .returning()
      const totals: number[] = []
      const remote: number[] = []
      const overhead: number[] = []
      let calls = 0
      for (let i = 0; i < RUNS + 2; i++) {
        const tag = crypto.randomBytes(4).toString('hex')
        const [post] = await db
          .insert(schema.blogPosts)
          .values({
            userId: user.id,
            requestKey: `bench-publish-${tag}`,
            keyword: `bench ${tag}`,
            status: 'completed',
            title: `Bench post ${tag}`,
            slug: `bench-post-${tag}`,
            metaDescription: 'A benchmark post.',
            contentMarkdown: '## Hello\n\nWorld.',
            contentHtml: '<h2>Hello</h2><p>World.</p>'.repeat(40),
            completedAt: new Date(),
          })
          .returning()
        const [pub] = await db
          .insert(schema.publications)
          .values({ userId: user.id, postId: post!.id, destinationId: dest!.id, status: 'pending', action: 'publish' })
          .returning()
        const stats: HttpStats = { calls: 0, ms: 0 }
        const started = performance.now()
        const outcome = await processPublication(
          { publicationId: pub!.id, revision: 1 },
          { workerId: 'bench', attempt: 0, maxAttempts: 1, stats },
        )
        const total = performance.now() - started
        if (outcome.status !== 'published') throw new Error(`${d.label}: ${JSON.stringify(outcome)}`)
        if (i < 2) continue // warm-up
        totals.push(total)
        remote.push(stats.ms)
        overhead.push(total - stats.ms)
        calls = stats.calls
      }
      console.log(
        d.label.padEnd(34) +
          `${pct(totals, 50).toFixed(1)} ms`.padStart(11) +
          `${pct(remote, 50).toFixed(1)} ms`.padStart(12) +
          `${pct(overhead, 50).toFixed(1)} ms`.padStart(14) +
          `${pct(overhead, 95).toFixed(1)}`.padStart(8) +
          String(calls).padStart(7),
      )
    }
    console.log('target: overhead p50 < 50 ms per destination (everything but waiting for the remote)')
    await benchImages(user.id, { adminApiKey: adminApiKey!, ghostUrl })
  } finally {
    await control(ghostUrl, 'latency', { ms: 0 })
    await control(webflowUrl, 'latency', { ms: 0 })
    await wp?.stop()
  }
}

/** What the Images API hands back: a 1536×1024 PNG (a rendered scene of gradients and shapes, not flat colour). */
async function sourceImage(seed: number) {
  const shapes = Array.from({ length: 40 }, (_, i) => {
    const h = (seed * 37 + i * 53) % 360
    return `<circle cx="${(i * 97 + seed * 13) % 1536}" cy="${(i * 61 + seed * 7) % 1024}" r="${40 + ((i * 29) % 160)}" fill="hsl(${h},60%,55%)" fill-opacity="0.55"/>`
  }).join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1536" height="1024"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${seed % 360},50%,30%)"/><stop offset="1" stop-color="#f4efe6"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`
  // A little noise, as a photo-like image has: flat SVG colour would flatter the encoders.
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true })
  for (let i = 0; i < data.length; i += 7) data[i] = Math.min(255, data[i]! + ((i * 2654435761) >>> 28))
  return sharp(data, { raw: info }).png({ compressionLevel: 3 }).toBuffer()
}

const XMP =
  '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:dc="http://purl.org/dc/elements/1.1/"><Iptc4xmpExt:DigitalSourceType>http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia</Iptc4xmpExt:DigitalSourceType><dc:description><rdf:Alt><rdf:li xml:lang="x-default">A bench image</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'

/**
 * The featured image's processing. The images feature's own function (processImage) was not on main when this bench
 * was written: this is the same pipeline in sharp (rotate, cover-crop to 1200×630 by attention, flatten, sRGB, one
 * decode, then WebP q80 effort 4 and mozjpeg q82 progressive, each with the XMP packet).
 */
async function processFeatured(input: Buffer) {
  const { data, info } = await sharp(input)
    .rotate()
    .resize({ width: 1200, height: 630, fit: 'cover', position: sharp.strategy.attention })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const
  const [webp, jpeg] = await Promise.all([
    sharp(data, raw).withXmp(XMP).webp({ quality: 80, effort: 4 }).toBuffer(),
    sharp(data, raw).withXmp(XMP).jpeg({ quality: 82, mozjpeg: true, progressive: true }).toBuffer(),
  ])
  return { webp, jpeg, width: info.width, height: info.height }
}

async function storeFeatured(userId: string, postId: string, files: Awaited<ReturnType<typeof processFeatured>>) {
  const [image] = await db
    .insert(schema.postImages)
    .values({
      userId,
      postId,
      role: 'featured',
      source: 'generated',
      alt: 'A bench image',
      width: files.width,
      height: files.height,
      storage: 'postgres',
      webpBytes: files.webp.length,
      jpegBytes: files.jpeg.length,
      sha256: crypto.createHash('sha256').update(files.jpeg).digest('hex'),
    })
    .returning()
  await db.insert(schema.imageFiles).values([
    { imageId: image!.id, format: 'webp', bytes: files.webp },
    { imageId: image!.id, format: 'jpeg', bytes: files.jpeg },
  ])
}

async function benchPost(userId: string, destinationId: string) {
  const tag = crypto.randomBytes(4).toString('hex')
  const [post] = await db
    .insert(schema.blogPosts)
    .values({
      userId,
      requestKey: `bench-image-${tag}`,
      keyword: `bench image ${tag}`,
      status: 'completed',
      title: `Bench image post ${tag}`,
      slug: `bench-image-post-${tag}`,
      metaDescription: 'A benchmark post with a featured image.',
      contentMarkdown: '## Hello\n\nWorld.',
      contentHtml: '<h2>Hello</h2><p>World.</p>'.repeat(40),
      completedAt: new Date(),
    })
    .returning()
  const [pub] = await db
    .insert(schema.publications)
    .values({ userId, postId: post!.id, destinationId, status: 'pending', action: 'publish' })
    .returning()
  return { post: post!, pub: pub! }
}

async function benchImages(userId: string, ghost: { adminApiKey: string; ghostUrl: string }) {
  const IMAGE_RUNS = Number(process.env.BENCH_IMAGE_RUNS ?? 30)
  const sources = await Promise.all([0, 1, 2, 3, 4].map((i) => sourceImage(i * 71 + 5)))
  await processFeatured(sources[0]!) // warm-up
  const work: number[] = []
  let sizes = { webp: 0, jpeg: 0 }
  for (let i = 0; i < IMAGE_RUNS; i++) {
    const started = performance.now()
    const out = await processFeatured(sources[i % sources.length]!)
    work.push(performance.now() - started)
    sizes = { webp: out.webp.length, jpeg: out.jpeg.length }
  }
  console.log(
    `image work per featured image (1536×1024 PNG → 1200×630 WebP + JPEG + XMP, ${IMAGE_RUNS} runs): ` +
      `p50 ${pct(work, 50).toFixed(1)} ms, p95 ${pct(work, 95).toFixed(1)} ms ` +
      `(WebP ${(sizes.webp / 1024).toFixed(0)} KiB, JPEG ${(sizes.jpeg / 1024).toFixed(0)} KiB; target p50 < 400 ms)`,
  )

  const [dest] = await db
    .insert(schema.destinations)
    .values({
      userId,
      kind: 'ghost',
      name: 'Ghost with images',
      config: { adminUrl: ghost.ghostUrl, postStatus: 'publish', unpublishMode: 'draft', tags: [] },
      credentials: encryptSecret(ghost.adminApiKey),
    })
    .returning()

  // Publication overhead with a featured image to upload (the image already made and stored), Ghost fake at 100 ms.
  await control(ghost.ghostUrl, 'latency', { ms: LATENCY_MS })
  const overhead: number[] = []
  let calls = 0
  for (let i = 0; i < RUNS + 2; i++) {
    const { post, pub } = await benchPost(userId, dest!.id)
    await storeFeatured(userId, post.id, await processFeatured(sources[i % sources.length]!))
    const stats: HttpStats = { calls: 0, ms: 0 }
    const started = performance.now()
    const outcome = await processPublication(
      { publicationId: pub.id, revision: 1 },
      { workerId: 'bench', attempt: 0, maxAttempts: 1, stats },
    )
    if (outcome.status !== 'published') throw new Error(`Ghost with an image: ${JSON.stringify(outcome)}`)
    if (i < 2) continue
    overhead.push(performance.now() - started - stats.ms)
    calls = stats.calls
  }
  console.log(
    `publication with a featured image upload (Ghost fake, ${LATENCY_MS} ms/answer, ${calls} calls): overhead ` +
      `p50 ${pct(overhead, 50).toFixed(1)} ms, p95 ${pct(overhead, 95).toFixed(1)} ms (reading the JPEG, the multipart body)`,
  )

  // Memory: 100 posts in a row, each with its image made (processing above), stored, then published with its upload.
  await control(ghost.ghostUrl, 'latency', { ms: 0 })
  global.gc?.()
  const startRss = process.memoryUsage.rss()
  let peakRss = startRss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss())
  }, 10)
  const began = performance.now()
  try {
    for (let i = 0; i < 100; i++) {
      const { post, pub } = await benchPost(userId, dest!.id)
      await storeFeatured(userId, post.id, await processFeatured(sources[i % sources.length]!))
      const outcome = await processPublication(
        { publicationId: pub.id, revision: 1 },
        { workerId: 'bench', attempt: 0, maxAttempts: 1 },
      )
      if (outcome.status !== 'published') throw new Error(`post ${i}: ${JSON.stringify(outcome)}`)
      peakRss = Math.max(peakRss, process.memoryUsage.rss())
    }
  } finally {
    clearInterval(sampler)
  }
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`
  console.log(
    `RSS while making and publishing 100 posts with featured images in a row (${((performance.now() - began) / 1000).toFixed(1)} s): ` +
      `start ${mib(startRss)}, peak ${mib(peakRss)}, end ${mib(process.memoryUsage.rss())}`,
  )
}
