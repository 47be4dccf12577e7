/**
 * The database schema, one file per capability in ./schema/ (each holds the tables its capability writes; a foreign
 * key to another capability's table imports it from the sibling file). This index re-exports them all: it is the
 * `schema` of client.server.ts.
 *
 * The SQL migrations in drizzle/ are the history the migrator applies; drizzle-kit (drizzle.config.ts) reads the
 * files in ./schema/ and compares them with drizzle/meta's latest snapshot. A change here goes with its migration:
 * `npm run db:generate -- --name=<what>` writes the SQL and the snapshot, and `scripts/check-migrations.ts` (the static
 * stage) fails while the schema and the migrations differ.
 */
export * from './schema/accounts'
export * from './schema/billing'
export * from './schema/keywords'
export * from './schema/content'
export * from './schema/publishing'
export * from './schema/rankings'
export * from './schema/visibility'
export * from './schema/autopilot'
export * from './schema/marketing'
export * from './schema/operations'
