import { z } from 'zod'

/**
 * Text taken from a request. Control characters (NUL included: Postgres refuses it in text) are refused with a
 * message next to the field; tab, line feed and carriage return stay allowed. Returns a plain ZodString, so the
 * usual `.trim().min().max()` chain on.
 */
export const NOT_ALLOWED_CHARACTERS = 'This field contains characters that are not allowed.'

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
// eslint-disable-next-line no-control-regex
const CONTROL_GLOBAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g

export function hasControlCharacters(value: string) {
  return CONTROL.test(value)
}

/** Removes control characters (except tab and line breaks): for text we pass on rather than store. */
export function stripControlCharacters(value: string) {
  return value.replace(CONTROL_GLOBAL, '')
}

// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/

export function safeText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).regex(NO_CONTROL, NOT_ALLOWED_CHARACTERS)
}
