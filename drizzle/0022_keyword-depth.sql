CREATE TABLE "domain_ranks" (
	"domain" text PRIMARY KEY NOT NULL,
	"rank" integer,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keyword_cluster_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"country_code" text NOT NULL,
	"language_code" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"keyword_count" integer DEFAULT 0 NOT NULL,
	"fetched_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "keyword_lookups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"country_code" text NOT NULL,
	"language_code" text NOT NULL,
	"looked_up_on" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "keyword_columns" text[];--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "secondary_keywords" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "intent" text;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "intent_source" "keyword_source";--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "cpc" double precision;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "cpc_currency" text;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "competition" double precision;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "competition_level" text;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "monthly_searches" jsonb;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "serp_features" text[];--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "origin" text DEFAULT 'search' NOT NULL;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "ranked_domain" text;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "ranked_position" integer;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "ranked_url" text;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "ranked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "competitor_domain" text;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "competitor_position" integer;--> statement-breakpoint
ALTER TABLE "saved_keywords" ADD COLUMN "competitor_url" text;--> statement-breakpoint
ALTER TABLE "keyword_cluster_runs" ADD CONSTRAINT "keyword_cluster_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keyword_lookups" ADD CONSTRAINT "keyword_lookups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keyword_cluster_runs_user_idx" ON "keyword_cluster_runs" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "keyword_cluster_runs_active_idx" ON "keyword_cluster_runs" USING btree ("user_id","country_code","language_code") WHERE "keyword_cluster_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "keyword_lookups_unique_idx" ON "keyword_lookups" USING btree ("user_id","kind","subject","country_code","language_code","looked_up_on");