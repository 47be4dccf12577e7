import { dictionary } from '@zxcvbn-ts/language-common'

/**
 * Issue 34: the most common passwords, refused when a password is chosen (sign-up, reset, change). The list is the
 * `passwords-common` dictionary of @zxcvbn-ts/language-common (about 49,000 entries, bundled, checked offline). It is
 * large (≈380 kB), so it stays on the server: the forms' schemas (account-schemas.ts, also run in the browser) do
 * not carry it, and the actions ask `commonPasswordError` after the schema has passed.
 */
let common: Set<string> | undefined

function commonPasswords(): Set<string> {
  return (common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())))
}

/** How many passwords the bundled list holds (for the record and the tests). */
export const commonPasswordCount = () => commonPasswords().size

/** Whether a password is one of the common ones; the comparison ignores case ("Password1" is "password1"). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase())
}
