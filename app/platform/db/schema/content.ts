/**
 * Content: blog posts and their versions (the shared content contract, docs/contracts.md), the business
 * context and voice, and the research and sitemap caches of the content engine.
 */
import { sql } from 'drizzle-orm'
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  primaryKey,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, updatedAt, id } from './columns'
import { ownerId, users } from './accounts'
import { savedKeywords } from './keywords'

export const postStatus = pgEnum('post_status', ['queued', 'generating', 'completed', 'failed'])

export const blogPosts = pgTable(
  'blog_posts',
  {
    id: id(),
    userId: ownerId(),
    keywordId: uuid('keyword_id').references(() => savedKeywords.id, { onDelete: 'set null' }),
    /** Idempotency key of the request that created the post (one post per request). */
    requestKey: text('request_key').notNull(),
    source: text('source', { enum: ['manual', 'autopilot'] })
      .notNull()
      .default('manual'),
    status: postStatus('status').notNull().default('queued'),
    failureReason: text('failure_reason'),
    keyword: text('keyword').notNull(),
    language: text('language').notNull().default('English'),
    title: text('title').notNull().default(''),
    slug: text('slug').notNull().default(''),
    metaDescription: text('meta_description').notNull().default(''),
    contentMarkdown: text('content_markdown').notNull().default(''),
    contentHtml: text('content_html').notNull().default(''),
    /**
     * Issue 20: the SANITIZER_VERSION (app/lib/markdown.ts) whose rules made `content_html`. The body is sanitized
     * once when written or edited; rows with an older version are sanitized again by the worker. 0: not yet.
     */
    sanitizerVersion: integer('sanitizer_version').notNull().default(0),
    model: text('model'),
    promptVersion: text('prompt_version'),
    /** Checkpointed model outputs, so a retried job resumes instead of paying twice. */
    steps: jsonb('steps').notNull().default({}),
    usage: jsonb('usage').notNull().default({}),
    timings: jsonb('timings').notNull().default({}),
    quotaRefunded: boolean('quota_refunded').notNull().default(false),
    // Shared content contract (docs/contracts.md): written by the content engine (issue 14), read by publishing
    // (15), rankings (16) and the library (21).
    /** The brief the post was written from (search intent, reader, angle, outline, questions, facts with sources). */
    brief: jsonb('brief'),
    /** How much research the brief had: 'full', 'partial' (some fetches failed) or 'none' (no search data). */
    researchStatus: text('research_status', { enum: ['full', 'partial', 'none'] }),
    /** Deterministic SEO score 0–100 (app/lib), recomputed on every save; null until scored. */
    seoScore: integer('seo_score'),
    /** The score's checklist: [{ id, label, passed, fix }]. */
    seoChecklist: jsonb('seo_checklist'),
    /**
     * The claim ledger (issue 32, `Claim` in app/features/content/evidence.ts): every sentence with a figure or a
     * quotation, its status ('verified' | 'rewritten' | 'unverified' | 'removed') and, when verified, the source
     * page and the exact sentence on it. Older rows: [{ text, sourceUrl }] (sourceUrl null = unsourced).
     */
    claims: jsonb('claims'),
    /**
     * The fact store the post was written from (`Evidence` in app/features/content/evidence.ts): the research pages
     * (read or not read, and why) and the fact sentences of the pages read, by id (F1…). Null before issue 32.
     */
    evidence: jsonb('evidence'),
    /** JSON-LD objects (Article, FAQPage) for the exported HTML, the post page and the webhook payload. */
    jsonLd: jsonb('json_ld'),
    /** Review before publishing (issue 15): null (not needed), 'waiting', 'approved' or 'rejected'. */
    reviewStatus: text('review_status', { enum: ['waiting', 'approved', 'rejected'] }),
    /** The canonical public URL once a destination has published the post (issue 15); read by 14 and 16. */
    publishedUrl: text('published_url'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** A publication planned for later (issue 15): when, and where ('webhook' or destination ids). */
    scheduledPublishAt: timestamp('scheduled_publish_at', { withTimezone: true }),
    scheduledTargets: jsonb('scheduled_targets'),
    /**
     * Issue 33: the user deleted the post while it had live copies. It is hidden everywhere and deleted for good
     * once each copy was taken down as the user chose (unpublished, deleted there, or left).
     */
    deletingAt: timestamp('deleting_at', { withTimezone: true }),
    /** Issue 33: the Markdown as it was last sent to a destination (the diff of 'Update the live copy' and review). */
    liveMarkdown: text('live_markdown'),
    /** Issue 35: the owner marked the post as reviewed (read and checked) on its page; null: not yet. */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /**
     * Issue 36: the sibling keywords of the cluster the post was written for (a cluster's 'Create Post'): the brief
     * covers them in the one post, instead of one competing post each. Empty for a single keyword.
     */
    secondaryKeywords: text('secondary_keywords')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Last edit by the user in the editor (issue 14). */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('blog_posts_request_idx').on(t.userId, t.requestKey),
    // Issue 12: one post per user and keyword being written at a time (migration 0013_failures).
    uniqueIndex('blog_posts_one_in_progress_idx')
      .on(t.userId, t.keywordId)
      .where(sql`${t.status} in ('queued', 'generating') and ${t.keywordId} is not null`),
    // Issue 21: keyset pages of the library, the language filter, and trigram search of titles and keywords.
    // `.desc().nullsFirst()` is Postgres' plain DESC, as the migrations create these indexes and as `ORDER BY … desc`
    // reads them (drizzle's `.desc()` alone would mean DESC NULLS LAST).
    index('blog_posts_page_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('blog_posts_language_idx').on(t.userId, t.language),
    index('blog_posts_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    index('blog_posts_keyword_trgm_idx').using('gin', sql`${t.keyword} gin_trgm_ops`),
    index('blog_posts_sanitizer_idx')
      .on(t.sanitizerVersion)
      .where(sql`${t.status} = 'completed'`),
    index('blog_posts_scheduled_idx')
      .on(t.scheduledPublishAt)
      .where(sql`${t.scheduledPublishAt} IS NOT NULL`),
  ],
)

/** Earlier versions of a post (the editor keeps the last 20; restore makes a new version). */
export const postVersions = pgTable(
  'post_versions',
  {
    id: id(),
    postId: uuid('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    /** What made this version: the first generation, an edit, a section rewrite, a refresh or a restore. */
    origin: text('origin', { enum: ['generated', 'edit', 'rewrite', 'refresh', 'restore'] }).notNull(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    metaDescription: text('meta_description').notNull(),
    contentMarkdown: text('content_markdown').notNull(),
    contentHtml: text('content_html').notNull(),
    seoScore: integer('seo_score'),
    createdAt: createdAt(),
  },
  (t) => [index('post_versions_post_idx').on(t.postId, t.createdAt)],
)

/** How a user's posts speak and sell: value proposition, call to action, tone, what to avoid, a writing sample. */
export const contentSettings = pgTable('content_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  valueProposition: text('value_proposition').notNull().default(''),
  ctaText: text('cta_text').notNull().default(''),
  ctaUrl: text('cta_url').notNull().default(''),
  /** 'friendly' | 'expert' | 'direct' | 'playful' */
  tone: text('tone').notNull().default('friendly'),
  toneNotes: text('tone_notes').notNull().default(''),
  /** Words and claims to avoid, one per line. */
  avoid: text('avoid').notNull().default(''),
  /** A pasted sample of the user's writing, or the text fetched from `writingSampleUrl`. */
  writingSample: text('writing_sample').notNull().default(''),
  writingSampleUrl: text('writing_sample_url'),
  /** What happens to a figure or quotation that cannot be verified on the page it cites: 'rewrite' | 'remove' | 'mark'. */
  unverifiedClaims: text('unverified_claims', { enum: ['rewrite', 'remove', 'mark'] })
    .notNull()
    .default('rewrite'),
  /** Issue 33: where a post's images come from: 'generated' (Images API), 'stock' (a photo provider) or 'none'. */
  imageSource: text('image_source', { enum: ['generated', 'stock', 'none'] })
    .notNull()
    .default('generated'),
  updatedAt: updatedAt(),
})

/** Research (the SERP plus what the top pages cover) per keyword and market, reused for 7 days. */
export const researchCache = pgTable('research_cache', {
  key: text('key').primaryKey(),
  result: jsonb('result').notNull(),
  createdAt: createdAt(),
})

/** The URLs of a site's sitemap.xml, read at most once a day. */
export const sitemapCache = pgTable('sitemap_cache', {
  url: text('url').primaryKey(),
  urls: jsonb('urls').notNull(),
  fetchedOn: text('fetched_on').notNull(),
  createdAt: createdAt(),
})

/**
 * The pages of users' sitemaps as read for internal links (issue 32), shared by all users, one row per page URL,
 * refreshed daily: whether the page loads, its title, meta description and headings, and the embedding of that
 * text (for `embedding_model`; recomputed when `text_hash` changes).
 */
export const sitePageCache = pgTable('site_page_cache', {
  url: text('url').primaryKey(),
  /** 'ok' (HTTP 200, HTML, allowed by robots.txt) or 'failed' (never linked). */
  status: text('status', { enum: ['ok', 'failed'] }).notNull(),
  title: text('title').notNull().default(''),
  description: text('description').notNull().default(''),
  headings: jsonb('headings').notNull().default([]),
  /** sha256 of the text that was embedded (title, description, headings). */
  textHash: text('text_hash'),
  embedding: jsonb('embedding'),
  embeddingModel: text('embedding_model'),
  fetchedOn: text('fetched_on').notNull(),
  createdAt: createdAt(),
})

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

/**
 * Issue 33: a post's images: one featured image and the in-post figures its brief asks for, each with alt text
 * written from the content. The files (WebP and a JPEG fallback) are in `image_files` or in an S3-compatible bucket.
 * Replacing or regenerating an image makes a new row (a new id), so each destination uploads each image once.
 */
export const postImages = pgTable(
  'post_images',
  {
    id: id(),
    userId: ownerId(),
    postId: uuid('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    /** 'featured' (one per post) or 'figure' (in the body, after the H2 section numbered `position`, from 0). */
    role: text('role', { enum: ['featured', 'figure'] }).notNull(),
    position: integer('position').notNull().default(0),
    source: text('source', { enum: ['generated', 'stock', 'upload'] }).notNull(),
    alt: text('alt').notNull(),
    /** What was asked for: the image prompt (generated) or the search query (stock). */
    prompt: text('prompt').notNull().default(''),
    /** The Images API model that made it (generated). */
    model: text('model'),
    /** Stock photos: { provider, photographer, photographerUrl, photoUrl }, shown as their terms require. */
    credit: jsonb('credit'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Where the files are: 'postgres' (image_files) or 's3' (the bucket, keys images/<id>.webp and .jpg). */
    storage: text('storage', { enum: ['postgres', 's3'] }).notNull(),
    webpBytes: integer('webp_bytes').notNull(),
    jpegBytes: integer('jpeg_bytes').notNull(),
    /** SHA-256 (hex) of the JPEG file. */
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('post_images_slot_idx').on(t.postId, t.role, t.position),
    index('post_images_user_idx').on(t.userId),
  ],
)

/** The image files kept in Postgres (the default storage; size-bounded by IMAGE_MAX_BYTES). */
export const imageFiles = pgTable(
  'image_files',
  {
    imageId: uuid('image_id')
      .notNull()
      .references(() => postImages.id, { onDelete: 'cascade' }),
    format: text('format', { enum: ['webp', 'jpeg'] }).notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.imageId, t.format] })],
)
