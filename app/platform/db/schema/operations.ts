/**
 * Operations: the trivial job that proves web → Redis → worker → Postgres.
 */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { createdAt, id } from './columns'

export const jobPings = pgTable('job_pings', {
  id: id(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  processedBy: text('processed_by'),
  createdAt: createdAt(),
})
