import { createCookieSessionStorage } from '@remix-run/node'
import { createToastUtilsWithCustomSession } from 'remix-toast'
import { signedCookieOptions } from './cookies.server'

/** Toasts travel in a flash cookie signed with our own secret (remix-toast's default secret is public). */
function toastUtils() {
  const storage = createCookieSessionStorage({ cookie: { name: 'rw_toast', ...signedCookieOptions() } })
  return createToastUtilsWithCustomSession(storage)
}

let utils: ReturnType<typeof toastUtils> | undefined
export function toast() {
  utils ??= toastUtils()
  return utils
}

/** Toasts set by the product last 8 seconds. */
export const TOAST_MS = 8000
