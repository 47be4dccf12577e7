import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'

type KeywordSource = (typeof schema.savedKeywords.$inferInsert)['source']

type KeywordValues = Partial<typeof schema.savedKeywords.$inferInsert>

/** Saved keywords for the United States in English (or as `values` says), as a search would have saved them. */
export async function addKeywords(user: { id: string }, keywords: string[], values: KeywordValues = {}) {
  return db
    .insert(schema.savedKeywords)
    .values(
      keywords.map((keyword) => ({
        userId: user.id,
        keyword,
        countryCode: '2840',
        countryName: 'United States',
        languageCode: '1000',
        languageName: 'English',
        source: 'ai_estimate' as KeywordSource,
        ...values,
      })),
    )
    .returning()
}

/** A saved keyword for the United States in the given language, as a search with that source would have saved it. */
export async function addKeyword(
  user: { id: string },
  keyword: string,
  languageName = 'English',
  source: KeywordSource = 'ai_estimate',
) {
  const [row] = await addKeywords(user, [keyword], { languageName, source })
  return row!
}

/** A post's row as stored now. */
export async function postRow(postId: string) {
  const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
  return row
}

/** Auto Pilot on for the user, with a webhook (every user has a settings row: this updates it, or makes it). */
export async function autopilotWithWebhook(user: { id: string }, webhookUrl = 'https://hooks.example.com/in') {
  const settings = { userId: user.id, enabled: true, webhookUrl, webhookSecret: 'whsec_c2VjcmV0' }
  await db
    .insert(schema.autopilotSettings)
    .values(settings)
    .onConflictDoUpdate({ target: schema.autopilotSettings.userId, set: settings })
}

type DeliveryValues = Partial<typeof schema.webhookDeliveries.$inferInsert>

/** A webhook delivery still on its way (pending), as the Auto Pilot webhook's queue records one. */
export async function pendingDelivery(user: { id: string }, values: DeliveryValues = {}) {
  const [row] = await db
    .insert(schema.webhookDeliveries)
    .values({
      userId: user.id,
      messageId: `msg_${crypto.randomUUID()}`,
      eventType: 'test',
      url: 'https://hooks.example.com/in',
      body: '{}',
      status: 'pending',
      ...values,
    })
    .returning()
  return row!
}
