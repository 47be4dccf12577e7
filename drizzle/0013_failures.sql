-- Issue 12: at most one post per user and keyword is being written at a time (two tabs, a double click with
-- different request keys, the API and the page at once). Posts already queued twice for one keyword before this
-- migration keep their oldest one; the others are marked failed so the index can be built.
UPDATE "blog_posts" AS p SET "status" = 'failed', "failure_reason" = 'Another post for this keyword was being written at the same time.'
WHERE p."status" IN ('queued', 'generating') AND p."keyword_id" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "blog_posts" AS o
  WHERE o."user_id" = p."user_id" AND o."keyword_id" = p."keyword_id" AND o."status" IN ('queued', 'generating')
    AND (o."created_at", o."id") < (p."created_at", p."id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "blog_posts_one_in_progress_idx" ON "blog_posts" ("user_id", "keyword_id")
  WHERE "status" IN ('queued', 'generating') AND "keyword_id" IS NOT NULL;
