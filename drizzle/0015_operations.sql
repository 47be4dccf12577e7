-- Issue 20: posts are sanitized once, when written or edited; the version of the rules that made content_html is
-- stored with it, and the worker sanitizes again the completed posts whose version is older than the code's.
-- Existing rows start at 0 (sanitized on every read until now), so the worker takes them once after the deploy.
ALTER TABLE "blog_posts" ADD COLUMN IF NOT EXISTS "sanitizer_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "blog_posts_sanitizer_idx" ON "blog_posts" USING btree ("sanitizer_version") WHERE "blog_posts"."status" = 'completed';
