import { and, asc, eq } from 'drizzle-orm'
import { KIND_LABELS, SECRET_FIELD, SECRET_LABEL, type DestinationInput, type DestinationKind } from './publishing'
import { decryptSecret, encryptionConfigured, encryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import { ghostClient, type GhostConfig } from './ghost.server'
import { PublishError, safeHost, type HttpStats } from './http.server'
import type { DestinationClient } from './types'
import { webflowClient, type WebflowConfig } from './webflow.server'
import { wordpressClient, type WordPressConfig } from './wordpress.server'

/**
 * The user's publishing destinations: saved only after a successful 'Test connection', credentials encrypted at
 * rest, never sent back to the browser.
 */
export type Destination = typeof schema.destinations.$inferSelect

/** What the screens and the API may show of a destination (no credentials). */
export type DestinationView = {
  id: string
  kind: DestinationKind
  kindLabel: string
  name: string
  host: string
  config: Record<string, unknown>
  autopilot: boolean
  paused: boolean
  pausedReason: string | null
  lastCheckedAt: string | null
  lastCheckError: string | null
}

export function toView(d: Destination): DestinationView {
  const config = d.config as Record<string, unknown>
  const url = String(config.siteUrl ?? config.adminUrl ?? '')
  return {
    id: d.id,
    kind: d.kind,
    kindLabel: KIND_LABELS[d.kind],
    name: d.name,
    host: url ? safeHost(url) : String(config.siteDomain ?? 'Webflow'),
    config,
    autopilot: d.autopilot,
    paused: Boolean(d.pausedAt),
    pausedReason: d.pausedReason,
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    lastCheckError: d.lastCheckError,
  }
}

export async function listDestinations(userId: string) {
  return db
    .select()
    .from(schema.destinations)
    .where(eq(schema.destinations.userId, userId))
    .orderBy(asc(schema.destinations.createdAt))
}

export async function getDestination(userId: string, id: string) {
  const [row] = await db
    .select()
    .from(schema.destinations)
    .where(and(eq(schema.destinations.id, id), eq(schema.destinations.userId, userId)))
    .limit(1)
  return row ?? null
}

/** The non-secret configuration stored for a validated form. */
function configOf(input: DestinationInput): Record<string, unknown> {
  switch (input.kind) {
    case 'wordpress':
      return {
        siteUrl: input.siteUrl,
        username: input.username,
        postStatus: input.postStatus,
        unpublishMode: input.unpublishMode,
        categories: input.categories,
        tags: input.tags,
      } satisfies WordPressConfig
    case 'ghost':
      return {
        adminUrl: input.adminUrl,
        postStatus: input.postStatus,
        unpublishMode: input.unpublishMode,
        tags: input.tags,
      } satisfies GhostConfig
    case 'webflow':
      return {
        siteId: input.siteId,
        collectionId: input.collectionId,
        titleField: input.titleField,
        slugField: input.slugField,
        bodyField: input.bodyField,
        summaryField: input.summaryField,
        jsonLdField: input.jsonLdField,
        unpublishMode: input.unpublishMode,
      } satisfies WebflowConfig
  }
}

function secretOf(input: DestinationInput): string | undefined {
  return (input as Record<string, unknown>)[SECRET_FIELD[input.kind]] as string | undefined
}

export function clientFor(
  kind: DestinationKind,
  config: Record<string, unknown>,
  secret: string,
  opts: { stats?: HttpStats } = {},
): DestinationClient {
  switch (kind) {
    case 'wordpress':
      return wordpressClient(config as WordPressConfig, secret, opts)
    case 'ghost':
      return ghostClient(config as GhostConfig, secret, opts)
    case 'webflow':
      return webflowClient(config as WebflowConfig, secret, opts)
  }
}

export function destinationClient(d: Destination, opts: { stats?: HttpStats } = {}) {
  return clientFor(d.kind, d.config as Record<string, unknown>, decryptSecret(d.credentials), opts)
}

function defaultName(input: DestinationInput) {
  if (input.name) return input.name
  if (input.kind === 'wordpress') return `WordPress · ${safeHost(input.siteUrl)}`
  if (input.kind === 'ghost') return `Ghost · ${safeHost(input.adminUrl)}`
  return 'Webflow'
}

export type SaveResult =
  | { ok: true; destination: Destination; message: string }
  /** Refused after validation: about the whole form, or about one field (`field`, its form name). */
  | { ok: false; status: 400 | 404; message: string; field?: string }

/**
 * Creates (no `id`) or updates a destination from validated form or API input (`destinationPageForm`,
 * `destinationForm`). The connection is tested first; a failing test saves nothing and says why. On update a blank
 * secret keeps the stored one.
 */
export async function saveDestination(userId: string, input: DestinationInput, id?: string): Promise<SaveResult> {
  if (!encryptionConfigured())
    return {
      ok: false,
      status: 400,
      message: 'Publishing destinations are unavailable: the server has no ENCRYPTION_KEY to store credentials with.',
    }
  const existing = id ? await getDestination(userId, id) : null
  if (id && !existing) return { ok: false, status: 404, message: 'Destination not found.' }
  if (existing && existing.kind !== input.kind)
    return { ok: false, status: 400, field: 'kind', message: 'The kind of a destination cannot change.' }
  const secret = secretOf(input) ?? (existing ? decryptSecret(existing.credentials) : undefined)
  if (!secret)
    return {
      ok: false,
      status: 400,
      field: SECRET_FIELD[input.kind],
      message: `${SECRET_LABEL[input.kind]} is required.`,
    }

  let config = configOf(input)
  let message: string
  try {
    const tested = await clientFor(input.kind, config, secret).test()
    message = tested.message
    config = { ...config, ...tested.config }
  } catch (error) {
    return { ok: false, status: 400, message: describe(error) }
  }

  const values = {
    kind: input.kind,
    name: defaultName(input),
    config,
    credentials: encryptSecret(secret),
    autopilot: input.autopilot,
    lastCheckedAt: new Date(),
    lastCheckError: null,
    pausedAt: null,
    pausedReason: null,
    failingSince: null,
    updatedAt: new Date(),
  }
  const [row] = existing
    ? await db
        .update(schema.destinations)
        .set(values)
        .where(and(eq(schema.destinations.id, existing.id), eq(schema.destinations.userId, userId)))
        .returning()
    : await db
        .insert(schema.destinations)
        .values({ userId, ...values })
        .returning()
  return { ok: true, destination: row!, message }
}

/** 'Test connection' on a saved destination; the result is remembered for the list. */
export async function testDestination(userId: string, id: string) {
  const d = await getDestination(userId, id)
  if (!d) return null
  let result: { ok: boolean; message: string }
  try {
    const tested = await destinationClient(d).test()
    result = { ok: true, message: tested.message }
    await db
      .update(schema.destinations)
      .set({
        lastCheckedAt: new Date(),
        lastCheckError: null,
        config: { ...(d.config as object), ...tested.config },
        updatedAt: new Date(),
      })
      .where(eq(schema.destinations.id, d.id))
  } catch (error) {
    result = { ok: false, message: describe(error) }
    await db
      .update(schema.destinations)
      .set({ lastCheckedAt: new Date(), lastCheckError: result.message, updatedAt: new Date() })
      .where(eq(schema.destinations.id, d.id))
  }
  return result
}

export async function deleteDestination(userId: string, id: string) {
  const rows = await db
    .delete(schema.destinations)
    .where(and(eq(schema.destinations.id, id), eq(schema.destinations.userId, userId)))
    .returning({ id: schema.destinations.id })
  return rows.length > 0
}

/** Switches a paused destination back on (the user fixed what was wrong). */
export async function resumeDestination(userId: string, id: string) {
  const rows = await db
    .update(schema.destinations)
    .set({ pausedAt: null, pausedReason: null, failingSince: null, updatedAt: new Date() })
    .where(and(eq(schema.destinations.id, id), eq(schema.destinations.userId, userId)))
    .returning({ id: schema.destinations.id })
  return rows.length > 0
}

/** One sentence for any failure: a PublishError's own, else a generic one (never a stack or an address). */
export function describe(error: unknown): string {
  if (error instanceof PublishError) return error.message
  console.error('[publishing] unexpected error', error)
  return 'Something went wrong while talking to the site. Please try again.'
}
