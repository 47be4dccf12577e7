import sharp, { type Sharp } from 'sharp'

/**
 * Issue 33: every image Rankwell stores is made here from whatever bytes arrived (the Images API, a stock photo, an
 * upload): decoded by sharp (anything it cannot read is refused), auto-rotated, resized to a bounded size (the
 * featured image covers 1200×630, a figure is at most 1200 wide), written as WebP and a JPEG fallback with every
 * piece of the original's metadata dropped (EXIF, GPS, ICC, XMP), and compressed under the byte limit: the quality
 * goes down until both files fit, and an image that cannot fit is refused. What we write back is our own XMP packet:
 * the description and credit, and for generated images IPTC's DigitalSourceType trainedAlgorithmicMedia.
 */
export const FEATURED_SIZE = { width: 1200, height: 630 } as const
export const FIGURE_MAX_WIDTH = 1200
/** The largest input we decode (pixels): a decompression bomb is refused before it is expanded. */
const MAX_INPUT_PIXELS = 40_000_000
const QUALITIES = [82, 74, 66, 58, 50, 42] as const

export const TRAINED_ALGORITHMIC_MEDIA = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia'
export const DIGITAL_CAPTURE = 'http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture'

export class ImageRefusedError extends Error {
  constructor(
    message: string,
    readonly reason: 'unreadable' | 'too-large',
  ) {
    super(message)
    this.name = 'ImageRefusedError'
  }
}

export type ImageMetadata = {
  /** The alt text (dc:description). */
  description: string
  /** 'generated' writes DigitalSourceType trainedAlgorithmicMedia; 'stock' digitalCapture; 'upload' none. */
  origin: 'generated' | 'stock' | 'upload'
  /** The credit line (photoshop:Credit), e.g. 'Photo by Jane Doe on Unsplash'. */
  credit?: string | null
}

export type ProcessedImage = {
  webp: Buffer
  jpeg: Buffer
  width: number
  height: number
  /** Time spent (ms): decode, resize, both encodes and the metadata. */
  ms: number
}

function xmlText(value: string): string {
  return value.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Our XMP packet: description, credit and (generated/stock) IPTC's digital source type. */
export function xmpPacket(meta: ImageMetadata): string {
  const source =
    meta.origin === 'generated' ? TRAINED_ALGORITHMIC_MEDIA : meta.origin === 'stock' ? DIGITAL_CAPTURE : null
  const parts = [
    source ? `<Iptc4xmpExt:DigitalSourceType>${source}</Iptc4xmpExt:DigitalSourceType>` : '',
    meta.description
      ? `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(meta.description)}</rdf:li></rdf:Alt></dc:description>`
      : '',
    meta.credit ? `<photoshop:Credit>${xmlText(meta.credit)}</photoshop:Credit>` : '',
    meta.origin === 'generated' ? '<xmp:CreatorTool>Rankwell (AI image generation)</xmp:CreatorTool>' : '',
  ]
  return (
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about=""' +
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' +
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"' +
    ' xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"' +
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/">' +
    parts.join('') +
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  )
}

/** Whether sharp can read the bytes as an image (and their size), without decoding the pixels. */
export async function inspectImage(input: Buffer): Promise<{ format: string; width: number; height: number }> {
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
    if (!meta.format || !meta.width || !meta.height) throw new Error('no size')
    if (!['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff'].includes(meta.format)) throw new Error('format')
    return { format: meta.format, width: meta.width, height: meta.height }
  } catch {
    throw new ImageRefusedError('The file is not an image we can use (JPEG, PNG, WebP, GIF or AVIF).', 'unreadable')
  }
}

/**
 * The stored files of an image: `role` 'featured' → exactly 1200×630 (cover crop, attention-based); 'figure' → at
 * most 1200 wide, its own proportions (never enlarged). Both formats under `maxBytes`, or ImageRefusedError.
 */
export async function processImage(
  input: Buffer,
  opts: { role: 'featured' | 'figure'; metadata: ImageMetadata; maxBytes: number },
): Promise<ProcessedImage> {
  const started = performance.now()
  await inspectImage(input)
  let base: Sharp
  try {
    base = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(
        opts.role === 'featured'
          ? { ...FEATURED_SIZE, fit: 'cover', position: sharp.strategy.attention }
          : { width: FIGURE_MAX_WIDTH, height: FIGURE_MAX_WIDTH, fit: 'inside', withoutEnlargement: true },
      )
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
    // Decode and resize once; each encode starts from the same raw pixels.
    const { data, info } = await base.raw().toBuffer({ resolveWithObject: true })
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const
    const xmp = xmpPacket(opts.metadata)
    const encode = async (format: 'webp' | 'jpeg') => {
      for (const quality of QUALITIES) {
        const pipeline = sharp(data, raw).withXmp(xmp)
        const out =
          format === 'webp'
            ? await pipeline.webp({ quality, effort: 4 }).toBuffer()
            : await pipeline.jpeg({ quality, mozjpeg: true, progressive: true }).toBuffer()
        if (out.byteLength <= opts.maxBytes) return out
      }
      throw new ImageRefusedError('The image is too large to store, even compressed.', 'too-large')
    }
    const [webp, jpeg] = await Promise.all([encode('webp'), encode('jpeg')])
    return { webp, jpeg, width: info.width, height: info.height, ms: Math.round(performance.now() - started) }
  } catch (error) {
    if (error instanceof ImageRefusedError) throw error
    throw new ImageRefusedError('The file is not an image we can use (JPEG, PNG, WebP, GIF or AVIF).', 'unreadable')
  }
}
