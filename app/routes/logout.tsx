import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { signOut } from '#app/features/accounts/session.server'

/** POST /logout ends the session in the database (the old cookie stops working) and goes to /signin. */
export async function action({ request }: ActionFunctionArgs) {
  return signOut(request, '/signin')
}

/** Signing out changes state, so it never happens on a GET. */
export async function loader() {
  return redirect('/profile')
}
