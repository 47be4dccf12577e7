import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import { DAY_MS } from './autopilot'
import { isAutopilotScheduled, scheduleAutopilot, unscheduleAutopilot } from './jobs/autopilot.server'
import { generateWebhookSecret, SECRET_PREFIX } from '#app/platform/webhooks/signing.server'
import { currentSecretPrefix, decryptSecret, encryptSecret } from '#app/platform/security/crypto.server'
import { canUseAutopilot } from '#app/features/billing/billing.server'
import { db, schema } from '#app/platform/db/client.server'

/**
 * Auto Pilot's settings, below publishing: the per-user row, the switch (with the BullMQ job scheduler that runs
 * Auto Pilot on its cadence), the cadence and the webhook endpoint. Publishing may pause Auto Pilot through here;
 * the run itself (app/features/autopilot/autopilot.server.ts) sits above publishing.
 */

export type AutopilotSettings = typeof schema.autopilotSettings.$inferSelect

/** The user's Auto Pilot settings row, or null when the user never opened Auto Pilot. */
export async function findAutopilotSettings(userId: string): Promise<AutopilotSettings | null> {
  const [row] = await db
    .select()
    .from(schema.autopilotSettings)
    .where(eq(schema.autopilotSettings.userId, userId))
    .limit(1)
  return row ?? null
}

type Settings = AutopilotSettings

// ---------------------------------------------------------------------------
// The webhook's signing secret, encrypted at rest (issue 33)
// ---------------------------------------------------------------------------

/** A new signing secret as stored: encrypted like CMS credentials (the user sees and signs with the `whsec_` value). */
function newStoredSecret() {
  return encryptSecret(generateWebhookSecret())
}

/** A value stored before issue 33: the `whsec_` secret itself (encrypted by `encryptStoredWebhookSecrets`). */
function isPlaintextSecret(stored: string) {
  return stored.startsWith(SECRET_PREFIX)
}

/**
 * The signing secret (`whsec_…`) of a settings row, as the user sees it and deliveries sign with; null when there is
 * none. Throws DecryptError when it was encrypted with a key no longer configured (rotating it makes a new one).
 */
export function webhookSecretOf(settings: Pick<Settings, 'webhookSecret'>): string | null {
  const stored = settings.webhookSecret
  if (!stored) return null
  return isPlaintextSecret(stored) ? stored : decryptSecret(stored)
}

/**
 * Encrypts signing secrets stored in plain text (rows from before issue 33) and re-encrypts those written with an
 * older key (ENCRYPTION_KEY rotation). Run by every worker at start: each row is replaced only if it still holds
 * the value read (compare and set), so two processes at once never encrypt a value twice, and a second run finds
 * nothing to do. A value no configured key opens is left as it is (rotating the secret replaces it).
 */
export async function encryptStoredWebhookSecrets(): Promise<{ encrypted: number; unreadable: number }> {
  const prefix = currentSecretPrefix()
  const rows = await db
    .select({ userId: schema.autopilotSettings.userId, stored: schema.autopilotSettings.webhookSecret })
    .from(schema.autopilotSettings)
    .where(
      and(
        isNotNull(schema.autopilotSettings.webhookSecret),
        sql`left(${schema.autopilotSettings.webhookSecret}, ${prefix.length}) <> ${prefix}`,
      ),
    )
  let encrypted = 0
  let unreadable = 0
  for (const row of rows) {
    let plain: string
    try {
      plain = webhookSecretOf({ webhookSecret: row.stored })!
    } catch {
      unreadable++
      continue
    }
    const updated = await db
      .update(schema.autopilotSettings)
      .set({ webhookSecret: encryptSecret(plain) })
      .where(
        and(eq(schema.autopilotSettings.userId, row.userId), eq(schema.autopilotSettings.webhookSecret, row.stored!)),
      )
      .returning({ userId: schema.autopilotSettings.userId })
    encrypted += updated.length
  }
  return { encrypted, unreadable }
}

/** The user's settings row (created on first use). */
export async function getSettings(userId: string): Promise<Settings> {
  let row = await findAutopilotSettings(userId)
  if (!row) {
    await db.insert(schema.autopilotSettings).values({ userId }).onConflictDoNothing()
    row = await findAutopilotSettings(userId)
  }
  if (!row) throw new Error(`no autopilot settings for user ${userId}`)
  return row
}

/** Writes part of the user's settings row (created on first use). */
export async function updateSettings(userId: string, values: Partial<typeof schema.autopilotSettings.$inferInsert>) {
  await getSettings(userId)
  const [row] = await db
    .update(schema.autopilotSettings)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.autopilotSettings.userId, userId))
    .returning()
  return row!
}

// ---------------------------------------------------------------------------
// The schedule
// ---------------------------------------------------------------------------

/** When the latest run that wrote a post started, so re-enabling or a new cadence does not write an extra post. */
async function lastPostRunAt(userId: string) {
  const [row] = await db
    .select({ at: schema.autopilotRuns.createdAt })
    .from(schema.autopilotRuns)
    .where(and(eq(schema.autopilotRuns.userId, userId), eq(schema.autopilotRuns.status, 'completed')))
    .orderBy(desc(schema.autopilotRuns.createdAt))
    .limit(1)
  return row?.at ?? null
}

/**
 * Creates or updates the user's job scheduler: every `cadenceDays` days, the first run as soon as the cadence
 * allows (at once for a new user). Lives in Redis, so it survives restarts of web and worker processes.
 */
export async function scheduleRuns(userId: string, cadenceDays: number) {
  const last = await lastPostRunAt(userId)
  const startDate = Math.max(Date.now(), last ? last.getTime() + cadenceDays * DAY_MS : 0)
  await scheduleAutopilot(userId, { everyMs: cadenceDays * DAY_MS, startDate })
}

export async function unscheduleRuns(userId: string) {
  await unscheduleAutopilot(userId)
}

/** Recreates missing schedulers of enabled users (after Redis lost its data) and drops orphans. Run by the worker at start. */
export async function restoreSchedules() {
  const enabled = await db
    .select({ userId: schema.autopilotSettings.userId, cadenceDays: schema.autopilotSettings.cadenceDays })
    .from(schema.autopilotSettings)
    .where(eq(schema.autopilotSettings.enabled, true))
  let restored = 0
  for (const row of enabled) {
    if (!(await isAutopilotScheduled(row.userId))) {
      await scheduleRuns(row.userId, row.cadenceDays)
      restored++
    }
  }
  return { enabled: enabled.length, restored }
}

// ---------------------------------------------------------------------------
// Settings changed by the user
// ---------------------------------------------------------------------------

export type ToggleResult = { ok: true; enabled: boolean } | { ok: false; reason: 'plan' | 'unverified' | 'unavailable' }

/** Switches Auto Pilot on (secret on first use, scheduler) or off (scheduler removed, data kept). */
async function emailVerified(userId: string) {
  const [row] = await db
    .select({ at: schema.users.emailVerifiedAt })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
    .limit(1)
  return Boolean(row?.at)
}

export async function setAutopilotEnabled(userId: string, enabled: boolean): Promise<ToggleResult> {
  if (enabled && !(await canUseAutopilot(userId))) return { ok: false, reason: 'plan' }
  // Publishing to someone's site is the one thing an unverified account may not do (docs/decisions/0130).
  if (enabled && !(await emailVerified(userId))) return { ok: false, reason: 'unverified' }
  const before = await getSettings(userId)
  const settings = await updateSettings(userId, {
    enabled,
    webhookSecret: before.webhookSecret ?? (enabled ? newStoredSecret() : null),
    ...(enabled ? { notice: null } : {}),
  })
  try {
    if (enabled) await scheduleRuns(userId, settings.cadenceDays)
    else await unscheduleRuns(userId)
    // Two quick switches (two tabs) may have crossed: make the scheduler match what the database says now.
    const now = await getSettings(userId)
    const exists = await isAutopilotScheduled(userId)
    if (now.enabled && !exists) await scheduleRuns(userId, now.cadenceDays)
    if (!now.enabled && exists) await unscheduleRuns(userId)
  } catch (error) {
    console.error('[autopilot] could not change the schedule', error)
    await updateSettings(userId, { enabled: before.enabled }).catch(() => {})
    return { ok: false, reason: 'unavailable' }
  }
  return { ok: true, enabled }
}

export async function setCadence(userId: string, cadenceDays: number) {
  const settings = await updateSettings(userId, { cadenceDays })
  if (settings.enabled) await scheduleRuns(userId, cadenceDays)
  return settings
}

/** Saves the webhook URL (validated by `webhookUrlForm`); saving re-enables an endpoint disabled after failures. */
export async function saveWebhookUrl(userId: string, url: string) {
  const before = await getSettings(userId)
  await updateSettings(userId, {
    webhookUrl: url,
    webhookSecret: before.webhookSecret ?? newStoredSecret(),
    webhookDisabledAt: null,
    webhookDisabledReason: null,
    webhookFailingSince: null,
  })
}

export async function reenableWebhook(userId: string) {
  await updateSettings(userId, { webhookDisabledAt: null, webhookDisabledReason: null, webhookFailingSince: null })
}

/** A new signing secret; resolves to it (`whsec_…`, as the user copies it). */
export async function rotateWebhookSecret(userId: string) {
  const secret = generateWebhookSecret()
  await updateSettings(userId, { webhookSecret: encryptSecret(secret) })
  return secret
}

/** Switches Auto Pilot off with a notice the user sees on /autopilot. */
export async function pauseAutopilot(userId: string, notice: string) {
  const settings = await findAutopilotSettings(userId)
  if (!settings?.enabled) return false
  await setAutopilotEnabled(userId, false)
  await db
    .update(schema.autopilotSettings)
    .set({ notice, updatedAt: new Date() })
    .where(eq(schema.autopilotSettings.userId, userId))
  return true
}
