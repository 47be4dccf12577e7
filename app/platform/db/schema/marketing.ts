/**
 * Marketing (the public site): leads, first-party analytics and the free tools' AI answers.
 */
import { sql } from 'drizzle-orm'
import { bigserial, index, jsonb, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, id } from './columns'

export const leads = pgTable(
  'leads',
  {
    id: id(),
    email: text('email').notNull(),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('leads_email_lower_idx').on(sql`lower(${t.email})`)],
)

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type', { enum: ['pageview', 'web-vital'] }).notNull(),
    path: text('path').notNull(),
    name: text('name'),
    value: real('value'),
    createdAt: createdAt(),
  },
  (t) => [index('analytics_events_created_idx').on(t.createdAt)],
)

/** AI answers of the public free tools, cached by normalised input. */
export const aiCache = pgTable('ai_cache', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
})
