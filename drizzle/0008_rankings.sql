CREATE TABLE "tracked_keywords" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"keyword" text NOT NULL,
	"keyword_norm" text NOT NULL,
	"country_code" text NOT NULL,
	"language_code" text NOT NULL,
	"country_name" text DEFAULT '' NOT NULL,
	"starred" boolean DEFAULT false NOT NULL,
	"post_id" uuid,
	"saved_keyword_id" uuid,
	"best_position" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracked_keywords" ADD CONSTRAINT "tracked_keywords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracked_keywords" ADD CONSTRAINT "tracked_keywords_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracked_keywords" ADD CONSTRAINT "tracked_keywords_saved_keyword_id_saved_keywords_id_fk" FOREIGN KEY ("saved_keyword_id") REFERENCES "public"."saved_keywords"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracked_keywords_unique_idx" ON "tracked_keywords" USING btree ("user_id","keyword_norm","country_code","language_code");--> statement-breakpoint
CREATE INDEX "tracked_keywords_market_idx" ON "tracked_keywords" USING btree ("keyword_norm","country_code","language_code");--> statement-breakpoint
CREATE TABLE "keyword_positions" (
	"tracked_keyword_id" uuid NOT NULL,
	"day" text NOT NULL,
	"status" text NOT NULL,
	"position" integer,
	"url" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "keyword_positions_tracked_keyword_id_day_pk" PRIMARY KEY("tracked_keyword_id","day")
);
--> statement-breakpoint
ALTER TABLE "keyword_positions" ADD CONSTRAINT "keyword_positions_tracked_keyword_id_tracked_keywords_id_fk" FOREIGN KEY ("tracked_keyword_id") REFERENCES "public"."tracked_keywords"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "rank_checks" (
	"keyword_norm" text NOT NULL,
	"country_code" text NOT NULL,
	"language_code" text NOT NULL,
	"day" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "rank_checks_keyword_norm_country_code_language_code_day_pk" PRIMARY KEY("keyword_norm","country_code","language_code","day")
);
--> statement-breakpoint
CREATE INDEX "rank_checks_day_status_idx" ON "rank_checks" USING btree ("day","status");--> statement-breakpoint
CREATE TABLE "search_console_connections" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"refresh_token" text NOT NULL,
	"site_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"synced_through" text,
	"last_sync_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_console_connections" ADD CONSTRAINT "search_console_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "search_console_stats" (
	"user_id" uuid NOT NULL,
	"day" text NOT NULL,
	"page" text NOT NULL,
	"query" text NOT NULL,
	"clicks" integer NOT NULL,
	"impressions" integer NOT NULL,
	"ctr" real NOT NULL,
	"position" real NOT NULL,
	CONSTRAINT "search_console_stats_user_id_page_query_day_pk" PRIMARY KEY("user_id","page","query","day")
);
--> statement-breakpoint
ALTER TABLE "search_console_stats" ADD CONSTRAINT "search_console_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_console_stats_day_idx" ON "search_console_stats" USING btree ("user_id","day");--> statement-breakpoint
CREATE TABLE "refresh_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"week" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"queries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refresh_suggestions" ADD CONSTRAINT "refresh_suggestions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_suggestions" ADD CONSTRAINT "refresh_suggestions_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_suggestions_week_idx" ON "refresh_suggestions" USING btree ("user_id","post_id","week");--> statement-breakpoint
CREATE TABLE "rankings_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"digest_enabled" boolean DEFAULT true NOT NULL,
	"last_digest_week" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rankings_preferences" ADD CONSTRAINT "rankings_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
