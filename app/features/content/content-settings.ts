import { safeText } from '#app/platform/security/safe-text'
import { z } from 'zod'
import { UNVERIFIED_POLICIES, type UnverifiedPolicy } from './evidence'

/**
 * Business context and voice (issue 14): what every post knows about the business behind it. One zod schema for
 * the /settings/content form (form data) and PUT /api/settings/content (JSON). Product/service, ideal customer and
 * website live on the user (the profile shows them too); the rest in `content_settings`.
 */
/** The voices a post can be written in (the first is the default): the one list for the form, the API and the prompts. */
export const TONES = ['friendly', 'expert', 'direct', 'playful'] as const
export type Tone = (typeof TONES)[number]

export const TONE_OPTIONS: ReadonlyArray<{ value: Tone; label: string; hint: string }> = [
  { value: 'friendly', label: 'Friendly', hint: 'Warm and encouraging, plain words.' },
  { value: 'expert', label: 'Expert', hint: 'Precise and authoritative, explains the why.' },
  { value: 'direct', label: 'Direct', hint: 'Short sentences, no fluff, clear instructions.' },
  { value: 'playful', label: 'Playful', hint: 'Light and witty where it fits.' },
]

/** A stored tone, or the default when none was saved (or it is no longer offered). */
export function toneOf(value: string | null | undefined): Tone {
  return (TONES as readonly string[]).includes(value ?? '') ? (value as Tone) : TONES[0]
}

/**
 * What happens to a figure, date or quotation that cannot be verified on the page it cites (issue 32): the first is
 * the default. 'mark' keeps it, marked unverified, and Auto Pilot does not publish such a post.
 */
export const UNVERIFIED_POLICY_OPTIONS: ReadonlyArray<{ value: UnverifiedPolicy; label: string; hint: string }> = [
  {
    value: 'rewrite',
    label: 'Rewrite the sentence without the figure',
    hint: 'The post keeps its point, without a number it cannot back up.',
  },
  { value: 'remove', label: 'Remove the sentence', hint: 'The sentence is taken out of the post.' },
  {
    value: 'mark',
    label: 'Keep it, marked unverified (Auto Pilot will not publish the post)',
    hint: 'You check it yourself, then edit the post or publish it as it is.',
  },
]

/** A stored policy, or the default ('rewrite') when none was saved. */
export function toUnverifiedPolicy(value: string | null | undefined): UnverifiedPolicy {
  return (UNVERIFIED_POLICIES as readonly string[]).includes(value ?? '')
    ? (value as UnverifiedPolicy)
    : UNVERIFIED_POLICIES[0]
}

/** Where a post's images come from (issue 33): the first is the default. */
export const IMAGE_SOURCES = ['generated', 'stock', 'none'] as const
export type ImageSourceChoice = (typeof IMAGE_SOURCES)[number]

export const IMAGE_SOURCE_OPTIONS: ReadonlyArray<{ value: ImageSourceChoice; label: string; hint: string }> = [
  {
    value: 'generated',
    label: 'Generated',
    hint: 'An illustration made for each post by AI, marked as AI-made in the file, with alt text from the post.',
  },
  {
    value: 'stock',
    label: 'Stock photos',
    hint: 'A photo from a stock photo library, with the photographer credited as the library asks.',
  },
  { value: 'none', label: 'No images', hint: 'Posts are written without images.' },
]

export function toImageSource(value: string | null | undefined): ImageSourceChoice {
  return (IMAGE_SOURCES as readonly string[]).includes(value ?? '') ? (value as ImageSourceChoice) : IMAGE_SOURCES[0]
}

export const CONTENT_SETTINGS_LIMITS = {
  productService: 500,
  marketSegment: 500,
  website: 2000,
  valueProposition: 200,
  ctaText: 80,
  ctaUrl: 2000,
  toneNotes: 300,
  avoid: 2000,
  writingSample: 5000,
  writingSampleUrl: 2000,
} as const

export const CONTENT_SETTINGS_MESSAGES = {
  saved: 'Content settings saved. New posts use them.',
  failed: 'Failed to save your content settings.',
  sampleUnreadable: 'We could not read that page. Check the address, or paste a sample instead.',
  sampleNotOwn: 'The sample page must be on your own website.',
  sampleNoWebsite: 'Add your website first: the sample page must be on it.',
  stockUnavailable: 'Stock photos are not available on this workspace yet. Choose generated images or no images.',
} as const

const L = CONTENT_SETTINGS_LIMITS

const text = (label: string, max: number) =>
  z
    .union([z.string(), z.null()], { invalid_type_error: `${label} must be text.` })
    .optional()
    .transform((v) => (v ?? '').replace(/\r\n/g, '\n').trim())
    .pipe(safeText().max(max, `${label} must be at most ${max} characters.`))

const required = (label: string, max: number) =>
  safeText({ required_error: `${label} is required.`, invalid_type_error: `${label} must be text.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`)

const httpUrl = (label: string, example: string) =>
  text(label, L.ctaUrl).refine((v) => {
    if (!v) return true
    try {
      const u = new URL(v)
      return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname)
    } catch {
      return false
    }
  }, `Please enter a valid URL, such as ${example}.`)

export const contentSettingsSchema = z
  .object({
    productService: required('Product/Service', L.productService),
    marketSegment: required('Ideal Customer', L.marketSegment),
    website: httpUrl('Website', 'https://example.com'),
    valueProposition: text('Value proposition', L.valueProposition).refine(
      (v) => !v.includes('\n'),
      'Value proposition must be one line.',
    ),
    ctaText: text('Call to action text', L.ctaText),
    ctaUrl: httpUrl('Call to action URL', 'https://example.com/signup'),
    tone: z.enum(TONES, {
      errorMap: () => ({ message: 'Please choose a tone from the list.' }),
    }),
    toneNotes: text('Tone notes', L.toneNotes),
    avoid: text('Words and claims to avoid', L.avoid),
    writingSample: text('Writing sample', L.writingSample),
    writingSampleUrl: httpUrl('Sample page URL', 'https://example.com/blog/my-post'),
    /** Left out (an API client that does not know it): the saved choice stays. */
    unverifiedClaims: z
      .enum(UNVERIFIED_POLICIES, {
        errorMap: () => ({ message: 'Please choose what happens to a figure that cannot be verified.' }),
      })
      .optional(),
    /** Where post images come from; left out (an API client that does not know it): the saved choice stays. */
    imageSource: z
      .enum(IMAGE_SOURCES, { errorMap: () => ({ message: 'Please choose where post images come from.' }) })
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.ctaUrl && !v.ctaText)
      ctx.addIssue({ code: 'custom', path: ['ctaText'], message: 'Add the text of your call to action.' })
    if (v.ctaText && !v.ctaUrl)
      ctx.addIssue({ code: 'custom', path: ['ctaUrl'], message: 'Add the URL your call to action leads to.' })
  })
export type ContentSettingsInput = z.infer<typeof contentSettingsSchema>

/** The settings as text, as the form shows them. */
export type ContentSettingsValues = { [K in keyof ContentSettingsInput]: string }

/** Whether `url` is a page of `website` (same host, with or without www). */
export function isOwnPage(url: string, website: string): boolean {
  try {
    const bare = (h: string) => h.toLowerCase().replace(/^www\./, '')
    return bare(new URL(url).hostname) === bare(new URL(website).hostname)
  } catch {
    return false
  }
}
