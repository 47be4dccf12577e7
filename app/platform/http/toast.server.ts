import { createCookieSessionStorage } from '@remix-run/node'
import { createToastUtilsWithCustomSession } from 'remix-toast'
import { cookieName, signedCookieOptions } from './cookies.server'

/** Toasts travel in a flash cookie signed with our own secret (remix-toast's default secret is public). */
function toastUtils() {
  const storage = createCookieSessionStorage({ cookie: { name: cookieName('rw_toast'), ...signedCookieOptions() } })
  return createToastUtilsWithCustomSession(storage)
}

/** Whether the request carries a toast cookie (`__Host-rw_toast` in production), without reading it. */
export function hasToastCookie(request: Request): boolean {
  const name = cookieName('rw_toast')
  return (request.headers.get('Cookie') ?? '').split(';').some((pair) => pair.trim().startsWith(`${name}=`))
}

let utils: ReturnType<typeof toastUtils> | undefined
export function toast() {
  utils ??= toastUtils()
  return utils
}

/** Toasts set by the product last 8 seconds. */
export const TOAST_MS = 8000
