import { Form, Link, useNavigation, useSubmit } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useHydrated } from '#app/ui/use-hydrated'
import { ConfirmDialog } from '#app/ui/confirm-dialog'
import { Field, SelectField } from '#app/ui/field'
import { DIFFICULTY_FILTERS, MAX_BULK_KEYWORDS } from '#app/features/keywords/keyword-library'
import { COUNTRY_OPTIONS, LANGUAGE_OPTIONS } from '#app/platform/markets/markets'
import { BULK_FORM_ID } from './keyword-table'

export type KeywordFilterValues = {
  q: string
  difficulty: string
  minVolume: string
  maxVolume: string
  country: string
  language: string
  sort: string
  order: string
}

const DIFFICULTY_OPTIONS = Object.entries(DIFFICULTY_FILTERS).map(([value, f]) => ({ value, label: f.label }))

/** A bound of the search volume filter. */
function VolumeField(props: { label: string; id: string; name: string; defaultValue: string }) {
  return <Field type="number" min={0} inputMode="numeric" {...props} />
}

/**
 * Search within the saved keywords and filter them: a GET form, so the state lives in the URL (shareable, and it
 * works without JavaScript). The sort in effect is kept. On a phone the form folds behind a 'Filter' button (a
 * <details>, open while a filter is in effect); from md up it is always shown (tailwind.css `.fold-below-md`). The
 * fields wrap at their own width, so that a select shows its whole text (long country and language names).
 */
export function KeywordFilters({ values, filtered }: { values: KeywordFilterValues; filtered: boolean }) {
  const clear = new URLSearchParams()
  if (values.sort) clear.set('sort', values.sort)
  if (values.order) clear.set('order', values.order)
  return (
    <details
      className="fold-below-md group border-b border-slate-200"
      open={filtered || undefined}
      data-testid="keyword-filters"
    >
      <summary className="mx-4 my-3 inline-flex cursor-pointer list-none items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true" className="transition group-open:rotate-90">
          ▸
        </span>
        Filter{filtered ? ' (on)' : ''}
      </summary>
      <Form
        method="get"
        action="/keywords"
        role="search"
        aria-label="Search saved keywords"
        key={JSON.stringify(values)}
        className="grid gap-3 px-4 py-3 md:flex md:flex-wrap md:items-end md:[&>*]:flex-auto"
      >
        {values.sort ? <input type="hidden" name="sort" value={values.sort} /> : null}
        {values.order ? <input type="hidden" name="order" value={values.order} /> : null}
        <Field
          label="Search keywords"
          id="kw-filter-q"
          type="search"
          name="q"
          defaultValue={values.q}
          maxLength={200}
          placeholder="Contains..."
        />
        <SelectField
          label="Difficulty band"
          name="difficulty"
          options={DIFFICULTY_OPTIONS}
          placeholder="Any difficulty"
          defaultValue={values.difficulty}
        />
        <VolumeField label="Min volume" id="kw-filter-min" name="minVolume" defaultValue={values.minVolume} />
        <VolumeField label="Max volume" id="kw-filter-max" name="maxVolume" defaultValue={values.maxVolume} />
        <SelectField
          label="Market country"
          name="country"
          options={COUNTRY_OPTIONS}
          placeholder="Any country"
          defaultValue={values.country}
        />
        <SelectField
          label="Market language"
          name="language"
          options={LANGUAGE_OPTIONS}
          placeholder="Any language"
          defaultValue={values.language}
        />
        <div className="flex items-center gap-3">
          <button type="submit" className="btn-secondary">
            Filter
          </button>
          {filtered ? (
            <Link
              to={clear.size ? `/keywords?${clear.toString()}` : '/keywords'}
              className="text-sm font-semibold text-brand-700 hover:text-brand-800"
            >
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
    </details>
  )
}

/**
 * The bulk actions on the selected rows (their checkboxes belong to this form): 'Create posts' and 'Delete
 * selected', and each row's 'Delete'. A plain form without JavaScript; with it, deletes ask first in the spec's
 * confirm dialog.
 */
export function BulkActions({ redirectTo, requestKey }: { redirectTo: string; requestKey: string }) {
  const hydrated = useHydrated()
  const submit = useSubmit()
  const navigation = useNavigation()
  const [confirm, setConfirm] = useState<{ data: FormData; count: number } | null>(null)
  const busy = navigation.state === 'submitting' && navigation.formData?.get('bulk') === '1'
  // After a bulk action has gone through (JavaScript), the rows stay on the page: their checkboxes are cleared.
  const wasBusy = useRef(false)
  useEffect(() => {
    if (busy) wasBusy.current = true
    else if (wasBusy.current && navigation.state === 'idle') {
      wasBusy.current = false
      for (const box of document.querySelectorAll<HTMLInputElement>(`input[type=checkbox][form="${BULK_FORM_ID}"]`))
        box.checked = false
    }
  }, [busy, navigation.state])

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    const intent = submitter?.value ?? ''
    if (!intent.startsWith('delete')) return
    event.preventDefault()
    const data = new FormData(event.currentTarget, submitter)
    if (intent.startsWith('delete:')) data.delete('keywordId')
    const count = intent.startsWith('delete:') ? 1 : data.getAll('keywordId').length
    setConfirm({ data, count })
  }

  return (
    <>
      <Form
        method="post"
        action="/keywords"
        id={BULK_FORM_ID}
        onSubmit={onSubmit}
        className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-3"
      >
        <input type="hidden" name="bulk" value="1" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="requestKey" defaultValue={requestKey} suppressHydrationWarning />
        <span className="text-sm text-slate-600">{`Selected keywords (up to ${MAX_BULK_KEYWORDS}):`}</span>
        <button
          type="submit"
          name="intent"
          value="create-posts"
          className="btn-primary px-3 py-1.5 text-xs"
          disabled={busy}
        >
          Create posts
        </button>
        <button
          type="submit"
          name="intent"
          value="delete-keywords"
          className="btn-secondary px-3 py-1.5 text-xs"
          disabled={busy}
        >
          Delete selected
        </button>
      </Form>
      {hydrated && confirm ? (
        <ConfirmDialog
          title="Delete keywords"
          message={
            confirm.count === 0
              ? 'Select at least one keyword first.'
              : `Delete ${confirm.count === 1 ? 'this keyword' : `${confirm.count} keywords`} from your saved keywords? Posts written from them are kept.`
          }
          closeHref={redirectTo}
          onClose={() => setConfirm(null)}
          action={
            confirm.count === 0 ? null : (
              <button
                type="button"
                className="btn-primary bg-red-600 hover:bg-red-700"
                onClick={() => {
                  submit(confirm.data, { method: 'post', action: '/keywords', preventScrollReset: true })
                  setConfirm(null)
                }}
              >
                Delete
              </button>
            )
          }
        />
      ) : null}
    </>
  )
}
