import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ClientActionFunctionArgs,
} from '@remix-run/react'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  revalidateUnlessFailed,
  withoutFailure,
} from '#app/ui/client-failure'
import { FormMessage } from '#app/ui/form-message'
import { KeywordViews } from '#app/features/keywords/components/keyword-views'
import {
  CLUSTER_KEYWORD_CAP,
  CLUSTER_MESSAGES,
  CLUSTER_MIN_SHARED_URLS,
  clusterMarketSchema,
  type ClusterMarket,
} from '#app/features/keywords/clusters'
import { clusterMarkets, latestClusterRun, listClusters, startClusterRun } from '#app/features/keywords/clusters.server'
import { formatVolume } from '#app/features/keywords/keywords'
import { requireUser } from '#app/features/accounts/session.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { pageNonce } from '#app/features/content/components/create-post-button'
import { overlapMessage } from '#app/features/content/cannibalisation.server'
import { POST_MESSAGES } from '#app/features/content/posts'
import { createPost } from '#app/features/content/posts.server'
import { postProgressForKeywords } from '#app/features/publishing/post-progress.server'
import { readForm } from '#app/platform/http/body.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { PageHeader } from '#app/ui/page-header'
import { PostProgressBadge } from '#app/ui/post-progress'
import { SubmitButton } from '#app/ui/submit-button'
import { useHydrated } from '#app/ui/use-hydrated'
import { useRefreshWhileWaiting } from '#app/ui/use-refresh-while-waiting'

export const meta: MetaFunction = () => [{ title: 'Keyword Clusters · Rankwell' }]

/** How often the page refreshes itself (with JavaScript) while a run reads results pages, or a post is written. */
const RUN_REFRESH_MS = 3_000
const WRITING_REFRESH_MS = 10_000

const marketKey = (m: ClusterMarket) => `${m.countryCode}|${m.languageCode}`
const pageOf = (m: ClusterMarket) =>
  `/keywords/clusters?${new URLSearchParams({ country: m.countryCode, language: m.languageCode })}`

/** The market asked for (`?market=2840|1000` from the select, or `?country=&language=`), if it is well formed. */
function askedMarket(search: URLSearchParams): ClusterMarket | null {
  const [country, language] = (search.get('market') ?? '').split('|')
  const parsed = clusterMarketSchema.safeParse({
    countryCode: search.get('country') ?? country,
    languageCode: search.get('language') ?? language,
  })
  return parsed.success ? parsed.data : null
}

/**
 * /keywords/clusters (issue 36, decision 0363): the user's saved keywords of a market grouped by topic from their
 * Google top 10. 'Group by topic' reads the results pages they lack (a run in the worker); each cluster shows its
 * main keyword, total volume, its members and its post, or 'Create Post' for one post covering the whole cluster.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const markets = await clusterMarkets(user.id)
  const asked = askedMarket(new URL(request.url).searchParams)
  const chosen =
    (asked && markets.find((m) => marketKey(m) === marketKey(asked))) ??
    markets.find((m) => m.countryCode === user.countryCode && m.languageCode === user.languageCode) ??
    markets[0]
  const market = chosen ? { countryCode: chosen.countryCode, languageCode: chosen.languageCode } : null
  const [list, run] = market
    ? await Promise.all([listClusters(user.id, market, postProgressForKeywords), latestClusterRun(user.id, market)])
    : [null, null]
  return json(
    {
      markets: markets.map((m) => ({ key: marketKey(m), label: m.label, count: m.count })),
      market,
      list,
      run,
      requestKey: pageNonce(),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type OverlapAnswer = {
  overlap: { message: string; href: string | null; internal: boolean }
  keywordId: string
  keyword: string
  secondary: string[]
  requestKey: string
  market: ClusterMarket
}

/**
 * intent=group ('Group by topic'): starts the market's clustering run, or answers the one in progress; back here with
 * a toast. intent=create-post: one post for the cluster's main keyword covering its siblings; to the post with the
 * toast, or, when the user has a post or page for a very similar search, the choice of 'A very similar search'.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const parsedMarket = clusterMarketSchema.safeParse({
    countryCode: form.get('countryCode'),
    languageCode: form.get('languageCode'),
  })
  const market = parsedMarket.success ? parsedMarket.data : null
  const back = market ? pageOf(market) : '/keywords/clusters'
  const fail = (message: string) => toast().redirectWithError(back, { message, duration: TOAST_MS })

  if (intent === 'group') {
    if (!market) return fail(CLUSTER_MESSAGES.noKeywords)
    const result = await startClusterRun(user.id, market)
    if (result.ok) return redirect(back)
    if (result.reason === 'quota') return fail((await quotaRefusal(user.id, 'keywordSearches')).message)
    return fail(result.reason === 'no_keywords' ? CLUSTER_MESSAGES.noKeywords : CLUSTER_MESSAGES.unavailable)
  }

  if (intent === 'create-post') {
    const keywordId = String(form.get('keywordId') ?? '')
    const requestKey = String(form.get('requestKey') ?? '') || crypto.randomUUID()
    const secondary = form.getAll('secondary').map(String)
    const created = await createPost({
      userId: user.id,
      keywordId,
      requestKey,
      source: 'manual',
      force: form.get('force') === '1',
      secondaryKeywords: secondary,
    })
    if (created.ok)
      return toast().redirectWithSuccess(`/blogpost/${created.postId}`, {
        message: POST_MESSAGES.created,
        description: '/blogposts',
        duration: TOAST_MS,
      })
    if (created.reason === 'overlap' && market) {
      const o = created.overlap
      return json<OverlapAnswer>({
        overlap: {
          message: overlapMessage(o),
          href: o.postId ? `/blogpost/${o.postId}/edit` : (o.url ?? null),
          internal: Boolean(o.postId),
        },
        keywordId,
        keyword: String(form.get('keyword') ?? ''),
        secondary,
        requestKey,
        market,
      })
    }
    if (created.reason === 'quota') return fail((await quotaRefusal(user.id, 'blogPosts')).message)
    if (created.reason === 'in_progress') return fail(POST_MESSAGES.inProgress)
    if (created.reason === 'not_found') return fail(POST_MESSAGES.keywordNotFound)
    return fail(POST_MESSAGES.failed)
  }
  return fail('Unknown action.')
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>
type List = NonNullable<Data['list']>
type Run = NonNullable<Data['run']>

/**
 * With JavaScript: a submission whose request fails in the browser (no answer, a 5xx, a proxy's page) keeps the page
 * and what was typed, and says so above the forms.
 */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

export default function KeywordClustersPage() {
  const data = useLoaderData<typeof loader>()
  const raw = useActionData<typeof clientAction>()
  const failure = clientFailureOf(raw)
  const answer = withoutFailure(raw) as OverlapAnswer | undefined
  const running = data.run?.status === 'queued' || data.run?.status === 'running'
  const writing = data.list?.clusters.some((c) => c.post?.progress.state === 'writing') ?? false
  useRefreshWhileWaiting(running ? RUN_REFRESH_MS : writing ? WRITING_REFRESH_MS : null)
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader
        title="Keyword Clusters"
        subtitle={`Your keyword ideas grouped by topic: searches whose Google top 10 share at least ${CLUSTER_MIN_SHARED_URLS} pages can rank with one post.`}
      />
      <KeywordViews />
      {failure ? (
        <FormMessage
          message={failureMessage(failure, 'The request could not be sent. Check your connection and try again.')}
          tone="error"
        />
      ) : null}
      {answer?.overlap ? <OverlapChoice answer={answer} /> : null}
      {data.market && data.list ? (
        <>
          <MarketAndGroup data={data} />
          {data.run ? <RunStatus run={data.run} /> : null}
          <Clusters list={data.list} market={data.market} requestKey={data.requestKey} running={running} />
        </>
      ) : (
        <div className="card space-y-3">
          <p className="text-slate-800">You have no saved keywords yet.</p>
          <p className="text-sm text-slate-600">
            Search for keyword ideas first; then group them by topic here.{' '}
            <Link to="/keywords" className="font-semibold text-brand-700 underline">
              Find keyword ideas
            </Link>
          </p>
        </div>
      )}
    </div>
  )
}

function MarketAndGroup({ data }: { data: Data }) {
  const market = data.market!
  return (
    <div className="card mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="cluster-market" className="block text-sm font-medium text-slate-700">
            Market
          </label>
          <select
            id="cluster-market"
            name="market"
            defaultValue={marketKey(market)}
            className="input mt-1 max-w-full"
            key={marketKey(market)}
          >
            {data.markets.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label} ({m.count})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          Show
        </button>
      </Form>
      <Form method="post" className="flex flex-col gap-1 sm:items-end">
        <input type="hidden" name="countryCode" value={market.countryCode} />
        <input type="hidden" name="languageCode" value={market.languageCode} />
        <SubmitButton intent="group" pendingText="Starting...">
          Group by topic
        </SubmitButton>
        <p className="text-xs text-slate-500">
          Reads the Google top 10 of your newest {CLUSTER_KEYWORD_CAP} keywords here; counts as one keyword search a
          day.
        </p>
      </Form>
    </div>
  )
}

function RunStatus({ run }: { run: Run }) {
  const hydrated = useHydrated()
  if (run.status === 'queued' || run.status === 'running')
    return (
      <p
        role="status"
        className="mb-6 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
        data-testid="cluster-run"
        data-run-status={run.status}
      >
        Grouping your keywords by topic: {run.fetchedCount} of {run.keywordCount || '…'} results pages read.{' '}
        {hydrated ? 'This page updates by itself.' : 'Reload the page to see the result.'}
      </p>
    )
  if (run.status === 'failed')
    return (
      <p
        role="alert"
        className="mb-6 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
        data-testid="cluster-run"
        data-run-status="failed"
      >
        Grouping failed: {run.error ?? CLUSTER_MESSAGES.failed}
      </p>
    )
  if (run.failedCount > 0)
    return (
      <p
        className="mb-6 rounded-lg border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
        data-testid="cluster-run"
        data-run-status="done"
      >
        {run.failedCount} of {run.keywordCount} results pages could not be read: those keywords are not grouped yet.
        Group by topic again later to read them.
      </p>
    )
  return null
}

function Clusters({
  list,
  market,
  requestKey,
  running,
}: {
  list: List
  market: ClusterMarket
  requestKey: string
  running: boolean
}) {
  return (
    <section aria-labelledby="clusters-heading">
      <h2 id="clusters-heading" className="mb-3 text-lg font-semibold text-slate-900">
        {list.clusters.length === 1 ? '1 cluster' : `${list.clusters.length} clusters`}
      </h2>
      {list.withoutSerp > 0 && !running ? (
        <p className="mb-4 text-sm text-slate-600" data-testid="without-serp">
          {list.withoutSerp === 1 ? '1 keyword has' : `${list.withoutSerp} keywords have`} no results page yet: Group by
          topic reads {list.withoutSerp === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
      {list.clusters.length === 0 ? (
        <p className="card text-slate-700">
          No clusters yet. Group by topic reads the results pages of your keywords and puts together those that share at
          least {CLUSTER_MIN_SHARED_URLS} of their top 10 results.
        </p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {list.clusters.map((c) => (
            <ClusterCard key={c.main.id} cluster={c} market={market} requestKey={requestKey} />
          ))}
        </ul>
      )}
      {list.unclustered.length > 0 ? (
        <details className="mt-6 rounded-lg border border-slate-200 p-4">
          <summary className="cursor-pointer text-sm font-semibold text-slate-800">
            {list.unclustered.length === 1
              ? '1 keyword is on a topic of its own'
              : `${list.unclustered.length} keywords are on topics of their own`}
          </summary>
          <ul className="mt-3 flex flex-wrap gap-2 text-sm text-slate-700">
            {list.unclustered.map((m) => (
              <li key={m.id} className="rounded-full border border-slate-200 px-2 py-0.5 [overflow-wrap:anywhere]">
                {m.keyword} <span className="text-slate-500">({formatVolume(m.volume)})</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  )
}

function ClusterCard({
  cluster,
  market,
  requestKey,
}: {
  cluster: List['clusters'][number]
  market: ClusterMarket
  requestKey: string
}) {
  const navigation = useNavigation()
  const busy =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === 'create-post' &&
    navigation.formData?.get('keywordId') === cluster.main.id
  const headingId = `cluster-${cluster.main.id}`
  return (
    <li className="card flex min-w-0 flex-col gap-3" data-testid="cluster">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="min-w-0 text-base font-semibold text-slate-900 [overflow-wrap:anywhere]">
          {cluster.main.keyword}
        </h3>
        <p className="text-sm text-slate-600">
          <span className="font-semibold text-slate-900" data-testid="cluster-volume">
            {formatVolume(cluster.totalVolume)}
          </span>{' '}
          searches a month in all
        </p>
      </div>
      <ul className="space-y-1 text-sm text-slate-700" aria-label={`Keywords of the cluster ${cluster.main.keyword}`}>
        <li className="flex justify-between gap-2">
          <span className="min-w-0 [overflow-wrap:anywhere]">
            {cluster.main.keyword} <span className="text-xs text-slate-500">(main keyword)</span>
          </span>
          <span className="shrink-0 tabular-nums">{formatVolume(cluster.main.volume)}</span>
        </li>
        {cluster.members.map((m) => (
          <li key={m.id} className="flex justify-between gap-2" data-testid="cluster-member">
            <span className="min-w-0 [overflow-wrap:anywhere]">{m.keyword}</span>
            <span className="shrink-0 tabular-nums">{formatVolume(m.volume)}</span>
          </li>
        ))}
      </ul>
      <div className="mt-auto flex flex-wrap items-center gap-2">
        {cluster.post ? (
          <>
            <PostProgressBadge progress={cluster.post.progress} />
            {cluster.post.keywordId !== cluster.main.id ? (
              <span className="text-xs text-slate-600">for “{cluster.post.keyword}”</span>
            ) : null}
            <Link
              to={`/blogpost/${cluster.post.progress.postId}`}
              className="btn-secondary px-3 py-1.5 text-xs"
              aria-describedby={headingId}
            >
              View post
            </Link>
          </>
        ) : (
          <Form method="post">
            <CreatePostFields
              keywordId={cluster.main.id}
              keyword={cluster.main.keyword}
              secondary={cluster.members.map((m) => m.keyword)}
              requestKey={`${cluster.main.id}.${requestKey}`}
              market={market}
            />
            <button
              type="submit"
              className="btn-primary px-3 py-1.5 text-xs"
              disabled={busy}
              aria-busy={busy || undefined}
              aria-describedby={headingId}
            >
              {busy ? 'Creating...' : 'Create Post'}
            </button>
          </Form>
        )}
      </div>
    </li>
  )
}

function CreatePostFields(props: {
  keywordId: string
  keyword: string
  secondary: string[]
  requestKey: string
  market: ClusterMarket
  force?: boolean
}) {
  return (
    <>
      <input type="hidden" name="intent" value="create-post" />
      <input type="hidden" name="keywordId" value={props.keywordId} />
      <input type="hidden" name="keyword" value={props.keyword} />
      {props.secondary.map((s) => (
        <input key={s} type="hidden" name="secondary" value={s} />
      ))}
      <input type="hidden" name="requestKey" value={props.requestKey} />
      <input type="hidden" name="countryCode" value={props.market.countryCode} />
      <input type="hidden" name="languageCode" value={props.market.languageCode} />
      {props.force ? <input type="hidden" name="force" value="1" /> : null}
    </>
  )
}

/** 'Create Post' met a post or page for a very similar search: update it, or write the cluster's post anyway. */
function OverlapChoice({ answer }: { answer: OverlapAnswer }) {
  return (
    <section className="card mb-6 space-y-4" data-testid="overlap" aria-labelledby="overlap-heading">
      <h2 id="overlap-heading" className="text-lg font-semibold text-slate-900">
        A very similar search
      </h2>
      <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">Keyword: {answer.keyword}</p>
      <p role="alert" className="text-slate-800">
        {answer.overlap.message}
      </p>
      <p className="text-sm text-slate-600">
        Two pages for the same search compete with each other in Google: updating the one you have usually ranks better
        than writing another.
      </p>
      <div className="flex flex-wrap gap-2">
        {answer.overlap.href ? (
          answer.overlap.internal ? (
            <Link to={answer.overlap.href} className="btn-primary">
              Update it instead
            </Link>
          ) : (
            <a href={answer.overlap.href} className="btn-primary" rel="noreferrer" target="_blank">
              Open your page
            </a>
          )
        ) : null}
        <Form method="post">
          <CreatePostFields
            keywordId={answer.keywordId}
            keyword={answer.keyword}
            secondary={answer.secondary}
            requestKey={answer.requestKey}
            market={answer.market}
            force
          />
          <SubmitButton className="btn-secondary" pendingText="Creating...">
            Write a new post anyway
          </SubmitButton>
        </Form>
      </div>
    </section>
  )
}
