import { and, asc, eq } from 'drizzle-orm'
import {
  httpsRequired,
  KIND_LABELS,
  SECRET_FIELD,
  SECRET_LABEL,
  type DestinationInput,
  type DestinationKind,
} from './publishing'
import { DecryptError, decryptSecret, encryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { insecureUrlRefused, isLoopbackHost, savedForWords, siteKey, siteUrlOf } from './site-key'
import { ghostClient, type GhostConfig } from './ghost.server'
import { PublishError, safeHost } from './http.server'
import type { ClientOptions, DestinationClient } from './types'
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
        imageField: input.imageField,
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
  opts: ClientOptions = {},
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

/**
 * Plain http to a loopback site (127.0.0.0/8, ::1, localhost) is allowed on a development server, and on a server
 * that is itself reached over http on loopback (APP_URL, as the test, bench and soak runs serve the production build):
 * such a server has no customer whose password could cross a network. Everywhere else a site address is https.
 */
export function loopbackHttpAllowed(): boolean {
  const env = getEnv()
  if (env.NODE_ENV !== 'production') return true
  try {
    const app = new URL(env.APP_URL)
    return app.protocol === 'http:' && isLoopbackHost(app.hostname)
  } catch {
    return false
  }
}

const URL_FIELD = { wordpress: 'siteUrl', ghost: 'adminUrl' } as const
const URL_LABEL = { wordpress: 'Site URL', ghost: 'Admin API URL' } as const

/**
 * The client of a saved destination. Refused without a request (PublishError, never retried) when the stored secret
 * was entered for another site than the one configured now (`credentials_for`; rows saved before it existed, null,
 * count as bound to their current configuration) or when the site's address is not https.
 */
export function destinationClient(d: Destination, opts: ClientOptions = {}) {
  const config = d.config as Record<string, unknown>
  if (d.credentialsFor && d.credentialsFor !== siteKey(d.kind, config))
    throw new PublishError(
      `The saved ${SECRET_LABEL[d.kind]} was entered for another site. Edit the destination and enter it again.`,
      'auth',
      false,
    )
  const url = siteUrlOf(d.kind, config)
  if (url && insecureUrlRefused(url, loopbackHttpAllowed()))
    throw new PublishError(
      'The site address must start with https://. Edit the destination and enter its https:// address.',
      'blocked',
      false,
    )
  return clientFor(d.kind, config, decryptSecret(d.credentials), opts)
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
 * secret keeps the stored one only while the site stays the same (`siteKey`: address and user): a new address or
 * user needs the secret again, refused before any request, so a stored secret never reaches another site.
 */
export async function saveDestination(userId: string, input: DestinationInput, id?: string): Promise<SaveResult> {
  const existing = id ? await getDestination(userId, id) : null
  if (id && !existing) return { ok: false, status: 404, message: 'Destination not found.' }
  if (existing && existing.kind !== input.kind)
    return { ok: false, status: 400, field: 'kind', message: 'The kind of a destination cannot change.' }

  let config = configOf(input)
  if (input.kind !== 'webflow' && insecureUrlRefused(siteUrlOf(input.kind, config)!, loopbackHttpAllowed()))
    return { ok: false, status: 400, field: URL_FIELD[input.kind], message: httpsRequired(URL_LABEL[input.kind]) }

  const secretField = SECRET_FIELD[input.kind]
  const secretLabel = SECRET_LABEL[input.kind]
  let secret = secretOf(input)
  if (!secret && existing) {
    const existingConfig = existing.config as Record<string, unknown>
    // Rows saved before `credentials_for` existed count as bound to the configuration they hold.
    const boundTo = existing.credentialsFor ?? siteKey(existing.kind, existingConfig)
    if (boundTo !== siteKey(input.kind, config))
      return {
        ok: false,
        status: 400,
        field: secretField,
        message: `Enter the ${secretLabel} again: it was saved for ${savedForWords(existing.kind, existingConfig)}.`,
      }
    try {
      secret = decryptSecret(existing.credentials)
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error
      console.error('[publishing] a saved destination secret could not be decrypted', { destinationId: existing.id })
      return {
        ok: false,
        status: 400,
        field: secretField,
        message: `Enter the ${secretLabel} again: the saved one can no longer be read.`,
      }
    }
  }
  if (!secret) return { ok: false, status: 400, field: secretField, message: `${secretLabel} is required.` }

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
    // The site this secret was just tested on: the only one it will be sent to.
    credentialsFor: siteKey(input.kind, config),
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
    const config = { ...(d.config as Record<string, unknown>), ...tested.config }
    await db
      .update(schema.destinations)
      .set({
        lastCheckedAt: new Date(),
        lastCheckError: null,
        config,
        // Re-tested on this site (older rows without `credentials_for` get it here).
        credentialsFor: siteKey(d.kind, config),
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
