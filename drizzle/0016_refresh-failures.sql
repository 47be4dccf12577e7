-- Issue 16: 'Refresh this post' runs the content engine; when it fails for good, the suggestion opens again and
-- /rankings says why (cleared when the refresh is started again).
ALTER TABLE "refresh_suggestions" ADD COLUMN IF NOT EXISTS "failure_reason" text;
