import { eq } from 'drizzle-orm'
import {
  CONTENT_SETTINGS_LIMITS,
  CONTENT_SETTINGS_MESSAGES,
  isOwnPage,
  toImageSource,
  toneOf,
  toUnverifiedPolicy,
  type ImageSourceChoice,
  type ContentSettingsInput,
  type ContentSettingsValues,
} from './content-settings'
import { db, schema } from '#app/platform/db/client.server'
import { extractPage, PAGE_MAX_BYTES, USER_AGENT } from './research.server'
import { allowPrivateNetworks, guardedGet } from '#app/platform/security/ssrf.server'
import type { UnverifiedPolicy } from './evidence'
import { stockProvider } from './images/sources.server'

/**
 * Reading and saving a user's business context and voice (/settings/content and /api/settings/content). A writing
 * sample can be pasted or read from a page of the user's own website, fetched through the SSRF guard (vetted
 * addresses, no redirects, a time limit and a size cap) and reduced to its main text with the research's parser.
 */
export const SAMPLE_TIMEOUT_MS = 5_000

export type ContentSettingsView = ContentSettingsValues & {
  unverifiedClaims: UnverifiedPolicy
  imageSource: ImageSourceChoice
  updatedAt: string | null
}

/** The user's row with their content settings (null when none were saved): one read for the screen and the engine. */
export async function userWithContentSettings(userId: string) {
  const [row] = await db
    .select({ user: schema.users, settings: schema.contentSettings })
    .from(schema.users)
    .leftJoin(schema.contentSettings, eq(schema.contentSettings.userId, schema.users.id))
    .where(eq(schema.users.id, userId))
    .limit(1)
  return row ?? null
}

/** The voice a user's posts are written in: their saved settings, or the defaults when they saved none. */
export function voiceOf(s: typeof schema.contentSettings.$inferSelect | null) {
  return {
    valueProposition: s?.valueProposition ?? '',
    ctaText: s?.ctaText ?? '',
    ctaUrl: s?.ctaUrl ?? '',
    tone: toneOf(s?.tone),
    toneNotes: s?.toneNotes ?? '',
    avoid: s?.avoid ?? '',
    writingSample: s?.writingSample ?? '',
  }
}

export async function getContentSettings(userId: string): Promise<ContentSettingsView | null> {
  const row = await userWithContentSettings(userId)
  if (!row) return null
  const s = row.settings
  return {
    productService: row.user.productService ?? '',
    marketSegment: row.user.marketSegment ?? '',
    website: row.user.website ?? '',
    ...voiceOf(s),
    writingSampleUrl: s?.writingSampleUrl ?? '',
    unverifiedClaims: toUnverifiedPolicy(s?.unverifiedClaims),
    imageSource: toImageSource(s?.imageSource),
    updatedAt: s?.updatedAt.toISOString() ?? null,
  }
}

/**
 * What the user chose for a figure, date or quotation that cannot be verified on the page it cites: 'rewrite' (the
 * default, also when nothing was saved), 'remove' or 'mark'. For the content pipeline.
 */
/** Where the user's post images come from ('generated' when nothing was saved). */
export async function imageSourceOf(userId: string): Promise<ImageSourceChoice> {
  const [row] = await db
    .select({ source: schema.contentSettings.imageSource })
    .from(schema.contentSettings)
    .where(eq(schema.contentSettings.userId, userId))
    .limit(1)
  return toImageSource(row?.source)
}

export async function unverifiedPolicyOf(userId: string): Promise<UnverifiedPolicy> {
  const [row] = await db
    .select({ policy: schema.contentSettings.unverifiedClaims })
    .from(schema.contentSettings)
    .where(eq(schema.contentSettings.userId, userId))
    .limit(1)
  return toUnverifiedPolicy(row?.policy)
}

/** The main text of a page of the user's own site, or null when it cannot be read. */
export async function fetchWritingSample(url: string): Promise<string | null> {
  try {
    const res = await guardedGet(url, {
      timeoutMs: SAMPLE_TIMEOUT_MS,
      maxBytes: PAGE_MAX_BYTES,
      headers: { 'User-Agent': USER_AGENT, Accept: 'text/html,application/xhtml+xml' },
      allowPrivate: allowPrivateNetworks('research'),
    })
    if (res.status < 200 || res.status >= 300) return null
    if (!/text\/html|application\/xhtml\+xml/i.test(String(res.headers['content-type'] ?? ''))) return null
    const text = extractPage(res.body).text.trim()
    if (text.split(/\s+/).length < 20) return null
    return text.slice(0, CONTENT_SETTINGS_LIMITS.writingSample)
  } catch {
    return null
  }
}

export type SaveResult =
  | { ok: true; settings: ContentSettingsView }
  /** A refusal: its message, and the form's field it is about (the sample page), if any. */
  | { ok: false; status: 400 | 404; message: string; field?: 'writingSampleUrl' | 'imageSource' }

/**
 * Saves settings checked by `contentSettingsSchema` (the form and the API parse it). A sample URL is read when it is
 * new or when no sample text was given; a page that cannot be read is an error of that field and nothing is written.
 */
export async function saveContentSettings(userId: string, input: ContentSettingsInput): Promise<SaveResult> {
  const current = await getContentSettings(userId)
  if (!current) return { ok: false, status: 404, message: 'User not found.' }

  // Stock photos need a photo library's key on this server; a saved 'stock' stays (its posts say what happened).
  if (input.imageSource === 'stock' && current.imageSource !== 'stock' && !stockProvider())
    return { ok: false, status: 400, message: CONTENT_SETTINGS_MESSAGES.stockUnavailable, field: 'imageSource' }

  let writingSample = input.writingSample
  if (input.writingSampleUrl) {
    const fail = (message: string): SaveResult => ({ ok: false, status: 400, message, field: 'writingSampleUrl' })
    if (!input.website) return fail(CONTENT_SETTINGS_MESSAGES.sampleNoWebsite)
    if (!isOwnPage(input.writingSampleUrl, input.website)) return fail(CONTENT_SETTINGS_MESSAGES.sampleNotOwn)
    if (input.writingSampleUrl !== current.writingSampleUrl || !writingSample) {
      const text = await fetchWritingSample(input.writingSampleUrl)
      if (text === null) return fail(CONTENT_SETTINGS_MESSAGES.sampleUnreadable)
      writingSample = text
    }
  }

  const values = {
    valueProposition: input.valueProposition,
    ctaText: input.ctaText,
    ctaUrl: input.ctaUrl,
    tone: input.tone,
    toneNotes: input.toneNotes,
    avoid: input.avoid,
    writingSample,
    writingSampleUrl: input.writingSampleUrl || null,
    unverifiedClaims: input.unverifiedClaims ?? current.unverifiedClaims,
    imageSource: input.imageSource ?? current.imageSource,
    updatedAt: new Date(),
  }
  await db.transaction(async (tx) => {
    await tx
      .update(schema.users)
      .set({
        productService: input.productService,
        marketSegment: input.marketSegment,
        website: input.website || null,
        updatedAt: new Date(),
      })
      .where(eq(schema.users.id, userId))
    await tx
      .insert(schema.contentSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: schema.contentSettings.userId, set: values })
  })
  return { ok: true, settings: (await getContentSettings(userId))! }
}
