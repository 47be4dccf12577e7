import type { LoaderFunctionArgs } from '@remix-run/node'
import { enqueueSearchConsolePull } from '#app/features/rankings/jobs/rankings.server'
import { finishConnect } from '#app/features/rankings/search-console.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

/** Google's redirect back after the Search Console consent. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const result = await finishConnect(request, user.id)
  if (!result.ok) return toast().redirectWithError('/rankings', { message: result.error, duration: TOAST_MS })
  if (result.siteUrl) await enqueueSearchConsolePull({ userId: user.id }, { immediate: true })
  return toast().redirectWithSuccess('/rankings', {
    message: result.siteUrl
      ? `Google Search Console connected (${result.siteUrl}).`
      : 'Google Search Console connected. Choose the property of your website.',
    duration: TOAST_MS,
  })
}
