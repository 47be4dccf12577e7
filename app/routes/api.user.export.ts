import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { exportAccount } from '#app/features/accounts/account-data.server'
import { apiError, requireApiUser } from '#app/features/accounts/api-auth.server'

/** GET /api/user/export → the account's data as a JSON download ('Download my data' on /profile). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const date = new Date().toISOString().slice(0, 10)
  return json(await exportAccount(user), {
    headers: {
      'Cache-Control': 'no-store',
      'Content-Disposition': `attachment; filename="rankwell-data-${date}.json"`,
    },
  })
}

export const action = () => apiError(405, 'Method not allowed.')
