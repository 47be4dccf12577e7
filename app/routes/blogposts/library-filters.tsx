import { Form, Link } from '@remix-run/react'
import { POST_ORIGIN_FILTERS, POST_REVIEW_FILTERS, POST_STATUS_FILTERS } from '#app/features/content/library'

/** The library's search and filters (the list's parameters besides its cursor). */
export const FILTER_KEYS = ['q', 'status', 'source', 'language', 'review'] as const
export type LibraryFilterValues = Record<(typeof FILTER_KEYS)[number], string>

/** One filter of the library: a select whose first option, `anyLabel`, does not filter. */
function FilterSelect({
  label,
  name,
  value,
  anyLabel,
  options,
  className,
}: {
  label: string
  name: string
  value: string
  anyLabel: string
  options: Array<[value: string, label: string]>
  className: string
}) {
  return (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <select name={name} defaultValue={value} className={className}>
        <option value="">{anyLabel}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  )
}

/** Search and filters: a GET form, so the state lives in the URL (shareable, and it works without JavaScript). */
export function LibraryFilters({
  filters,
  filtered,
  languages,
}: {
  filters: LibraryFilterValues
  filtered: boolean
  languages: string[]
}) {
  const select = 'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm'
  return (
    <Form
      method="get"
      action="/blogposts"
      role="search"
      aria-label="Search blog posts"
      key={JSON.stringify(filters)}
      className="card mb-6 grid gap-3 md:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] md:items-end"
    >
      <label className="block text-sm font-medium text-slate-700">
        Search
        <input
          type="search"
          name="q"
          defaultValue={filters.q}
          maxLength={200}
          placeholder="Title or keyword"
          className={select}
        />
      </label>
      <FilterSelect
        label="Status"
        name="status"
        value={filters.status}
        anyLabel="All statuses"
        options={Object.entries(POST_STATUS_FILTERS).map(([value, f]) => [value, f.label])}
        className={select}
      />
      <FilterSelect
        label="Origin"
        name="source"
        value={filters.source}
        anyLabel="All origins"
        options={Object.entries(POST_ORIGIN_FILTERS)}
        className={select}
      />
      <FilterSelect
        label="Language"
        name="language"
        value={filters.language}
        anyLabel="All languages"
        options={languages.map((language) => [language, language])}
        className={select}
      />
      <FilterSelect
        label="Review"
        name="review"
        value={filters.review}
        anyLabel="Any review state"
        options={Object.entries(POST_REVIEW_FILTERS)}
        className={select}
      />
      <div className="flex items-center gap-3">
        <button type="submit" className="btn-primary">
          Search
        </button>
        {filtered ? (
          <Link to="/blogposts" className="text-sm font-semibold text-brand-700 hover:text-brand-800">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  )
}
