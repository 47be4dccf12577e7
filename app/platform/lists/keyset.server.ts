import { sql, type Column } from 'drizzle-orm'

/** Keyset pages (issue 21): what the libraries' page queries share. Every page walks an index from its cursor. */

/** Timestamps as text with microseconds, so a cursor is exact (a JS Date keeps only milliseconds). */
export const exactTime = (column: Column) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

export class BadCursorError extends Error {
  constructor() {
    super('Not a valid cursor.')
    this.name = 'BadCursorError'
  }
}

/** A timestamp as `exactTime` writes it. */
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/
