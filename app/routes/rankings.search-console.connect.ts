import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { connectRedirect, searchConsoleAvailable } from '#app/features/rankings/search-console.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

/** 'Connect Google Search Console' (a POST form): off to Google's consent screen with a signed state cookie. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  if (!searchConsoleAvailable())
    return toast().redirectWithError('/rankings', {
      message: 'Connecting Google Search Console is not available on this workspace yet.',
      duration: TOAST_MS,
    })
  const { location, setCookie } = await connectRedirect(user.id)
  return redirect(location, { headers: { 'Set-Cookie': setCookie } })
}

export const loader = () => redirect('/rankings')
