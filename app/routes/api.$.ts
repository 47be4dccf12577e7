import { apiError } from '#app/features/accounts/api-auth.server'

/** Any /api URL that is not an endpoint: a JSON 404 for every method, answered at once. */
const notFound = () => apiError(404, 'Not found.')

export const loader = notFound
export const action = notFound
