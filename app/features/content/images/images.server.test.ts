import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { ALT_MAX, altText, figureIds, figureSections, imagePrompt, placeFigures, withoutFigures } from './images'
import { ImageRefusedError, processImage, TRAINED_ALGORITHMIC_MEDIA } from './processing.server'

const id1 = '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b'
const id2 = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'

async function photo(width: number, height: number) {
  // Noise so that the encoders have real work (and EXIF that must not survive).
  const raw = Buffer.alloc(width * height * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .withExif({ IFD0: { Copyright: 'Someone', Model: 'Camera' } })
    .jpeg({ quality: 95 })
    .toBuffer()
}

describe('processImage', () => {
  it('featured: 1200×630 WebP and JPEG under the limit, EXIF gone, the AI-made XMP in both', async () => {
    const input = await photo(2000, 1400)
    const out = await processImage(input, {
      role: 'featured',
      metadata: { description: 'A desk with a laptop', origin: 'generated', credit: 'Generated with gpt-image-1' },
      maxBytes: 600_000,
    })
    expect([out.width, out.height]).toEqual([1200, 630])
    for (const [format, file] of [
      ['webp', out.webp],
      ['jpeg', out.jpeg],
    ] as const) {
      const meta = await sharp(file).metadata()
      expect(meta.format).toBe(format)
      expect([meta.width, meta.height]).toEqual([1200, 630])
      expect(file.byteLength).toBeLessThanOrEqual(600_000)
      expect(meta.exif).toBeUndefined()
      const xmp = meta.xmp!.toString()
      expect(xmp).toContain(
        `<Iptc4xmpExt:DigitalSourceType>${TRAINED_ALGORITHMIC_MEDIA}</Iptc4xmpExt:DigitalSourceType>`,
      )
      expect(xmp).toContain('A desk with a laptop')
      expect(xmp).toContain('<photoshop:Credit>Generated with gpt-image-1</photoshop:Credit>')
    }
  })

  it('figures keep their proportions, at most 1200 wide, never enlarged; uploads carry no AI marker', async () => {
    const big = await processImage(await photo(2400, 1800), {
      role: 'figure',
      metadata: { description: 'x', origin: 'upload' },
      maxBytes: 600_000,
    })
    expect([big.width, big.height]).toEqual([1200, 900])
    expect((await sharp(big.jpeg).metadata()).xmp?.toString() ?? '').not.toContain('DigitalSourceType')
    const small = await processImage(await photo(640, 480), {
      role: 'figure',
      metadata: { description: 'x', origin: 'stock' },
      maxBytes: 600_000,
    })
    expect([small.width, small.height]).toEqual([640, 480])
  })

  it('lowers the quality until the files fit, and refuses what cannot fit or is no image', async () => {
    const input = await photo(2000, 1400)
    const tight = await processImage(input, {
      role: 'featured',
      metadata: { description: 'x', origin: 'upload' },
      maxBytes: 200_000,
    })
    expect(tight.jpeg.byteLength).toBeLessThanOrEqual(200_000)
    await expect(
      processImage(input, { role: 'featured', metadata: { description: 'x', origin: 'upload' }, maxBytes: 2_000 }),
    ).rejects.toMatchObject({ reason: 'too-large' })
    await expect(
      processImage(Buffer.from('<html>not an image</html>'), {
        role: 'featured',
        metadata: { description: 'x', origin: 'upload' },
        maxBytes: 600_000,
      }),
    ).rejects.toBeInstanceOf(ImageRefusedError)
  })
})

describe('alt text, prompts and figures', () => {
  it('alt text: plain, at most 125 characters, never "image of"', () => {
    expect(altText('Image of a **desk** with a [laptop](https://x.example) <b>and</b> notes')).toBe(
      'A desk with a laptop and notes',
    )
    expect(altText('a photo of two people', 'Email marketing')).toBe('Two people: Email marketing')
    const long = altText('word '.repeat(60))
    expect(long.length).toBeLessThanOrEqual(ALT_MAX)
    expect(long.endsWith(' ')).toBe(false)
  })

  it('the prompt describes the subject and forbids text in the image', () => {
    const p = imagePrompt({
      title: 'Email marketing for bakeries',
      keyword: 'email marketing',
      section: 'How to set up your list',
    })
    expect(p).toContain('How to set up your list (email marketing)')
    expect(p).toContain('Email marketing for bakeries')
    expect(p).toMatch(/No text, no letters/)
  })

  it('figures: at most two, where a picture helps, never the first section, never adjacent', () => {
    const s = (heading: string) => ({ heading, keyPoints: [] })
    expect(figureSections([s('Why it matters'), s('Pricing')])).toEqual([])
    expect(
      figureSections([
        s('How to set up a list'),
        s('Why it matters'),
        s('Step by step: the workflow'),
        s('Examples of good emails'),
        s('Budget'),
        s('Tools compared'),
      ]),
    ).toEqual([2, 5])
  })

  it('places figures after the first paragraph of their section, idempotently', () => {
    const md = '# T\n\nIntro.\n\n## One\n\nFirst para\nstill first.\n\nSecond.\n\n## Two\n\n### Sub\n\nPara two.\n'
    const placed = placeFigures(md, [
      { position: 1, imageId: id2, alt: 'Two [x]' },
      { position: 0, imageId: id1, alt: 'One' },
    ])
    expect(placed).toBe(
      `# T\n\nIntro.\n\n## One\n\nFirst para\nstill first.\n\n![One](/images/${id1}.jpg)\n\nSecond.\n\n## Two\n\n### Sub\n\nPara two.\n\n![Two x](/images/${id2}.jpg)\n`,
    )
    expect(
      placeFigures(placed, [
        { position: 0, imageId: id1, alt: 'One' },
        { position: 1, imageId: id2, alt: 'Two [x]' },
      ]),
    ).toBe(placed)
    expect(figureIds(placed)).toEqual([id1, id2])
    expect(withoutFigures(placed)).toBe(md)
  })
})
