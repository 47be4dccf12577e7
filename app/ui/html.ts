/**
 * Markup written as a string, for long runs of plain, non-interactive elements that React would otherwise build one
 * element at a time on every request (issue 39: a `<select>` of every country is 250 `<option>`s). What is written
 * here must be the elements React would have rendered, and every value is escaped.
 */
import { escapeHtml } from '#app/platform/html'

export type SelectOption = { value: string; label: string }

/** The options' markup per list (by identity) and selected value: the lists are module constants. */
const optionsCache = new WeakMap<readonly SelectOption[], Map<string, string>>()
/** Enough selected values per list for every market a page shows; a list past this is not cached further. */
const MAX_CACHED_PER_LIST = 64

/**
 * A `<select>`'s options as markup: the placeholder (value '') first when there is one, and `selected` on the option
 * whose value is `selected`, as React's server render marks the option of a select's value or default value.
 */
export function optionsHtml(options: readonly SelectOption[], placeholder: string | undefined, selected: string) {
  const key = `${placeholder ?? '\u0000'}\u0001${selected}`
  let byKey = optionsCache.get(options)
  const cached = byKey?.get(key)
  if (cached !== undefined) return cached
  let html = placeholder !== undefined ? option('', placeholder, selected === '') : ''
  for (const o of options) html += option(o.value, o.label, o.value === selected)
  if (!byKey) optionsCache.set(options, (byKey = new Map()))
  if (byKey.size < MAX_CACHED_PER_LIST) byKey.set(key, html)
  return html
}

function option(value: string, label: string, selected: boolean) {
  return `<option value="${escapeHtml(value)}"${selected ? ' selected=""' : ''}>${escapeHtml(label)}</option>`
}
