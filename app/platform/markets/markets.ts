import countries from '#app/platform/markets/data/countries.json'
import regions from '#app/platform/markets/data/geo-top-level-regions.json'
import languages from '#app/platform/markets/data/languages.json'

/**
 * Markets (Google Ads geo target ids: countries plus top-level regions such as Hong Kong or Puerto Rico)
 * and languages (Google Ads language ids), as value/label pairs sorted by name.
 */
export type Option = { value: string; label: string; iso: string }

const byLabel = (a: Option, b: Option) => a.label.localeCompare(b.label, 'en')

export const COUNTRY_OPTIONS: Option[] = [...countries, ...regions]
  .map((c) => ({ value: c.code, label: c.name, iso: c.iso }))
  .sort(byLabel)

export const LANGUAGE_OPTIONS: Option[] = languages
  .map((l) => ({ value: l.code, label: l.name, iso: l.iso }))
  .sort(byLabel)

const countryById = new Map(COUNTRY_OPTIONS.map((o) => [o.value, o]))
const languageById = new Map(LANGUAGE_OPTIONS.map((o) => [o.value, o]))

export const findCountry = (code: string | null | undefined) => (code ? countryById.get(code) : undefined)
export const findLanguage = (code: string | null | undefined) => (code ? languageById.get(code) : undefined)

/** ISO-639-1 code for providers that want one (Google's own codes like zh_CN, iw, no are mapped). */
export function languageIso(code: string): string | undefined {
  const iso = findLanguage(code)?.iso
  if (!iso) return undefined
  const special: Record<string, string> = { zh_CN: 'zh-CN', zh_TW: 'zh-TW', iw: 'he', no: 'nb' }
  return special[iso] ?? iso
}
