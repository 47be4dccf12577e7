-- Issue 21: libraries at any size. Keyset pages walk these indexes in their sort order from a cursor; search by
-- substring uses trigram indexes (pg_trgm, a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "blog_posts_page_idx" ON "blog_posts" USING btree ("user_id", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "blog_posts_language_idx" ON "blog_posts" USING btree ("user_id", "language");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "blog_posts_title_trgm_idx" ON "blog_posts" USING gin ("title" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "blog_posts_keyword_trgm_idx" ON "blog_posts" USING gin ("keyword" gin_trgm_ops);
--> statement-breakpoint
DROP INDEX IF EXISTS "blog_posts_list_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "saved_keywords_date_idx" ON "saved_keywords" USING btree ("user_id", "searched_via_auto_pilot", "created_at" DESC, (coalesce("avg_monthly_searches", -1)) DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "saved_keywords_keyword_idx" ON "saved_keywords" USING btree ("user_id", "searched_via_auto_pilot", (lower("keyword")), "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "saved_keywords_volume_idx" ON "saved_keywords" USING btree ("user_id", "searched_via_auto_pilot", (coalesce("avg_monthly_searches", -1)), "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "saved_keywords_difficulty_idx" ON "saved_keywords" USING btree ("user_id", "searched_via_auto_pilot", (coalesce("difficulty_score", -1)), "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "saved_keywords_keyword_trgm_idx" ON "saved_keywords" USING gin ("keyword" gin_trgm_ops);
--> statement-breakpoint
DROP INDEX IF EXISTS "saved_keywords_list_idx";
