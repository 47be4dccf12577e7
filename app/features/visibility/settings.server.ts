import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import type { AiSettingsInput } from './settings'
import { SAMPLES } from './visibility'

export type AiSettings = {
  brandAliases: string[]
  competitorDomains: string[]
  samples: number
  updatedAt: string | null
}

/** A user's AI visibility settings, or the defaults (no aliases, no competitors, 3 samples) before the first save. */
export async function getAiSettings(userId: string): Promise<AiSettings> {
  const [row] = await db
    .select()
    .from(schema.aiVisibilitySettings)
    .where(eq(schema.aiVisibilitySettings.userId, userId))
    .limit(1)
  if (!row) return { brandAliases: [], competitorDomains: [], samples: SAMPLES.default, updatedAt: null }
  return {
    brandAliases: row.brandAliases,
    competitorDomains: row.competitorDomains,
    samples: row.samples,
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** Saves what `aiSettingsSchema` parsed (the next checks match answers with it). */
export async function saveAiSettings(userId: string, input: AiSettingsInput): Promise<AiSettings> {
  const values = {
    brandAliases: input.brandAliases,
    competitorDomains: input.competitorDomains,
    samples: input.samples,
  }
  await db
    .insert(schema.aiVisibilitySettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: schema.aiVisibilitySettings.userId, set: { ...values, updatedAt: new Date() } })
  return getAiSettings(userId)
}
