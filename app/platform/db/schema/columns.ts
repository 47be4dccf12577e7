/** Column helpers shared by the schema files (no tables here). */
import { timestamp, uuid } from 'drizzle-orm/pg-core'

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
/** A row's own id: a random UUID. */
export const id = () => uuid('id').primaryKey().defaultRandom()
