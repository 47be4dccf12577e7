ALTER TABLE "subscriptions" ADD COLUMN "last_checkout_session_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "payment_failed_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "ended_reason" text;
