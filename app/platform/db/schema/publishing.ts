/**
 * Publishing: destinations (WordPress, Ghost, Webflow) and the publications of posts on them.
 */
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt, updatedAt, id } from './columns'
import { ownerId } from './accounts'
import { blogPosts, postImages } from './content'

/** Where a user's posts are published: a WordPress site, a Ghost site or a Webflow CMS collection. */
export const destinations = pgTable(
  'destinations',
  {
    id: id(),
    userId: ownerId(),
    kind: text('kind', { enum: ['wordpress', 'ghost', 'webflow'] }).notNull(),
    name: text('name').notNull(),
    /** Settings that are not secret (site URL, user name, post status, categories, field mapping…), per kind. */
    config: jsonb('config').notNull(),
    /** The secret part (Application Password, Admin API key, API token), encrypted with crypto.server.ts. */
    credentials: text('credentials').notNull(),
    /**
     * Issue 33: what the secret was entered for (`siteKey` in destinations.server.ts: the site's origin and the user).
     * A client is only made while the config still names that site, so a changed URL never receives the old secret.
     */
    credentialsFor: text('credentials_for'),
    /** Whether Auto Pilot publishes here (manual 'Publish to…' can pick any destination). */
    autopilot: boolean('autopilot').notNull().default(true),
    /** Start of the current run of failed publications (null after a success). */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    pausedReason: text('paused_reason'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    lastCheckError: text('last_check_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('destinations_user_idx').on(t.userId)],
)

/** One row per post and destination: the remote copy's id, URL and state. */
export const publications = pgTable(
  'publications',
  {
    id: id(),
    userId: ownerId(),
    postId: uuid('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    destinationId: uuid('destination_id')
      .notNull()
      .references(() => destinations.id, { onDelete: 'cascade' }),
    /**
     * pending: a job will call the remote; published; unpublished; failed (see lastError); missing: the remote
     * copy was deleted by hand (re-created only after the user confirms).
     */
    status: text('status', { enum: ['pending', 'published', 'unpublished', 'failed', 'missing'] })
      .notNull()
      .default('pending'),
    /** What the pending job does: create or update the remote copy, or take it down. */
    action: text('action', { enum: ['publish', 'update', 'unpublish'] })
      .notNull()
      .default('publish'),
    /** Issue 33: for an 'unpublish', how this revision takes the copy down ('draft' or 'delete'), when not the destination's setting. */
    unpublishMode: text('unpublish_mode', { enum: ['draft', 'delete'] }),
    /** Bumped on every request, so a newer request gets a job of its own and an older job knows it is stale. */
    revision: integer('revision').notNull().default(1),
    remoteId: text('remote_id'),
    remoteUrl: text('remote_url'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** A claim on the remote call (worker id and time), so two workers never call the remote for one revision. */
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /**
     * Issue 33: when the claim runs out unless its holder renews it (the holder's heartbeat moves it on). Another
     * worker, or the sweep, takes over a claim only after this, whatever lease it is configured with itself.
     */
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('publications_post_destination_idx').on(t.postId, t.destinationId),
    index('publications_user_idx').on(t.userId, t.status),
  ],
)

/**
 * Issue 33: an image uploaded to a destination's media library, once per image and destination (a retry finds the
 * row, or adopts the upload it made before a crash, instead of uploading again).
 */
export const remoteMedia = pgTable(
  'remote_media',
  {
    id: id(),
    userId: ownerId(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => postImages.id, { onDelete: 'cascade' }),
    destinationId: uuid('destination_id')
      .notNull()
      .references(() => destinations.id, { onDelete: 'cascade' }),
    /** The media library's id (WordPress attachment id, Webflow asset id; Ghost has none: its URL). */
    remoteId: text('remote_id').notNull(),
    remoteUrl: text('remote_url').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('remote_media_image_destination_idx').on(t.imageId, t.destinationId)],
)
