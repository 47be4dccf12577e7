CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"last_used_at" timestamp with time zone,
	"last_used_ip_prefix" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_check_usage" (
	"user_id" uuid NOT NULL,
	"month" text NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ai_check_usage_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
CREATE TABLE "ai_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"engine" text NOT NULL,
	"subject_norm" text NOT NULL,
	"subject" text NOT NULL,
	"country_code" text NOT NULL,
	"language_code" text NOT NULL,
	"day" text NOT NULL,
	"sample" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"error" text,
	"present" boolean,
	"answer_text" text,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fetched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"text" text NOT NULL,
	"text_norm" text NOT NULL,
	"country_code" text NOT NULL,
	"language_code" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_results" (
	"user_id" uuid NOT NULL,
	"check_id" uuid NOT NULL,
	"subject_kind" text NOT NULL,
	"tracked_keyword_id" uuid,
	"prompt_id" uuid,
	"engine" text NOT NULL,
	"day" text NOT NULL,
	"sample" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"present" boolean DEFAULT false NOT NULL,
	"mentioned" boolean DEFAULT false NOT NULL,
	"cited" boolean DEFAULT false NOT NULL,
	"cited_url" text,
	"cited_position" integer,
	"competitors_mentioned" text[] DEFAULT '{}' NOT NULL,
	"competitors_cited" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_results_user_id_check_id_pk" PRIMARY KEY("user_id","check_id")
);
--> statement-breakpoint
CREATE TABLE "ai_visibility_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"brand_aliases" text[] DEFAULT '{}' NOT NULL,
	"competitor_domains" text[] DEFAULT '{}' NOT NULL,
	"samples" integer DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_weekly" (
	"user_id" uuid NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"engine" text NOT NULL,
	"week" text NOT NULL,
	"answers" integer DEFAULT 0 NOT NULL,
	"gaps" integer DEFAULT 0 NOT NULL,
	"present" integer DEFAULT 0 NOT NULL,
	"mentioned" integer DEFAULT 0 NOT NULL,
	"cited" integer DEFAULT 0 NOT NULL,
	"cited_urls" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"competitors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "ai_weekly_user_id_subject_kind_subject_id_engine_week_pk" PRIMARY KEY("user_id","subject_kind","subject_id","engine","week")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_check_usage" ADD CONSTRAINT "ai_check_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_prompts" ADD CONSTRAINT "ai_prompts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_results" ADD CONSTRAINT "ai_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_results" ADD CONSTRAINT "ai_results_check_id_ai_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."ai_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_results" ADD CONSTRAINT "ai_results_tracked_keyword_id_tracked_keywords_id_fk" FOREIGN KEY ("tracked_keyword_id") REFERENCES "public"."tracked_keywords"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_results" ADD CONSTRAINT "ai_results_prompt_id_ai_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."ai_prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_visibility_settings" ADD CONSTRAINT "ai_visibility_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_weekly" ADD CONSTRAINT "ai_weekly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_idx" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_checks_unit_idx" ON "ai_checks" USING btree ("engine","subject_norm","country_code","language_code","day","sample");--> statement-breakpoint
CREATE INDEX "ai_checks_day_status_idx" ON "ai_checks" USING btree ("day","status");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_prompts_unique_idx" ON "ai_prompts" USING btree ("user_id","text_norm","country_code","language_code");--> statement-breakpoint
CREATE INDEX "ai_results_user_day_idx" ON "ai_results" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "ai_results_keyword_idx" ON "ai_results" USING btree ("tracked_keyword_id");--> statement-breakpoint
CREATE INDEX "ai_results_prompt_idx" ON "ai_results" USING btree ("prompt_id");--> statement-breakpoint
CREATE INDEX "ai_weekly_user_week_idx" ON "ai_weekly" USING btree ("user_id","week");