-- Issue 21: the keyword library's market filter (country and language) on a large account: its capped total and
-- its newest-first page read a range of this index instead of every saved keyword of the user.
CREATE INDEX IF NOT EXISTS "saved_keywords_market_idx" ON "saved_keywords" USING btree ("user_id", "searched_via_auto_pilot", "country_code", "language_code", "created_at" DESC);
