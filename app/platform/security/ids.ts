/** The one check of an id's format before it reaches SQL: our ids are UUIDs (any version, any case). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}

/** The most ids one request may name (a list of posts to poll, a bulk action). */
export const MAX_IDS_PER_REQUEST = 100

/**
 * A comma-separated id list from a request: `ok: false` when it names more than `max` ids or one is not a UUID,
 * so that a hostile list is refused (400) instead of reaching SQL. Blank entries are ignored, duplicates removed.
 */
export function parseIdList(
  raw: string,
  max = MAX_IDS_PER_REQUEST,
): { ok: true; ids: string[] } | { ok: false; message: string } {
  const parts = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (parts.length > max) return { ok: false, message: `At most ${max} ids can be asked for at once.` }
  if (!parts.every(isUuid)) return { ok: false, message: 'Every id must be a valid id.' }
  return { ok: true, ids: [...new Set(parts.map((id) => id.toLowerCase()))] }
}
