CREATE TABLE "content_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"value_proposition" text DEFAULT '' NOT NULL,
	"cta_text" text DEFAULT '' NOT NULL,
	"cta_url" text DEFAULT '' NOT NULL,
	"tone" text DEFAULT 'friendly' NOT NULL,
	"tone_notes" text DEFAULT '' NOT NULL,
	"avoid" text DEFAULT '' NOT NULL,
	"writing_sample" text DEFAULT '' NOT NULL,
	"writing_sample_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_settings" ADD CONSTRAINT "content_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "research_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sitemap_cache" (
	"url" text PRIMARY KEY NOT NULL,
	"urls" jsonb NOT NULL,
	"fetched_on" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
