CREATE TABLE "image_files" (
	"image_id" uuid NOT NULL,
	"format" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "image_files_image_id_format_pk" PRIMARY KEY("image_id","format")
);
--> statement-breakpoint
CREATE TABLE "post_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"role" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"source" text NOT NULL,
	"alt" text NOT NULL,
	"prompt" text DEFAULT '' NOT NULL,
	"model" text,
	"credit" jsonb,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"storage" text NOT NULL,
	"webp_bytes" integer NOT NULL,
	"jpeg_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"destination_id" uuid NOT NULL,
	"remote_id" text NOT NULL,
	"remote_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "deleting_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "live_markdown" text;--> statement-breakpoint
ALTER TABLE "content_settings" ADD COLUMN "image_source" text DEFAULT 'generated' NOT NULL;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "credentials_for" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "unpublish_mode" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "claim_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "image_files" ADD CONSTRAINT "image_files_image_id_post_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."post_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_images" ADD CONSTRAINT "post_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_images" ADD CONSTRAINT "post_images_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_media" ADD CONSTRAINT "remote_media_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_media" ADD CONSTRAINT "remote_media_image_id_post_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."post_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_media" ADD CONSTRAINT "remote_media_destination_id_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."destinations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "post_images_slot_idx" ON "post_images" USING btree ("post_id","role","position");--> statement-breakpoint
CREATE INDEX "post_images_user_idx" ON "post_images" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "remote_media_image_destination_idx" ON "remote_media" USING btree ("image_id","destination_id");