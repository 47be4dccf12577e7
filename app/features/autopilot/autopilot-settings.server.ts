import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'

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
