import { isUuid } from '#app/platform/security/ids'
import { sqlClient } from '#app/platform/db/client.server'
import type { PostProgress } from '#app/ui/post-progress'
import { httpUrlOrNull } from './publishing'

/**
 * Where posts stand (issue 35, decision 0351), for the keyword rows, the library's cards and Auto Pilot's status: one
 * statement per list, whatever its length (never a query per row). The post's own columns give writing, failed,
 * waiting, scheduled and ready; the live copies come from `publications` (status 'published', with the copy's URL)
 * and from the webhook's `post.published` delivery once delivered (and not taken back by a later delivered
 * `post.unpublished`), each looked up by an index from the row that needs it.
 */

/** The webhook as a destination, in the owner's words. */
export const WEBHOOK_DESTINATION = 'your webhook'

const MAX_IDS = 500

type Row = {
  key: string
  id: string
  status: 'queued' | 'generating' | 'completed' | 'failed'
  review_status: 'waiting' | 'approved' | 'rejected' | null
  reviewed_at: Date | null
  scheduled_publish_at: Date | string | null
  seo_score: number | null
  words: number | null
  destinations: Array<{ name: string; url: string | null }> | null
  webhook: boolean
}

// The word count of a post's Markdown, as the SEO checklist counts it (`wordCount` and `markdownText` in
// seo-checklist.ts, step by step): code blocks, images, link targets, tags, heading and list markers and emphasis
// are not words; a word is what is left between spaces.
const WORD_STEPS: Array<[pattern: string, replacement: string, flags: string]> = [
  ['```.*?```', ' ', 'g'],
  ['!\\[[^]]*\\]\\([^)]*\\)', ' ', 'g'],
  ['\\[([^]]*)\\]\\([^)]*\\)', '\\1', 'g'],
  ['<[^>]+>', ' ', 'g'],
  ['^[[:space:]]{0,3}#{1,6}[[:space:]]+', '', 'gn'],
  ['^[[:space:]]*[-*+][[:space:]]+', '', 'gn'],
  ['^[[:space:]]*[0-9]+[.)][[:space:]]+', '', 'gn'],
  ['[*_`>|]', '', 'g'],
]

/**
 * The progress of the posts selected by `from` (a statement giving `key` and `id` per post: the map's key and the
 * post), for `userId`'s posts that are not being deleted.
 */
async function progressOf(
  userId: string,
  from: (q: ReturnType<typeof sqlClient>) => ReturnType<ReturnType<typeof sqlClient>>,
  opts: { words: boolean },
): Promise<Map<string, PostProgress>> {
  const q = sqlClient()
  const text = WORD_STEPS.reduce(
    (inner, [pattern, replacement, flags]) => q`regexp_replace(${inner}, ${pattern}, ${replacement}, ${flags})`,
    q`p.content_markdown`,
  )
  const words = opts.words
    ? q`case when p.status = 'completed' then regexp_count(${text}, '[^[:space:]]+') end`
    : q`null::int`
  const rows = await q<Row[]>`
    with picked as (${from(q)})
    select picked.key, p.id, p.status, p.review_status, p.reviewed_at, p.scheduled_publish_at, p.seo_score,
      ${words} as words,
      case when p.status = 'completed' then (
        select json_agg(json_build_object('name', d.name, 'url', pub.remote_url) order by pub.published_at, d.name)
        from publications pub join destinations d on d.id = pub.destination_id
        where pub.post_id = p.id and pub.status = 'published'
      ) end as destinations,
      p.status = 'completed' and exists (
        select 1 from webhook_deliveries w
        where w.message_id = 'msg_' || left(translate(encode(sha256(convert_to('post.published:' || p.id, 'UTF8')),
            'base64'), '+/', '-_'), 27)
          and w.user_id = p.user_id and w.status = 'delivered'
          and not exists (
            select 1 from webhook_deliveries u
            where u.user_id = p.user_id and u.created_at > w.updated_at and u.post_id = p.id
              and u.event_type = 'post.unpublished' and u.status = 'delivered'
          )
      ) as webhook
    from picked join blog_posts p on p.id = picked.id
    where p.user_id = ${userId} and p.deleting_at is null`
  return new Map(rows.map((r) => [r.key, toProgress(r)]))
}

function toProgress(r: Row): PostProgress {
  const reviewed = r.reviewed_at !== null || r.review_status === 'approved'
  const base = { postId: r.id, score: r.seo_score, reviewed, ...(r.words === null ? {} : { words: r.words }) }
  if (r.status === 'queued' || r.status === 'generating') return { postId: r.id, state: 'writing', reviewed: false }
  if (r.status === 'failed') return { postId: r.id, state: 'failed', reviewed: false }
  const scheduledAt = r.scheduled_publish_at ? new Date(r.scheduled_publish_at).toISOString() : undefined
  const destinations = (r.destinations ?? []).map((d) => ({ name: d.name, url: httpUrlOrNull(d.url) }))
  if (r.webhook) destinations.push({ name: WEBHOOK_DESTINATION, url: null })
  const when = scheduledAt ? { scheduledAt } : {}
  if (destinations.length > 0) return { ...base, ...when, state: 'published', destinations }
  if (r.review_status === 'waiting') return { ...base, ...when, state: 'waiting' }
  if (scheduledAt) return { ...base, state: 'scheduled', scheduledAt }
  return { ...base, state: 'ready' }
}

const validIds = (ids: string[]) => [...new Set(ids.filter(isUuid))].slice(0, MAX_IDS)

/**
 * The progress of the newest post of each of these saved keywords (a keyword without a post has no entry), by
 * keyword id. Without the word count (a row does not show it).
 */
export async function postProgressForKeywords(userId: string, keywordIds: string[]) {
  const ids = validIds(keywordIds)
  if (ids.length === 0) return new Map<string, PostProgress>()
  return progressOf(
    userId,
    (q) => q`
      select distinct on (b.keyword_id) b.keyword_id::text as key, b.id
      from blog_posts b
      where b.user_id = ${userId} and b.keyword_id = any(${ids}::uuid[]) and b.deleting_at is null
      order by b.keyword_id, b.created_at desc, b.id desc`,
    { words: false },
  )
}

/** The progress of these posts of the user (with the word count of the written ones), by post id. */
export async function postProgressForPosts(userId: string, postIds: string[]) {
  const ids = validIds(postIds)
  if (ids.length === 0) return new Map<string, PostProgress>()
  return progressOf(userId, (q) => q`select id::text as key, id from unnest(${ids}::uuid[]) as id`, { words: true })
}

/** The items (cards of posts) with the progress of each (`progress`: null for a post that is gone meanwhile). */
export async function withPostProgress<T extends { id: string }>(userId: string, items: T[]) {
  const progress = await postProgressForPosts(
    userId,
    items.map((i) => i.id),
  )
  return items.map((i) => ({ ...i, progress: progress.get(i.id) ?? null }))
}
