/** The copy of a Postgres or Redis outage (shown by the error boundary and sent by the API). */
export const OUTAGE_MESSAGE = 'Rankwell is briefly unavailable, please try again in a minute.'
/** Retry-After of an outage's 503 answer. */
export const OUTAGE_RETRY_AFTER_SECONDS = 30
