ALTER TABLE "users" ADD COLUMN "getting_started_hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "reviewed_at" timestamp with time zone;