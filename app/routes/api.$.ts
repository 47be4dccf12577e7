import { apiError } from '#app/server/api.server'

/** Any /api URL that is not an endpoint: a JSON 404 for every method, answered at once. */
const notFound = () => apiError(404, 'Not found.')

export const loader = notFound
export const action = notFound
