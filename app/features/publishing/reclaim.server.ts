import { and, eq, isNotNull, or } from 'drizzle-orm'
import type { AccountReclaim, HigherLeftovers } from '#app/features/accounts/account-takeover.server'
import { unscheduleRuns } from '#app/features/autopilot/settings/settings.server'
import { schema } from '#app/platform/db/client.server'

/**
 * Issue 34: what a takeover of an unverified account removes above accounts (accounts/account-takeover.server.ts
 * receives it from the route). Here, in publishing, the highest of the capabilities it touches: content settings,
 * Auto Pilot's settings and webhook, destinations and publications. Everything runs in the takeover's transaction.
 *
 * "Pending publications" are every publication that would still reach a site: publication rows in 'pending'
 * (queued, or claimed by a worker right now) and posts scheduled for later. Every destination goes, and its
 * publications and remote_media rows with it (foreign keys cascade), so a publication job already in Redis finds
 * no row and ends as stale (`claimPublication`), and a claimed one fails on its next step ('The post or the
 * destination is gone'). Webhook deliveries go with the endpoint they were addressed to, so a delivery job finds
 * nothing pending. The posts' published addresses (on the removed sites) are cleared: they would otherwise still be
 * shown as where the post lives and offered as internal links of new posts.
 */
export const reclaimLeftovers: AccountReclaim = {
  async removeLeftovers(tx, userId): Promise<HigherLeftovers> {
    const content = await tx
      .delete(schema.contentSettings)
      .where(eq(schema.contentSettings.userId, userId))
      .returning({ userId: schema.contentSettings.userId })

    const queued = await tx
      .select({ id: schema.publications.id })
      .from(schema.publications)
      .where(and(eq(schema.publications.userId, userId), eq(schema.publications.status, 'pending')))
    const scheduled = await tx
      .update(schema.blogPosts)
      .set({ scheduledPublishAt: null, scheduledTargets: null })
      .where(
        and(
          eq(schema.blogPosts.userId, userId),
          or(isNotNull(schema.blogPosts.scheduledPublishAt), isNotNull(schema.blogPosts.scheduledTargets)),
        ),
      )
      .returning({ id: schema.blogPosts.id })
    await tx
      .update(schema.blogPosts)
      .set({ publishedUrl: null, publishedAt: null })
      .where(and(eq(schema.blogPosts.userId, userId), isNotNull(schema.blogPosts.publishedUrl)))
    // Publications and remote_media rows cascade from their destination.
    const destinations = await tx
      .delete(schema.destinations)
      .where(eq(schema.destinations.userId, userId))
      .returning({ id: schema.destinations.id })

    // Auto Pilot back to off and its defaults: the row is replaced by a fresh one (the schema's defaults).
    const [autopilot] = await tx
      .delete(schema.autopilotSettings)
      .where(eq(schema.autopilotSettings.userId, userId))
      .returning()
    if (autopilot) await tx.insert(schema.autopilotSettings).values({ userId })
    await tx.delete(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.userId, userId))

    const defaults = { cadenceDays: 1, reviewMode: 'quality', minScore: 80, approveAfterHours: 24 }
    const customised =
      autopilot !== undefined &&
      (autopilot.enabled ||
        autopilot.cadenceDays !== defaults.cadenceDays ||
        autopilot.reviewMode !== defaults.reviewMode ||
        autopilot.minScore !== defaults.minScore ||
        autopilot.approveAfterHours !== defaults.approveAfterHours)
    return {
      contentSettings: content.length > 0,
      destinations: destinations.length,
      webhook: Boolean(autopilot?.webhookUrl),
      autopilot: customised,
      publications: queued.length + scheduled.length,
    }
  },
  // Auto Pilot's scheduler lives in Redis. Were this to fail, the next run finds Auto Pilot off and removes it.
  afterCommit: (userId) => unscheduleRuns(userId),
}
