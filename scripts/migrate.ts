// `npm run db:migrate`: applies the committed SQL migrations in drizzle/ to DATABASE_URL.
import { migrateDatabase } from './lib/migrate'

const url = process.env.DATABASE_URL
if (!url) {
  console.error('DATABASE_URL is required')
  process.exit(1)
}
await migrateDatabase(url)
console.log('[rankwell] migrations applied')
