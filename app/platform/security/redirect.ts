/** Only same-site paths are allowed as redirect targets. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (!to || typeof to !== 'string') return fallback
  if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  if ([...to].some((c) => c.charCodeAt(0) < 0x20)) return fallback
  return to
}
