import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation, type ClientActionFunctionArgs } from '@remix-run/react'
import { PositionChart, Sparkline, sparklinePath } from '#app/features/rankings/components/rank-chart'
import { PageHeader } from '#app/ui/page-header'
import { SubmitButton } from '#app/ui/submit-button'
import { withParams } from '#app/platform/lists/list-params'
import {
  describeReason,
  formatChange,
  formatPosition,
  RANKINGS_MESSAGES,
  RANKINGS_PAGE_SIZE,
} from '#app/features/rankings/rankings'
import {
  enqueueRankingsTick,
  enqueueRefreshPost,
  enqueueSearchConsolePull,
} from '#app/features/rankings/jobs/rankings.server'
import { capabilities } from '#app/platform/capabilities.server'
import { listSuggestions, reopenSuggestion, startRefresh } from '#app/features/rankings/rankings-insights.server'
import {
  keywordHistory,
  listRankings,
  pageTraffic,
  starSavedKeyword,
  trackedPostUrl,
  trackingUsage,
  unstar,
  untrackedSavedKeywords,
} from '#app/features/rankings/rankings.server'
import {
  chooseSite,
  disconnect,
  getConnection,
  listSites,
  searchConsoleAvailable,
} from '#app/features/rankings/search-console.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { ActionButton } from '#app/ui/action-button'
import { ScrollRegion } from '#app/ui/scroll-region'
import { TrackToggle } from '#app/features/rankings/components/track-toggle'
import { guardServerAction } from '#app/ui/client-failure'
import { safeRedirect } from '#app/platform/security/redirect'

export const meta: MetaFunction = () => [{ title: 'Rankings · Rankwell' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const url = new URL(request.url)
  const market = url.searchParams.get('market') ?? undefined
  const selectedId = url.searchParams.get('keyword')
  const page = Number(url.searchParams.get('page') ?? '1')
  const [rankings, connection, suggestions, usage, savedKeywords] = await Promise.all([
    listRankings(user.id, { market, page: Number.isFinite(page) ? page : 1 }),
    getConnection(user.id),
    listSuggestions(user.id),
    trackingUsage(user.id),
    untrackedSavedKeywords(user.id),
  ])
  const sites = connection?.status === 'active' && !connection.siteUrl ? await listSites(user.id).catch(() => []) : []
  let selected = null
  if (selectedId) {
    const history = await keywordHistory(user.id, selectedId)
    if (history) {
      const postUrl = await trackedPostUrl(history.keyword.postId)
      selected = {
        id: history.keyword.id,
        keyword: history.keyword.keyword,
        points: history.points.map((p) => ({ day: p.day, position: p.position, status: p.status })),
        traffic: await pageTraffic(user.id, postUrl),
      }
    }
  }
  return json(
    {
      ...rankings,
      rows: rankings.rows.map(({ spark, ...row }) => ({ ...row, sparkPath: sparklinePath(spark) })),
      selected,
      usage,
      savedKeywords,
      suggestions,
      dailyChecks: capabilities().rankTracking,
      searchConsole: {
        available: searchConsoleAvailable(),
        status: connection?.status ?? null,
        siteUrl: connection?.siteUrl ?? null,
        syncedThrough: connection?.syncedThrough ?? null,
        disabledReason: connection?.disabledReason ?? null,
        sites: sites.map((s) => s.siteUrl),
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

/** Failures of the fetchers that post here (the track toggles) reach the page as data, not its error screen. */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const asJson = form.get('respond') === 'json'
  const back = safeRedirect(form.get('returnTo'), '/rankings')
  const done = (message: string, ok = true, status = 200) => {
    const toastMessage = { message, duration: TOAST_MS }
    if (asJson)
      return ok
        ? toast().jsonWithSuccess({ ok, message }, toastMessage)
        : toast().jsonWithError({ ok, message }, toastMessage, { status })
    return ok ? toast().redirectWithSuccess(back, toastMessage) : toast().redirectWithError(back, toastMessage)
  }
  if (intent === 'track') {
    const keywordId = String(form.get('keywordId') ?? '')
    if (!keywordId) return done('Choose a saved keyword to track.', false, 400)
    const result = await starSavedKeyword(user.id, keywordId)
    if (!result.ok)
      return result.reason === 'limit'
        ? done(RANKINGS_MESSAGES.limit(result.limit), false, 400)
        : done(RANKINGS_MESSAGES.notFound, false, 404)
    await enqueueRankingsTick().catch(() => undefined)
    return done(capabilities().rankTracking ? RANKINGS_MESSAGES.tracked : RANKINGS_MESSAGES.trackedWithoutChecks)
  }
  if (intent === 'untrack') {
    const result = await unstar(user.id, String(form.get('keywordId') ?? ''))
    return result.ok ? done(RANKINGS_MESSAGES.untracked) : done(RANKINGS_MESSAGES.notFound, false, 404)
  }
  if (intent === 'choose-site') {
    const siteUrl = String(form.get('siteUrl') ?? '')
    if (!(await chooseSite(user.id, siteUrl))) return done('Choose one of your Search Console properties.', false, 400)
    await enqueueSearchConsolePull({ userId: user.id }, { immediate: true })
    return done('Search Console property saved. Its data is on its way.')
  }
  if (intent === 'disconnect-search-console') {
    await disconnect(user.id)
    return done('Google Search Console disconnected.')
  }
  if (intent === 'refresh') {
    const claimed = await startRefresh(user.id, String(form.get('suggestionId') ?? ''))
    if (!claimed) return done(RANKINGS_MESSAGES.refreshUnavailable, false, 400)
    try {
      await enqueueRefreshPost({ suggestionId: claimed.id })
    } catch (error) {
      await reopenSuggestion(claimed.id)
      throw error
    }
    return done(RANKINGS_MESSAGES.refreshQueued)
  }
  return json({ ok: false, message: 'Unknown action.' }, 400)
}

export default function RankingsPage() {
  const data = useLoaderData<typeof loader>()
  const search = new URLSearchParams(useLocation().search)
  const sc = data.searchConsole
  const first = (data.page - 1) * RANKINGS_PAGE_SIZE + 1
  const hasAnySource = data.dailyChecks || sc.status === 'active'
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <PageHeader
        title="Rankings"
        subtitle={`Where your posts and keywords rank on Google. Tracking ${data.usage.tracked} of ${data.usage.limit} keywords.`}
      />
      <p className="-mt-2 mb-6 text-sm">
        <Link to="/rankings/ai" className="font-semibold text-brand-700 hover:underline">
          AI visibility
        </Link>
        <span className="text-slate-600">
          : are you named or cited in AI Overviews, ChatGPT, Perplexity, Gemini and Claude?
        </span>
      </p>

      {sc.status === 'disabled' ? (
        <div role="alert" className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          {RANKINGS_MESSAGES.searchConsoleDisabled}
        </div>
      ) : null}
      {!hasAnySource ? (
        <p
          className="mb-6 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700"
          data-testid="rankings-setup"
        >
          {sc.available ? RANKINGS_MESSAGES.nothingConnected : RANKINGS_MESSAGES.unavailable}
        </p>
      ) : !data.dailyChecks ? (
        <p className="mb-6 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
          {RANKINGS_MESSAGES.noDailyChecks}
        </p>
      ) : null}

      <section className="mb-8 rounded-lg border border-slate-200 p-4" aria-labelledby="gsc-heading">
        <h2 id="gsc-heading" className="text-lg font-semibold text-slate-900">
          Google Search Console
        </h2>
        {!sc.available ? (
          <p className="mt-2 text-sm text-slate-600">{RANKINGS_MESSAGES.searchConsoleUnavailable}</p>
        ) : sc.status === 'active' && sc.siteUrl ? (
          <div className="mt-2 flex flex-wrap items-center gap-4 text-sm text-slate-700">
            <span>
              Connected to <strong>{sc.siteUrl}</strong>
              {sc.syncedThrough ? `, data through ${sc.syncedThrough}` : ', first pull under way'}.
            </span>
            <Form method="post">
              <SubmitButton intent="disconnect-search-console" className="text-sm text-slate-600 underline">
                Disconnect
              </SubmitButton>
            </Form>
          </div>
        ) : sc.status === 'active' ? (
          <Form method="post" className="mt-2 flex flex-wrap items-end gap-3">
            <label className="min-w-0 max-w-full text-sm text-slate-700">
              Which property is your website?
              <select name="siteUrl" className="mt-1 block rounded-md border border-slate-300 px-3 py-2" required>
                {sc.sites.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <SubmitButton intent="choose-site" pendingText="Saving...">
              Use this property
            </SubmitButton>
          </Form>
        ) : (
          <Form method="post" action="/rankings/search-console/connect" className="mt-2">
            <p className="mb-2 text-sm text-slate-600">
              See clicks, impressions and average positions of your posts, straight from Google.
            </p>
            <SubmitButton pendingText="Opening Google...">Connect Google Search Console</SubmitButton>
          </Form>
        )}
      </section>

      {data.suggestions.length > 0 ? (
        <section className="mb-8" aria-labelledby="refresh-heading">
          <h2 id="refresh-heading" className="mb-3 text-lg font-semibold text-slate-900">
            Posts to refresh
          </h2>
          <ul className="space-y-3">
            {data.suggestions.map((s) => (
              <li key={s.id} className="rounded-lg border border-slate-200 p-4" data-testid="refresh-suggestion">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <Link to={`/blogpost/${s.postId}`} className="font-medium text-slate-900 underline">
                      {s.title || 'Untitled post'}
                    </Link>
                    <ul className="mt-1 list-disc pl-5 text-sm text-slate-600">
                      {s.reasons.map((r) => (
                        <li key={r.kind}>{describeReason(r)}</li>
                      ))}
                    </ul>
                    {s.queries.length ? (
                      <p className="mt-1 text-sm text-slate-600">
                        Queries to cover: {s.queries.map((q) => `“${q.query}” (position ${q.position})`).join(', ')}
                      </p>
                    ) : null}
                  </div>
                  {s.status === 'open' ? (
                    <ActionButton field={['suggestionId', s.id]} intent="refresh" pendingText="Refreshing...">
                      Refresh this post
                    </ActionButton>
                  ) : (
                    <span className="text-sm text-slate-600">
                      {s.status === 'refreshing' ? 'Refreshing...' : 'New version waiting for review'}
                    </span>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {data.selected ? (
        <section className="mb-8 rounded-lg border border-slate-200 p-4" aria-labelledby="chart-heading">
          <div className="mb-2 flex items-center justify-between">
            <h2 id="chart-heading" className="text-lg font-semibold text-slate-900">
              {data.selected.keyword}
            </h2>
            <Link to={withParams('/rankings', search, { keyword: null })} className="text-sm underline">
              Close chart
            </Link>
          </div>
          <PositionChart
            id="keyword-chart"
            keyword={data.selected.keyword}
            points={data.selected.points}
            traffic={data.selected.traffic}
          />
        </section>
      ) : null}

      <section aria-labelledby="table-heading">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <h2 id="table-heading" className="text-lg font-semibold text-slate-900">
            Tracked keywords{data.asOf ? ` (as of ${data.asOf})` : ''}
          </h2>
          <Form method="get" className="flex min-w-0 max-w-full items-end gap-2">
            <label className="min-w-0 max-w-full text-sm text-slate-700">
              Market
              <select
                name="market"
                defaultValue={data.market ?? ''}
                className="mt-1 block rounded-md border border-slate-300 px-3 py-2"
              >
                <option value="">All markets</option>
                {data.markets.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn-secondary">
              Filter
            </button>
          </Form>
        </div>
        {data.rows.length === 0 ? (
          <p className="text-sm text-slate-600">
            No tracked keywords yet. Published posts are tracked automatically; you can also track a saved keyword
            below.
          </p>
        ) : (
          <ScrollRegion label="Tracked keywords table" className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="rankings-table">
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th className="py-2 pr-3">Keyword</th>
                  <th className="py-2 pr-3">Market</th>
                  <th className="py-2 pr-3">Position</th>
                  <th className="py-2 pr-3">7 days</th>
                  <th className="py-2 pr-3">28 days</th>
                  <th className="py-2 pr-3">Best</th>
                  <th className="py-2 pr-3">Ranking URL</th>
                  <th className="py-2 pr-3">Trend</th>
                  <th className="py-2 pr-3">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((r) => (
                  <tr key={r.id} className="border-b border-slate-100" data-testid="ranking-row">
                    <td className="py-2 pr-3">
                      <Link
                        to={withParams('/rankings', search, { keyword: r.id })}
                        className="font-medium text-slate-900 underline"
                      >
                        {r.keyword}
                      </Link>
                      {r.postTitle ? <div className="text-xs text-slate-500">Post: {r.postTitle}</div> : null}
                    </td>
                    <td className="py-2 pr-3">{r.countryName || r.countryCode}</td>
                    <td className="py-2 pr-3" data-testid="ranking-position">
                      {formatPosition(r.latest ?? undefined)}
                    </td>
                    <td className="py-2 pr-3">{formatChange(r.change7)}</td>
                    <td className="py-2 pr-3">{formatChange(r.change28)}</td>
                    <td className="py-2 pr-3">{r.best ?? '–'}</td>
                    <td className="max-w-[16rem] truncate py-2 pr-3">
                      {r.url ? (
                        <a href={r.url} rel="noopener noreferrer nofollow" className="underline">
                          {r.url}
                        </a>
                      ) : (
                        '–'
                      )}
                    </td>
                    <td className="py-2 pr-3">
                      <Sparkline path={r.sparkPath} />
                    </td>
                    <td className="py-2 pr-3">
                      {r.starred ? (
                        <TrackToggle
                          keywordId={r.id}
                          keyword={r.keyword}
                          tracked
                          returnTo={withParams('/rankings', search, {})}
                        />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
        {data.pageCount > 1 ? (
          <nav aria-label="Pages of tracked keywords" className="mt-3 flex items-center justify-between text-sm">
            <span className="text-slate-600" data-testid="rankings-range">
              {`${first}–${first + data.rows.length - 1} of ${data.total} tracked keywords`}
            </span>
            <span className="flex gap-4">
              {data.page > 1 ? (
                <Link
                  to={withParams('/rankings', search, {
                    page: data.page > 2 ? String(data.page - 1) : null,
                    keyword: null,
                  })}
                  className="underline"
                  rel="prev"
                >
                  Previous
                </Link>
              ) : null}
              {data.page < data.pageCount ? (
                <Link
                  to={withParams('/rankings', search, { page: String(data.page + 1), keyword: null })}
                  className="underline"
                  rel="next"
                >
                  Next
                </Link>
              ) : null}
            </span>
          </nav>
        ) : null}
      </section>

      <section className="mt-8" aria-labelledby="track-heading">
        <h2 id="track-heading" className="mb-2 text-lg font-semibold text-slate-900">
          Track a saved keyword
        </h2>
        {data.savedKeywords.length === 0 ? (
          <p className="text-sm text-slate-600">
            Save keywords on <Link to="/keywords">Keyword Ideas</Link> to track them here.
          </p>
        ) : (
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <label className="min-w-0 max-w-full text-sm text-slate-700">
              Saved keyword
              <select name="keywordId" className="mt-1 block rounded-md border border-slate-300 px-3 py-2" required>
                {data.savedKeywords.map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.keyword}
                    {k.country ? ` (${k.country})` : ''}
                  </option>
                ))}
              </select>
            </label>
            <SubmitButton intent="track" pendingText="Tracking...">
              Track keyword
            </SubmitButton>
          </Form>
        )}
      </section>
    </div>
  )
}
