import type { LoaderFunctionArgs } from '@remix-run/node'
import { enqueueSearchConsolePull } from '#app/features/rankings/jobs/rankings.server'
import { clearStateCookie, finishConnect } from '#app/features/rankings/search-console.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

/** Google's redirect back after the Search Console consent. Every answer clears the state cookie. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true }).catch(async (thrown: unknown) => {
    if (thrown instanceof Response) thrown.headers.append('Set-Cookie', await clearStateCookie())
    throw thrown
  })
  const result = await finishConnect(request, user.id)
  const headers = { 'Set-Cookie': result.setCookie }
  if (!result.ok)
    return toast().redirectWithError('/rankings', { message: result.error, duration: TOAST_MS }, { headers })
  if (result.siteUrl) await enqueueSearchConsolePull({ userId: user.id }, { immediate: true })
  return toast().redirectWithSuccess(
    '/rankings',
    {
      message: result.siteUrl
        ? `Google Search Console connected (${result.siteUrl}).`
        : 'Google Search Console connected. Choose the property of your website.',
      duration: TOAST_MS,
    },
    { headers },
  )
}
