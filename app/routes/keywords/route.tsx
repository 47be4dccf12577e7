import { readForm } from '#app/platform/http/body.server'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  useActionData,
  useLoaderData,
  useNavigation,
  useRevalidator,
  type ClientActionFunctionArgs,
} from '@remix-run/react'
import { useEffect, useState } from 'react'
import { BulkActions, KeywordFilters } from '#app/features/keywords/components/keyword-filters'
import { KeywordTable } from '#app/features/keywords/components/keyword-table'
import {
  COLUMNS_INTENT,
  KeywordColumnsControl,
  useColumnsFetcher,
  visibleColumns,
} from '#app/features/keywords/components/keyword-columns'
import { keywordColumnsSchema, pickMetrics, shownColumns } from '#app/features/keywords/keyword-metrics'
import { KeywordViews } from '#app/features/keywords/components/keyword-views'
import { usePageKey } from '#app/features/content/components/create-post-button'
import { TrackStar } from '#app/features/rankings/components/track-star'
import { clientFailureOf, guardServerAction, revalidateUnlessFailed, withoutFailure } from '#app/ui/client-failure'
import { MessageDialog } from '#app/ui/dialog'
import { PageHeader } from '#app/ui/page-header'
import {
  keywordSearchSchema,
  SEARCH_ERROR_MESSAGE,
  SEARCH_UNAVAILABLE_MESSAGE,
  SEARCH_VALIDATION_MESSAGE,
  searchProblem,
  shownCount,
  type KeywordSearchInput,
} from '#app/features/keywords/keywords'
import { allSkippedMessage, skippedKeywordsMessage } from '#app/features/content/library'
import { keywordListSchema, type KeywordListParams } from '#app/features/keywords/keyword-library'
import { firstMessage, parseSubmission } from '#app/platform/forms/submission'
import { parseParams } from '#app/platform/lists/list-params'
import { QUOTA_MESSAGES } from '#app/features/billing/plans'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { POST_MESSAGES } from '#app/features/content/posts'
import { safeRedirect } from '#app/platform/security/redirect'
import { activeKeywordSource, claimPrefilledRun, searchKeywordsWithQuota } from '#app/features/keywords/keywords.server'
import { createPostsForKeywords } from '#app/features/content/library.server'
import { deleteKeywords, pageKeywords, saveKeywordColumns } from '#app/features/keywords/keyword-library.server'
import { postProgressForKeywords } from '#app/features/publishing/post-progress.server'
import { useRefreshWhileWaiting } from '#app/ui/use-refresh-while-waiting'
import { useSiteLinkClick } from '#app/ui/site-link'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { showToast } from '#app/ui/toaster'
import { pageNonce } from '#app/features/content/components/create-post-button'
import { gettingStarted } from '#app/features/autopilot/getting-started.server'
import { GettingStartedCard } from '#app/features/autopilot/components/getting-started'
import { SearchForm } from './search-form'
import { AnalyzingOverlay, SourceNotice } from './search-status'
import { usePrefilledSearch } from './use-prefilled-search'
import { KeywordPostAction } from './post-action'

/** How often the list refreshes (with JavaScript) while one of its keywords' posts is being written. */
const WRITING_REFRESH_MS = 10_000

export const meta: MetaFunction = () => [{ title: 'Keyword Opportunities · Rankwell' }]

const DIALOGS = {
  quota: { message: QUOTA_MESSAGES.keywordSearches, upgrade: true },
  error: { message: SEARCH_ERROR_MESSAGE, upgrade: false },
  unavailable: { message: SEARCH_UNAVAILABLE_MESSAGE, upgrade: false },
} as const
type DialogKind = keyof typeof DIALOGS
type Dialog = { id: string; message: string; upgrade: boolean }

const dialogOf = (kind: DialogKind, id: string = crypto.randomUUID()): Dialog => ({ id, ...DIALOGS[kind] })
/** The dialog of a refusal; over quota, with the message that fits the user's plan (issue 19). */
async function dialogFor(userId: string, kind: DialogKind, id?: string): Promise<Dialog> {
  const dialog = dialogOf(kind, id)
  return kind === 'quota' ? { ...dialog, ...(await quotaRefusal(userId, 'keywordSearches')) } : dialog
}
const reasonToDialog = { quota: 'quota', provider_error: 'error', unavailable: 'unavailable' } as const
const reasonToStatus = { quota: 402, provider_error: 502, unavailable: 503 } as const

function successToast(count: number, query: string, note: string | null = null) {
  return count > 0
    ? toast().redirectWithSuccess('/keywords', {
        message: `Found ${count} keyword ideas for “${query}”.`,
        description: note ?? undefined,
        duration: TOAST_MS,
      })
    : toast().redirectWithInfo('/keywords', {
        message: `No keyword ideas found for “${query}”. Try a broader keyword or topic.`,
        duration: TOAST_MS,
      })
}

/** Runs a search and answers with a redirect to the clean list (a reload never searches again). */
async function searchAndRedirect(userId: string, input: KeywordSearchInput) {
  const result = await searchKeywordsWithQuota(userId, input)
  if (result.ok) return successToast(result.keywords.length, input.query, result.note)
  return redirect(`/keywords?dialog=${reasonToDialog[result.reason]}`)
}

const LIST_KEYS = ['q', 'difficulty', 'minVolume', 'maxVolume', 'country', 'language', 'sort', 'order'] as const
const FILTER_KEYS = ['q', 'difficulty', 'minVolume', 'maxVolume', 'country', 'language'] as const

/** The list's search, filters and sort from the URL; a bad value (a hand-edited URL) is dropped, not an error. */
function listParams(search: URLSearchParams): KeywordListParams {
  const only = new URLSearchParams()
  for (const key of LIST_KEYS) {
    const value = search.get(key)
    if (value !== null) only.set(key, value)
  }
  const parsed = parseParams(keywordListSchema, only)
  if (parsed.ok) return parsed.data
  for (const field of Object.keys(parsed.errors)) only.delete(field)
  const again = parseParams(keywordListSchema, only)
  return again.ok ? again.data : {}
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const url = new URL(request.url)
  const params = url.searchParams
  const prefill = params.has('query')
    ? {
        query: params.get('query') ?? '',
        countryCode: params.get('countryCode') ?? '',
        languageCode: params.get('languageCode') ?? '',
        countryName: params.get('countryName') ?? undefined,
        languageName: params.get('languageName') ?? undefined,
      }
    : null

  // A prefilled search (onboarding sends the user here with run=1) runs at once:
  // - on a document navigation from our own site (or typed in), here in the loader, so that it works without
  //   JavaScript; then a redirect to the clean URL, so that a reload does not search (and charge) again;
  // - on a client-side navigation (JavaScript), by the page itself, which submits the search with its overlay.
  // A cross-site link only prefills the form: another site must not spend the user's searches.
  let autoRun = false
  let prefillDialog: Dialog | null = null
  if (prefill && params.get('run') === '1') {
    const parsed = keywordSearchSchema.safeParse(prefill)
    // An incomplete prefill (onboarding leaves country and language optional) asks the user to complete it.
    if (!parsed.success) prefillDialog = { id: 'prefill', message: searchProblem(parsed.error), upgrade: false }
    const site = request.headers.get('sec-fetch-site')
    const ownSite = site === 'same-origin' || site === 'none'
    if (parsed.success && request.headers.get('sec-fetch-mode') === 'navigate' && ownSite) {
      if (!(await claimPrefilledRun(user.id, parsed.data))) return redirect('/keywords')
      return searchAndRedirect(user.id, parsed.data)
    }
    autoRun = parsed.success && (ownSite || site === null)
  }

  const shown = shownCount(params.get('show'))
  const columns = shownColumns(user.keywordColumns)
  const source = activeKeywordSource()
  const list = listParams(params)
  const { rows, total, totalCapped, sort, order } = await pageKeywords(user.id, list, { limit: shown })
  // Where each keyword's newest post stands (issue 35): one statement for the whole page.
  const progress = await postProgressForKeywords(
    user.id,
    rows.map((r) => r.id),
  )
  const listSearch = new URLSearchParams()
  for (const key of LIST_KEYS) if (list[key] !== undefined) listSearch.set(key, String(list[key]))
  const dialogParam = params.get('dialog')
  const defaults = {
    query: prefill?.query ?? '',
    countryCode: prefill?.countryCode || user.countryCode || '',
    languageCode: prefill?.languageCode || user.languageCode || '',
  }
  return json({
    keywords: rows.map((r) => ({
      id: r.id,
      keyword: r.keyword,
      avgMonthlySearches: r.avgMonthlySearches,
      difficultyScore: r.difficultyScore,
      createdAt: r.createdAt.toISOString(),
      source: r.source,
      market: [r.countryName, r.languageName].filter(Boolean).join(' · '),
      tracked: r.tracked,
      post: progress.get(r.id) ?? null,
      // Issue 36: the raw fields of the shown optional columns only (a hidden column costs nothing); the table
      // computes their cells as it renders, so the loader data carries numbers, not sentences.
      metrics: pickMetrics(r, columns),
    })),
    columns,
    total,
    totalCapped,
    shown,
    list: {
      search: listSearch.toString(),
      sort,
      order,
      filtered: FILTER_KEYS.some((k) => list[k] !== undefined),
    },
    filterValues: Object.fromEntries(LIST_KEYS.map((k) => [k, list[k] === undefined ? '' : String(list[k])])) as Record<
      (typeof LIST_KEYS)[number],
      string
    >,
    requestKey: pageNonce(),
    source,
    defaults,
    formKey: JSON.stringify(defaults),
    autoRun,
    gettingStarted: await gettingStarted(user.id),
    dialog:
      dialogParam && Object.hasOwn(DIALOGS, dialogParam)
        ? await dialogFor(user.id, dialogParam as DialogKind, `url-${dialogParam}`)
        : prefillDialog,
  })
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  if (intent === 'create-posts' || intent === 'delete-keywords' || intent.startsWith('delete:')) {
    return bulkAction(user.id, intent, form)
  }
  if (intent === COLUMNS_INTENT) return columnsAction(user.id, form)
  const submission = parseSubmission(form, keywordSearchSchema)
  // An incomplete search: the dialog says what is missing, the form shows what was sent.
  const refused = (message: string) =>
    json({ dialog: { id: crypto.randomUUID(), message, upgrade: false }, result: submission.reply() }, { status: 400 })
  if (intent !== 'search') return refused(SEARCH_VALIDATION_MESSAGE)
  if (submission.status !== 'success') return refused(firstMessage(submission.reply()) ?? SEARCH_VALIDATION_MESSAGE)
  const result = await searchKeywordsWithQuota(user.id, submission.value)
  if (result.ok) return successToast(result.keywords.length, submission.value.query, result.note)
  return json(
    { dialog: await dialogFor(user.id, reasonToDialog[result.reason]), result: submission.reply() },
    { status: reasonToStatus[result.reason] },
  )
}

/** With JavaScript, a search whose request fails (network, 5xx, a proxy's page) shows the search error dialog. */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

/**
 * The table's bulk actions ('Create posts' and 'Delete selected' for the checked rows, 'Delete' on one row):
 * a redirect back to the list the form was on, with a toast.
 */
async function bulkAction(userId: string, intent: string, form: FormData) {
  const back = safeRedirect(form.get('redirectTo'), '/keywords')
  const ids = intent.startsWith('delete:') ? [intent.slice('delete:'.length)] : form.getAll('keywordId').map(String)
  if (ids.length === 0)
    return toast().redirectWithError(back, { message: 'Select at least one keyword first.', duration: TOAST_MS })
  if (intent === 'create-posts') {
    const requestKey = String(form.get('requestKey') ?? '') || crypto.randomUUID()
    const result = await createPostsForKeywords({ userId, keywordIds: ids, requestKey })
    if (result.ok)
      return toast().redirectWithSuccess(back, {
        message: POST_MESSAGES.created,
        description: result.skipped.length ? skippedKeywordsMessage(result.skipped) : undefined,
        duration: TOAST_MS,
      })
    const message =
      result.reason === 'overlap'
        ? allSkippedMessage(result.skipped)
        : result.reason === 'quota'
          ? (await quotaRefusal(userId, 'blogPosts')).message
          : result.reason === 'not_found'
            ? POST_MESSAGES.keywordNotFound
            : result.reason === 'in_progress'
              ? POST_MESSAGES.inProgress
              : POST_MESSAGES.failed
    return toast().redirectWithError(back, { message, duration: TOAST_MS })
  }
  const deleted = await deleteKeywords(userId, ids)
  if (deleted.length === 0)
    return toast().redirectWithError(back, { message: 'Keyword not found.', duration: TOAST_MS })
  return toast().redirectWithSuccess(back, {
    message: deleted.length === 1 ? 'Keyword deleted.' : `${deleted.length} keywords deleted.`,
    duration: TOAST_MS,
  })
}

/**
 * The Columns control (issue 36): stores the optional columns shown; a fetcher (JavaScript) gets JSON, a plain form a
 * redirect back to the list it was on.
 */
async function columnsAction(userId: string, form: FormData) {
  const back = safeRedirect(form.get('redirectTo'), '/keywords')
  const parsed = keywordColumnsSchema.safeParse({ columns: form.getAll('columns').map(String) })
  const json_ = form.get('respond') === 'json'
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Unknown column.'
    return json_
      ? json({ ok: false, message }, { status: 400 })
      : toast().redirectWithError(back, { message, duration: TOAST_MS })
  }
  await saveKeywordColumns(userId, shownColumns(parsed.data.columns))
  return json_ ? json({ ok: true }) : redirect(back)
}

/** The toast of a table action whose request failed in the browser. */
function bulkFailureMessage(intent: string | null) {
  return intent === 'create-posts' ? POST_MESSAGES.failed : 'The keywords could not be deleted. Please try again.'
}

export default function KeywordsPage() {
  const pageKey = usePageKey()
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<typeof clientAction>()
  const failure = clientFailureOf(answer)
  const answered = withoutFailure(answer)
  // The Columns control's fetcher answers { ok } (never through useActionData): only a search's answer has these.
  const actionData = answered && 'dialog' in answered ? answered : undefined
  const searchFailure = failure && failure.intent === 'search' ? failure : null
  const navigation = useNavigation()
  const revalidator = useRevalidator()
  const follow = useSiteLinkClick()
  const columnsFetcher = useColumnsFetcher()
  const columns = visibleColumns(data.columns, columnsFetcher)
  usePrefilledSearch(data)
  // A post being written: its row changes to 'Ready for review' by itself (with JavaScript), without 'Loading...'.
  const refreshing = useRefreshWhileWaiting(
    data.keywords.some((k) => k.post?.state === 'writing') ? WRITING_REFRESH_MS : null,
  )

  const searching = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'search'
  const listLoading =
    (navigation.state === 'loading' && navigation.location.pathname === '/keywords') ||
    (revalidator.state === 'loading' && !refreshing)
  // A failed search shows the search dialog; a failed bulk action on the table a toast.
  useEffect(() => {
    if (failure && failure.intent !== 'search')
      showToast({ type: 'error', message: bulkFailureMessage(failure.intent) })
  }, [failure])
  // A search the form refused before sending it (JavaScript): its dialog, until the next answer or page data.
  const [refused, setRefused] = useState<{ dialog: Dialog; answer: unknown; data: unknown } | null>(null)
  const dialog =
    refused && refused.answer === answer && refused.data === data
      ? refused.dialog
      : searchFailure
        ? { id: searchFailure.id, message: SEARCH_ERROR_MESSAGE, upgrade: false }
        : (actionData?.dialog ?? data.dialog)

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader
        title="Keyword Opportunities"
        subtitle="Discover high-impact keywords your customers search for, with their monthly volume and how hard they are to rank for."
      />
      <KeywordViews />
      {data.gettingStarted ? <GettingStartedCard data={data.gettingStarted} /> : null}
      <SourceNotice source={data.source} />
      <SearchForm
        // A new prefill (another search sent here) starts the form again from it.
        key={data.formKey}
        defaults={data.defaults}
        lastResult={actionData?.result}
        searching={searching}
        disabled={!data.source}
        onRefused={(message) =>
          setRefused({ dialog: { id: crypto.randomUUID(), message, upgrade: false }, answer, data })
        }
      />
      <section aria-label="Saved keyword tools" className="card mb-4 p-0">
        <KeywordFilters values={data.filterValues} filtered={data.list.filtered} />
        <BulkActions
          redirectTo={data.list.search ? `/keywords?${data.list.search}` : '/keywords'}
          requestKey={data.requestKey}
        />
      </section>
      <KeywordTable
        rows={data.keywords}
        total={data.total}
        totalCapped={data.totalCapped}
        shown={data.shown}
        loading={listLoading}
        list={data.list}
        columns={columns}
        controls={
          <KeywordColumnsControl
            columns={data.columns}
            redirectTo={data.list.search ? `/keywords?${data.list.search}` : '/keywords'}
            fetcher={columnsFetcher}
          />
        }
        rowActions={(k, { returnTo }) => (
          <>
            <KeywordPostAction keyword={k} pageKey={pageKey} returnTo={returnTo} onFollow={follow} />
            <TrackStar keywordId={k.id} describedBy={`keyword-${k.id}`} tracked={k.tracked} returnTo={returnTo} />
          </>
        )}
      />
      {searching ? <AnalyzingOverlay /> : null}
      <MessageDialog
        key={dialog?.id ?? 'none'}
        message={dialog?.message}
        closeHref="/keywords"
        action={dialog?.upgrade ? { label: 'Upgrade Now', to: '/profile' } : undefined}
      />
    </div>
  )
}
