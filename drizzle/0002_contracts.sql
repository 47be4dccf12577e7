ALTER TABLE "blog_posts" ADD COLUMN "brief" jsonb;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "research_status" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "seo_score" integer;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "seo_checklist" jsonb;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "claims" jsonb;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "json_ld" jsonb;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "review_status" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "published_url" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "post_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"meta_description" text NOT NULL,
	"content_markdown" text NOT NULL,
	"content_html" text NOT NULL,
	"seo_score" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "post_versions" ADD CONSTRAINT "post_versions_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_versions_post_idx" ON "post_versions" USING btree ("post_id","created_at");--> statement-breakpoint
CREATE TABLE "serp_cache" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"keyword" text NOT NULL,
	"country_code" text NOT NULL,
	"language_code" text NOT NULL,
	"fetched_on" text NOT NULL,
	"depth" integer NOT NULL,
	"result" jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "serp_cache_key_idx" ON "serp_cache" USING btree ("keyword","country_code","language_code","fetched_on");
