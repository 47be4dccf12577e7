CREATE TABLE "site_page_cache" (
	"url" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"headings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"text_hash" text,
	"embedding" jsonb,
	"embedding_model" text,
	"fetched_on" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "evidence" jsonb;--> statement-breakpoint
ALTER TABLE "content_settings" ADD COLUMN "unverified_claims" text DEFAULT 'rewrite' NOT NULL;