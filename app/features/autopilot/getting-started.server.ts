import { eq, sql } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { gettingStartedFrom, type GettingStarted } from './getting-started'

export type { GettingStarted } from './getting-started'

const { users } = schema
/**
 * The user's id in the subqueries below, written out: drizzle leaves a column of the selected table unqualified in a
 * select list, where `id` would then name the subquery's own table's column.
 */
const uid = sql.raw('"users"."id"')

/**
 * The 'Get started' checklist's facts, read from what the user really did (one statement):
 * - verify: the address is verified;
 * - business: the business details are filled in (what you sell) and the content settings were saved once;
 * - blog: a publishing destination, or a webhook URL;
 * - write: a finished post; review: one marked as reviewed or approved; publish: one published anywhere (a live copy
 *   on a destination, or delivered to the webhook);
 * - autopilot: Auto Pilot is on.
 * Null for an unknown user or one who has not finished onboarding.
 */
export async function gettingStartedProgress(userId: string): Promise<GettingStarted | null> {
  const [row] = await db
    .select({
      onboarded: users.onboardingComplete,
      verified: sql<boolean>`${users.emailVerifiedAt} is not null`,
      hidden: sql<boolean>`${users.gettingStartedHiddenAt} is not null`,
      business: sql<boolean>`coalesce(btrim(${users.productService}), '') <> ''
        and exists (select 1 from content_settings cs where cs.user_id = ${uid})`,
      blog: sql<boolean>`exists (select 1 from destinations d where d.user_id = ${uid})
        or exists (select 1 from autopilot_settings a where a.user_id = ${uid} and coalesce(a.webhook_url, '') <> '')`,
      newestPostId: sql<string | null>`(select p.id from blog_posts p
        where p.user_id = ${uid} and p.status = 'completed' and p.deleting_at is null
        order by p.completed_at desc nulls last, p.created_at desc limit 1)`,
      reviewed: sql<boolean>`exists (select 1 from blog_posts p where p.user_id = ${uid}
        and p.deleting_at is null and (p.reviewed_at is not null or p.review_status = 'approved'))`,
      published: sql<boolean>`exists (select 1 from blog_posts p where p.user_id = ${uid}
          and p.deleting_at is null and p.published_at is not null)
        or exists (select 1 from publications pb where pb.user_id = ${uid} and pb.status = 'published')
        or exists (select 1 from webhook_deliveries w where w.user_id = ${uid}
          and w.event_type = 'post.published' and w.status = 'delivered')`,
      autopilot: sql<boolean>`exists (select 1 from autopilot_settings a where a.user_id = ${uid} and a.enabled)`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  if (!row || !row.onboarded) return null
  return gettingStartedFrom({
    verified: row.verified,
    business: row.business,
    blog: row.blog,
    newestPostId: row.newestPostId,
    reviewed: row.reviewed,
    published: row.published,
    autopilot: row.autopilot,
    hidden: row.hidden,
  })
}

/** The checklist to show: null when every step is done, it was hidden, or onboarding is not finished. */
export async function gettingStarted(userId: string): Promise<GettingStarted | null> {
  const progress = await gettingStartedProgress(userId)
  if (!progress || progress.hidden || progress.done === progress.total) return null
  return progress
}

/** 'Hide' (and 'Show the checklist again'). */
export async function setGettingStartedHidden(userId: string, hidden: boolean) {
  await db
    .update(users)
    .set({ gettingStartedHiddenAt: hidden ? sql`coalesce(${users.gettingStartedHiddenAt}, now())` : null })
    .where(eq(users.id, userId))
}
