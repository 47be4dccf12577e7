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
import { requireUser } from '#app/features/accounts/session.server'
import { CreatePostButton, usePageKey } from '#app/features/content/components/create-post-button'
import { KeywordViews } from '#app/features/keywords/components/keyword-views'
import { difficultyBand } from '#app/features/keywords/difficulty'
import {
  keywordGap,
  latestGapCompetitor,
  ownDomain,
  rankedKeywordsForDomain,
  savedGap,
  savedRanked,
  userMarket,
  vetDomain,
  type DomainKeywordRow,
} from '#app/features/keywords/domain-keywords.server'
import {
  competitorFormSchema,
  rankingsFormSchema,
  STRIKING_DISTANCE,
  WEBSITE_SETTING_PATH,
} from '#app/features/keywords/domains'
import { formatVolume } from '#app/features/keywords/keywords'
import { postProgressForKeywords } from '#app/features/publishing/post-progress.server'
import { readForm } from '#app/platform/http/body.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { COUNTRY_OPTIONS, findCountry, findLanguage, LANGUAGE_OPTIONS } from '#app/platform/markets/markets'
import { Field, SelectField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { FormMessage } from '#app/ui/form-message'
import { PageHeader } from '#app/ui/page-header'
import { PostProgressBadge, type PostProgress } from '#app/ui/post-progress'
import { ScrollRegion } from '#app/ui/scroll-region'
import { SiteLink } from '#app/ui/site-link'
import { SubmitButton } from '#app/ui/submit-button'

export const meta: MetaFunction = () => [{ title: 'Your domain · Keyword research · Rankwell' }]

const PATH = '/keywords/domain'

type Market = { countryCode: string; languageCode: string }

/** The page's market: the URL's (after a lookup), else the user's onboarding market, else none chosen yet. */
function marketFrom(params: URLSearchParams, fallback: Market | null): Market | null {
  const countryCode = params.get('country') ?? ''
  const languageCode = params.get('language') ?? ''
  if (findCountry(countryCode) && findLanguage(languageCode)) return { countryCode, languageCode }
  return fallback
}

const pageUrl = (market: Market, competitor?: string | null) =>
  `${PATH}?${new URLSearchParams({
    country: market.countryCode,
    language: market.languageCode,
    ...(competitor ? { competitor } : {}),
  })}`

/**
 * /keywords/domain (issue 36, point 4): where the user's site already stands. 'Check my rankings' looks up the
 * keywords the user's website ranks for (striking distance first: positions 4-20, the quickest wins), a competitor's
 * domain gives the keywords it ranks for and the user's site does not. Both lists are read back from the saved rows
 * of the latest lookup, so a reload shows them; each row can 'Create Post' as on /keywords.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const params = new URL(request.url).searchParams
  const [own, onboarding] = await Promise.all([ownDomain(user.id), userMarket(user.id)])
  const market = marketFrom(params, onboarding)
  const asked = params.get('competitor') ? vetDomain(params.get('competitor')) : null
  const competitor = market ? (asked?.ok ? asked.domain : await latestGapCompetitor(user.id, market)) : null
  const [ranked, gap] = await Promise.all([
    own.ok && market ? savedRanked(user.id, own.domain, market) : Promise.resolve([]),
    competitor && market ? savedGap(user.id, competitor, market) : Promise.resolve([]),
  ])
  const progress = await postProgressForKeywords(
    user.id,
    [...ranked, ...gap].map((k) => k.id),
  )
  const withPost = (rows: DomainKeywordRow[]) => rows.map((k) => ({ ...k, post: progress.get(k.id) ?? null }))
  return json(
    {
      domain: own.ok ? own.domain : null,
      websiteMessage: own.ok ? null : own.message,
      market: market ?? { countryCode: '', languageCode: '' },
      competitor: competitor || null,
      ranked: withPost(ranked),
      gap: withPost(gap),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type ActionAnswer = {
  form: 'ranked' | 'gap'
  message: string
  upgrade?: boolean
  result?: SubmissionResult<string[]>
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  if (intent === 'ranked') {
    const submission = parseSubmission(form, rankingsFormSchema)
    if (submission.status !== 'success')
      return json<ActionAnswer>(
        { form: 'ranked', message: 'Select a country and a language.', result: submission.reply() },
        { status: 400 },
      )
    const own = await ownDomain(user.id)
    if (!own.ok) return json<ActionAnswer>({ form: 'ranked', message: own.message }, { status: 400 })
    const result = await rankedKeywordsForDomain(user.id, { domain: own.domain, market: submission.value })
    if (!result.ok)
      return json<ActionAnswer>(
        { form: 'ranked', message: result.message, upgrade: result.reason === 'quota' },
        { status: statusOf(result.reason) },
      )
    const count = result.keywords.length
    return toast().redirectWithSuccess(pageUrl(submission.value), {
      message:
        count > 0
          ? `${result.domain} ranks for ${count} keyword${count === 1 ? '' : 's'}.`
          : `No rankings found for ${result.domain} in this market yet.`,
      duration: TOAST_MS,
    })
  }
  if (intent === 'gap') {
    const submission = parseSubmission(form, competitorFormSchema)
    if (submission.status !== 'success')
      return json<ActionAnswer>({ form: 'gap', message: '', result: submission.reply() }, { status: 400 })
    const { competitor, countryCode, languageCode } = submission.value
    const result = await keywordGap(user.id, { competitor, market: { countryCode, languageCode } })
    if (!result.ok) {
      // A refusal about the domain itself goes next to the field, the rest above the form.
      if (result.reason === 'invalid' && result.field === 'competitor')
        return json<ActionAnswer>(
          {
            form: 'gap',
            message: '',
            result: submission.reply({ fieldErrors: { competitor: [result.message] } }),
          },
          { status: 400 },
        )
      return json<ActionAnswer>(
        { form: 'gap', message: result.message, upgrade: result.reason === 'quota', result: submission.reply() },
        { status: statusOf(result.reason) },
      )
    }
    const count = result.keywords.length
    return toast().redirectWithSuccess(pageUrl({ countryCode, languageCode }, result.competitor), {
      message:
        count > 0
          ? `${result.competitor} ranks for ${count} keyword${count === 1 ? '' : 's'} your site does not.`
          : `No keywords found that ${result.competitor} ranks for and your site does not.`,
      duration: TOAST_MS,
    })
  }
  return redirect(PATH)
}

const statusOf = (reason: string) =>
  reason === 'quota' ? 402 : reason === 'provider_error' ? 502 : reason === 'unavailable' ? 503 : 400

type Row = DomainKeywordRow & { post: PostProgress | null }

/**
 * With JavaScript: a submission whose request fails in the browser (no answer, a 5xx, a proxy's page) keeps the page
 * and what was typed, and says so above the forms.
 */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

export default function DomainKeywordsPage() {
  const data = useLoaderData<typeof loader>()
  const raw = useActionData<typeof clientAction>()
  const failure = clientFailureOf(raw)
  const answer = withoutFailure(raw) as ActionAnswer | undefined
  const pageKey = usePageKey()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : null
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader
        title="Your domain"
        subtitle="The keywords your site already ranks for, the quickest wins among them, and what a competitor ranks for that you do not."
      />
      <KeywordViews />
      {failure ? (
        <FormMessage
          message={failureMessage(failure, 'The lookup could not be sent. Check your connection and try again.')}
          tone="error"
        />
      ) : null}

      <section aria-labelledby="rankings-title" className="card mb-8">
        <h2 id="rankings-title" className="text-lg font-semibold text-slate-900">
          Where you already stand
        </h2>
        {data.domain ? (
          <RankingsForm
            key={`${data.market.countryCode}|${data.market.languageCode}`}
            domain={data.domain}
            market={data.market}
            answer={answer?.form === 'ranked' ? answer : undefined}
            busy={busy === 'ranked'}
          />
        ) : (
          <p className="mt-2 text-slate-700" data-testid="no-website">
            {data.websiteMessage}{' '}
            <Link to={WEBSITE_SETTING_PATH} className="font-semibold text-brand-700 underline hover:text-brand-800">
              Set your website
            </Link>
          </p>
        )}
        {data.domain ? (
          <KeywordList
            label={`Keywords ${data.domain} ranks for`}
            rows={data.ranked as Row[]}
            pageKey={pageKey}
            kind="ranked"
            empty="No rankings yet. Check your rankings to see the keywords your site appears for in Google."
          />
        ) : null}
      </section>

      <section aria-labelledby="gap-title" className="card">
        <h2 id="gap-title" className="text-lg font-semibold text-slate-900">
          A competitor’s keywords
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The keywords a competitor ranks for and your site does not: topics your customers search that you do not cover
          yet.
        </p>
        <CompetitorForm
          // A new lookup (or market) starts the form again from what the page shows.
          key={`${data.competitor ?? ''}|${data.market.countryCode}|${data.market.languageCode}`}
          market={data.market}
          competitor={data.competitor}
          answer={answer?.form === 'gap' ? answer : undefined}
          busy={busy === 'gap'}
          disabled={!data.domain}
        />
        {data.competitor ? (
          <KeywordList
            label={`Keywords ${data.competitor} ranks for and your site does not`}
            rows={data.gap as Row[]}
            pageKey={pageKey}
            kind="gap"
            empty={`No keywords found that ${data.competitor} ranks for and your site does not.`}
          />
        ) : null}
      </section>
    </div>
  )
}

function AnswerMessage({ answer }: { answer: ActionAnswer | undefined }) {
  if (!answer?.message) return null
  return (
    <div className="mt-4">
      <FormMessage message={answer.message} tone="error" />
      {answer.upgrade ? (
        <Link to="/profile" className="btn-primary -mt-2 mb-4 inline-block">
          Upgrade Now
        </Link>
      ) : null}
    </div>
  )
}

function MarketFields({ fields }: { fields: ReturnType<typeof useSchemaForm<typeof rankingsFormSchema>>['fields'] }) {
  return (
    <>
      <SelectField
        label="Country"
        meta={fields.countryCode}
        placeholder="Select country"
        options={COUNTRY_OPTIONS}
        aria-required="true"
      />
      <SelectField
        label="Language"
        meta={fields.languageCode}
        placeholder="Select language"
        options={LANGUAGE_OPTIONS}
        aria-required="true"
      />
    </>
  )
}

function RankingsForm({
  domain,
  market,
  answer,
  busy,
}: {
  domain: string
  market: Market
  answer: ActionAnswer | undefined
  busy: boolean
}) {
  const { fields, formProps } = useSchemaForm({
    id: 'domain-rankings',
    schema: rankingsFormSchema,
    lastResult: answer?.result,
    defaultValue: market,
  })
  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        Your website: <strong className="text-slate-900">{domain}</strong>{' '}
        <Link to={WEBSITE_SETTING_PATH} className="text-brand-700 underline hover:text-brand-800">
          Change
        </Link>
      </p>
      <AnswerMessage answer={answer} />
      <Form
        method="post"
        action={PATH}
        className="mt-4 grid gap-4 md:grid-cols-[1fr_1fr_auto] md:items-end"
        {...formProps}
      >
        <MarketFields fields={fields} />
        <SubmitButton
          intent="ranked"
          pending={busy}
          pendingText="Checking..."
          className="btn-primary whitespace-nowrap"
        >
          Check my rankings
        </SubmitButton>
      </Form>
    </>
  )
}

function CompetitorForm({
  market,
  competitor,
  answer,
  busy,
  disabled,
}: {
  market: Market
  competitor: string | null
  answer: ActionAnswer | undefined
  busy: boolean
  disabled: boolean
}) {
  const { fields, formProps } = useSchemaForm({
    id: 'domain-gap',
    schema: competitorFormSchema,
    lastResult: answer?.result,
    defaultValue: { competitor: competitor ?? '', ...market },
  })
  return (
    <>
      <AnswerMessage answer={answer} />
      <Form
        method="post"
        action={PATH}
        className="mt-4 grid gap-4 md:grid-cols-[2fr_1fr_1fr_auto] md:items-start"
        {...formProps}
      >
        <Field
          label="Competitor’s domain"
          meta={fields.competitor}
          placeholder="competitor.com"
          autoComplete="off"
          inputMode="url"
          spellCheck={false}
          aria-required="true"
          maxLength={2000}
          hint="A domain like competitor.com, without a path."
        />
        <MarketFields fields={fields} />
        <SubmitButton
          intent="gap"
          pending={busy}
          pendingText="Looking up..."
          className="btn-primary whitespace-nowrap md:mt-6"
          {...(disabled ? { disabled: true } : {})}
        >
          Find their keywords
        </SubmitButton>
      </Form>
    </>
  )
}

const th = 'stacked-th'
const td = 'stacked-td'

function KeywordList({
  label,
  rows,
  pageKey,
  kind,
  empty,
}: {
  label: string
  rows: Row[]
  pageKey: string
  kind: 'ranked' | 'gap'
  empty: string
}) {
  if (rows.length === 0)
    return (
      <p className="mt-6 text-slate-600" data-testid={`${kind}-empty`}>
        {empty}
      </p>
    )
  const quick = rows.filter((r) => r.strikingDistance).length
  return (
    <div className="mt-6">
      {kind === 'ranked' ? (
        <p className="mb-3 text-sm text-slate-700">
          {quick > 0
            ? `${quick} keyword${quick === 1 ? '' : 's'} in positions ${STRIKING_DISTANCE.from}-${STRIKING_DISTANCE.to}: the quickest wins, listed first. A better post can move them onto the first page or to its top.`
            : `None of these is in positions ${STRIKING_DISTANCE.from}-${STRIKING_DISTANCE.to}, where a better post wins quickest.`}
        </p>
      ) : null}
      <ScrollRegion label={label} className="sm:overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm max-sm:block" data-testid={`${kind}-keywords`}>
          <thead className="bg-slate-50 max-sm:sr-only">
            <tr>
              <th scope="col" className={th}>
                Keyword
              </th>
              <th scope="col" className={th}>
                {kind === 'ranked' ? 'Your position' : 'Their position'}
              </th>
              <th scope="col" className={th}>
                Page
              </th>
              <th scope="col" className={th}>
                Volume
              </th>
              <th scope="col" className={th}>
                Difficulty
              </th>
              <th scope="col" className={th}>
                Action
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-sm:block">
            {rows.map((k) => {
              const band = difficultyBand(k.difficultyScore)
              return (
                <tr key={k.id} data-keyword={k.keyword} className="stacked-tr">
                  <td className={`${td} max-sm:order-1 max-sm:col-span-2 max-sm:before:hidden`} data-label="Keyword">
                    <span id={`keyword-${k.id}`} className="font-medium text-slate-900">
                      {k.keyword}
                    </span>
                    {k.strikingDistance ? (
                      <span
                        className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-[11px] font-semibold text-emerald-800"
                        data-quick-win
                      >
                        Quick win
                      </span>
                    ) : null}
                    {k.post ? (
                      <span className="mt-1 block">
                        <PostProgressBadge progress={k.post} />
                      </span>
                    ) : null}
                  </td>
                  <td
                    className={`${td} whitespace-nowrap tabular-nums max-sm:order-2`}
                    data-label={kind === 'ranked' ? 'Your position' : 'Their position'}
                  >
                    {k.position ?? 'N/A'}
                  </td>
                  <td className={`${td} max-w-xs truncate max-sm:order-5 max-sm:col-span-2`} data-label="Page">
                    {k.url ? (
                      <a
                        href={k.url}
                        rel="nofollow noopener noreferrer"
                        target="_blank"
                        className="text-brand-700 underline hover:text-brand-800"
                      >
                        {displayUrl(k.url)}
                      </a>
                    ) : (
                      'N/A'
                    )}
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums max-sm:order-3`} data-label="Volume">
                    {formatVolume(k.avgMonthlySearches)}
                  </td>
                  <td className={`${td} max-sm:order-4`} data-label="Difficulty">
                    <span className="inline-flex items-center gap-2">
                      <span
                        className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${band.className}`}
                        data-difficulty={band.tone}
                      >
                        {band.label}
                      </span>
                      {k.difficultyScore !== null ? (
                        <span className="tabular-nums text-slate-600">{k.difficultyScore}</span>
                      ) : null}
                    </span>
                  </td>
                  <td className={`${td} max-sm:order-6 max-sm:col-span-2 max-sm:before:hidden`} data-label="Action">
                    {k.post ? (
                      <SiteLink
                        to={`/blogpost/${k.post.postId}`}
                        className="btn-secondary px-3 py-1.5 text-xs"
                        aria-describedby={`keyword-${k.id}`}
                      >
                        View post
                      </SiteLink>
                    ) : (
                      <CreatePostButton keywordId={k.id} pageKey={pageKey} />
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  )
}

/** A page's address without the scheme, for reading. */
function displayUrl(url: string) {
  return url.replace(/^https?:\/\//, '').replace(/\/$/, '')
}
