import { and, asc, eq, lt } from 'drizzle-orm'
import { SANITIZER_VERSION } from '#app/platform/markdown/markdown'
import { renderPostBody, sanitizeHtml } from '#app/platform/security/sanitize.server'
import { db, schema } from '#app/platform/db/client.server'
import { redis } from '#app/platform/redis.server'

const posts = schema.blogPosts

/**
 * Sanitizes again the completed posts whose stored HTML was made by older sanitizing rules (`sanitizer_version`
 * below SANITIZER_VERSION), in batches, and returns how many it rewrote. Run by the worker when it starts; views
 * never sanitize (docs/decisions/0201-sanitize-once.md).
 *
 * The stored HTML (what readers were served) is sanitized under the new rules, so a tightened rule removes what it
 * now forbids and nothing else changes; a post without stored HTML is rendered from its Markdown. Each row is
 * written only while its version is still old, so an edit saved meanwhile (which stores the current version) wins.
 */
export async function resanitizeStalePosts(opts: { batchSize?: number; maxRows?: number } = {}): Promise<number> {
  const batchSize = opts.batchSize ?? 100
  const maxRows = opts.maxRows ?? Number.POSITIVE_INFINITY
  let done = 0
  while (done < maxRows) {
    const rows = await db
      .select({
        id: posts.id,
        contentHtml: posts.contentHtml,
        contentMarkdown: posts.contentMarkdown,
        version: posts.sanitizerVersion,
      })
      .from(posts)
      .where(and(eq(posts.status, 'completed'), lt(posts.sanitizerVersion, SANITIZER_VERSION)))
      .orderBy(asc(posts.sanitizerVersion))
      .limit(Math.min(batchSize, maxRows - done))
    if (rows.length === 0) break
    for (const row of rows) {
      const contentHtml = row.contentHtml ? sanitizeHtml(row.contentHtml) : renderPostBody(row.contentMarkdown)
      // Each update awaits the database, so the event loop turns between sanitizations (jsdom frees memory then).
      await db
        .update(posts)
        .set({ contentHtml, sanitizerVersion: SANITIZER_VERSION })
        .where(and(eq(posts.id, row.id), eq(posts.sanitizerVersion, row.version)))
      done++
    }
  }
  return done
}

/**
 * Whether this process is the one to run resanitizeStalePosts for the current rules: the first worker to start after
 * SANITIZER_VERSION was raised claims it in Redis (atomically: several workers start at once in a deploy) and the
 * others skip it, so the stored posts are sanitized again by one process, once. The key is not under QUEUE_PREFIX:
 * it is about the database, which every worker shares.
 */
export async function claimResanitize(): Promise<boolean> {
  const claimed = await redis().eval(
    `local current = tonumber(redis.call('GET', KEYS[1]) or '0')
     if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) return 1 end
     return 0`,
    1,
    'rankwell:sanitizer-version',
    String(SANITIZER_VERSION),
  )
  return claimed === 1
}
