import { and, desc, eq, gte, inArray, isNotNull, isNull, lt } from 'drizzle-orm'
import { autopilotSlots, type CalendarEntry } from './calendar'
import { findAutopilotSettings } from '#app/features/autopilot/settings/settings.server'
import { db, schema } from '#app/platform/db/client.server'

/**
 * What the calendar shows for a user in [from, to): Auto Pilot's upcoming slots, drafts waiting for review,
 * scheduled posts and published posts with their destinations. Four queries, whatever the number of posts.
 */
export async function calendarEntries(
  userId: string,
  from: Date,
  to: Date,
  now = new Date(),
): Promise<CalendarEntry[]> {
  const posts = schema.blogPosts
  const settings = await findAutopilotSettings(userId)
  const entries: CalendarEntry[] = []

  if (settings?.enabled) {
    const [last] = await db
      .select({ at: schema.autopilotRuns.createdAt })
      .from(schema.autopilotRuns)
      .where(and(eq(schema.autopilotRuns.userId, userId), eq(schema.autopilotRuns.status, 'completed')))
      .orderBy(desc(schema.autopilotRuns.createdAt))
      .limit(1)
    for (const at of autopilotSlots({ lastRunAt: last?.at ?? null, cadenceDays: settings.cadenceDays, now, from, to }))
      entries.push({
        id: `slot-${at.getTime()}`,
        kind: 'slot',
        at: at.toISOString(),
        title: 'Auto Pilot writes a post',
      })
  }

  /** The user's posts whose `column` falls in [from, to). */
  const inWindow = (column: typeof posts.scheduledPublishAt | typeof posts.publishedAt) =>
    and(eq(posts.userId, userId), isNull(posts.deletingAt), isNotNull(column), gte(column, from), lt(column, to))
  const scheduled = await db
    .select({ id: posts.id, title: posts.title, keyword: posts.keyword, at: posts.scheduledPublishAt })
    .from(posts)
    .where(inWindow(posts.scheduledPublishAt))
  for (const p of scheduled)
    entries.push({
      id: `scheduled-${p.id}`,
      kind: 'scheduled',
      at: p.at!.toISOString(),
      title: p.title || p.keyword,
      postId: p.id,
    })

  const waiting = await db
    .select({
      id: posts.id,
      title: posts.title,
      keyword: posts.keyword,
      at: posts.completedAt,
      created: posts.createdAt,
    })
    .from(posts)
    .where(and(eq(posts.userId, userId), eq(posts.reviewStatus, 'waiting'), isNull(posts.deletingAt)))
  for (const p of waiting) {
    const base = p.at ?? p.created
    const at =
      settings?.reviewMode === 'auto_approve' ? new Date(base.getTime() + settings.approveAfterHours * 3600_000) : base
    // A draft waiting for review stays visible on today (or on its auto-approval date) until it is decided.
    const shown = at.getTime() < now.getTime() ? now : at
    if (shown >= from && shown < to)
      entries.push({
        id: `review-${p.id}`,
        kind: 'review',
        at: shown.toISOString(),
        title: p.title || p.keyword,
        postId: p.id,
      })
  }

  const published = await db
    .select({ id: posts.id, title: posts.title, keyword: posts.keyword, at: posts.publishedAt })
    .from(posts)
    .where(inWindow(posts.publishedAt))
  const names = new Map<string, string[]>()
  if (published.length) {
    const rows = await db
      .select({ postId: schema.publications.postId, name: schema.destinations.name })
      .from(schema.publications)
      .innerJoin(schema.destinations, eq(schema.destinations.id, schema.publications.destinationId))
      .where(
        and(
          inArray(
            schema.publications.postId,
            published.map((p) => p.id),
          ),
          eq(schema.publications.status, 'published'),
        ),
      )
    for (const r of rows) names.set(r.postId, [...(names.get(r.postId) ?? []), r.name])
  }
  for (const p of published)
    entries.push({
      id: `published-${p.id}`,
      kind: 'published',
      at: p.at!.toISOString(),
      title: p.title || p.keyword,
      postId: p.id,
      destinations: names.get(p.id) ?? [],
    })

  return entries.sort((a, b) => a.at.localeCompare(b.at))
}
