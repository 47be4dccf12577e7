import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { readForm } from '#app/platform/http/body.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'
import { safeRedirect } from '#app/platform/security/redirect'
import { requireUser } from '#app/features/accounts/session.server'
import { setGettingStartedHidden } from '#app/features/autopilot/getting-started.server'

/**
 * POST /getting-started, intent `hide` or `show`: hides the 'Get started' checklist (or shows it again), then back
 * to `redirectTo` (a same-site path; anything else: /keywords). A plain form, with or without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await readForm(request)
  const intent = form.get('intent')
  const back = safeRedirect(form.get('redirectTo'), '/keywords')
  if (intent !== 'hide' && intent !== 'show') return redirect(back, 303)
  await setGettingStartedHidden(user.id, intent === 'hide')
  return toast().redirectWithInfo(
    back,
    {
      message:
        intent === 'hide'
          ? 'The checklist is hidden. You can show it again on your profile.'
          : 'The checklist is back on this page.',
      duration: TOAST_MS,
    },
    { status: 303 },
  )
}

/** Hiding changes state, so it never happens on a GET. */
export async function loader() {
  return redirect('/profile')
}
