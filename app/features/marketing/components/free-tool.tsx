import type { FieldMetadata } from '@conform-to/react'
import { Link, useActionData, useFetcher } from '@remix-run/react'
import { useEffect, useRef, type ReactNode, type RefObject } from 'react'
import { Field } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'
import { clientFailureOf } from '#app/ui/client-failure'
import {
  MAX_INPUT_LENGTH,
  TOOL_MESSAGES,
  type ToolId,
  type ToolPageData,
  type ToolResult,
} from '#app/features/marketing/seo-tools'
import { TOOL_INPUTS, type ToolInput } from '#app/features/marketing/seo-tools-schema'
import { IconCard, NumberedSteps } from './cards'
import { TRIAL_NOTE } from '#app/features/marketing/landing-copy'
import { Icon, type IconName } from './icons'
import { Honeypot } from '#app/ui/honeypot'

/**
 * The building blocks of the free-tool pages. A tool's form is a fetcher form checked by the tool's schema (Conform,
 * decision 0311): with JavaScript an invalid field is shown at once, and a valid form submits in the background (busy
 * label, previous result cleared); without JavaScript it is a plain POST whose action renders the result on the page.
 * `useToolRun` reads whichever of the two answered: the reply's field errors go next to the fields, the tool's
 * refusal (the form's error) and a request that failed in the browser go to the red box.
 */
export function useToolRun<T extends ToolId>(tool: T) {
  const actionData = useActionData()
  const fetcher = useFetcher()
  const busy = fetcher.state !== 'idle'
  const latest: unknown = fetcher.data ?? actionData
  const failure = clientFailureOf(latest)
  const answer = failure ? undefined : (latest as ToolPageData<T> | undefined)
  const { form, fields, formProps } = useSchemaForm({
    id: `free-tool-${tool}`,
    schema: TOOL_INPUTS[tool],
    lastResult: answer?.result,
  })
  const resultRef = useRef<HTMLDivElement>(null)
  // Move focus to the answer once a background submission has finished, so keyboard and screen-reader users get it.
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data) resultRef.current?.focus()
  }, [fetcher.state, fetcher.data])
  const error = failure ? TOOL_MESSAGES[tool].failed : form.errors?.[0]
  return {
    fetcher,
    busy,
    formProps,
    /** Every tool's inputs are text fields. */
    fields: fields as Record<keyof ToolInput<T> & string, FieldMetadata<string>>,
    result: busy ? undefined : answer?.data,
    error: busy ? undefined : error,
    errorId: failure ? undefined : form.errorId,
    resultRef,
  }
}

export function ToolHero({
  eyebrow,
  title,
  intro,
  children,
}: {
  eyebrow: string
  title: string
  intro: ReactNode
  children: ReactNode
}) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 pb-12 pt-12 sm:pt-16">
      <div className="mx-auto max-w-3xl text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{eyebrow}</p>
        <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">{intro}</p>
      </div>
      <div className="relative mx-auto mt-8 max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        {children}
      </div>
    </section>
  )
}

export function ErrorBox({ message, id }: { message: string; id?: string }) {
  return (
    <div
      id={id}
      role="alert"
      data-testid="tool-error"
      className="rounded-xl border border-red-300 bg-red-50 p-4 text-sm font-medium text-red-800"
    >
      {message}
    </div>
  )
}

/** The result area: the error box sits above the results; it is a focus target after a background submission. */
export function ResultArea({
  error,
  errorId,
  children,
  resultRef,
}: {
  error?: string
  /** The form's error id (its aria-describedby) when the error is the form's. */
  errorId?: string
  children?: ReactNode
  resultRef: RefObject<HTMLDivElement>
}) {
  if (!error && !children) return null
  return (
    <section aria-label="Results" className="px-4 py-10">
      <div
        ref={resultRef}
        tabIndex={-1}
        className="mx-auto max-w-3xl scroll-mt-24 space-y-6 outline-none"
        aria-live="polite"
      >
        {error ? <ErrorBox message={error} id={errorId} /> : null}
        {children}
      </div>
    </section>
  )
}

type Promo = {
  title: string
  points: Array<{ icon: IconName; text: string }>
  highlight: string
  cta: string
}

export function PromoBlock({ title, points, highlight, cta }: Promo) {
  return (
    <aside aria-labelledby="promo-title" className="rounded-2xl bg-slate-900 p-6 text-white sm:p-8" data-testid="promo">
      <h2 id="promo-title" className="text-2xl font-bold">
        {title}
      </h2>
      <ul className="mt-4 space-y-2">
        {points.map((p) => (
          <li key={p.text} className="flex items-start gap-3 text-slate-200">
            <Icon name={p.icon} className="mt-0.5 h-5 w-5 flex-none text-brand-300" />
            <span>{p.text}</span>
          </li>
        ))}
      </ul>
      <p className="mt-5 inline-flex items-center gap-2 rounded-full bg-brand-600 px-4 py-1.5 text-sm font-bold">
        <Icon name="clock" className="h-4 w-4" />
        {highlight}
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
        <Link to="/signup" className="btn bg-white px-5 py-3 text-base text-slate-900 hover:bg-brand-50">
          {cta}
        </Link>
        <p className="text-sm text-slate-300">{TRIAL_NOTE}</p>
      </div>
    </aside>
  )
}

type Features = { heading: string; features: Array<{ icon: IconName; title: string; text: string }> }

export function FeatureCards({ heading, features }: Features) {
  return (
    <section aria-labelledby="features-title" className="px-4 py-14">
      <div className="mx-auto max-w-6xl">
        <h2 id="features-title" className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {heading}
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((f) => (
            <IconCard
              key={f.title}
              {...f}
              badgeClassName="bg-brand-50 text-brand-700"
              textClassName="text-sm text-slate-600"
            />
          ))}
        </ul>
      </div>
    </section>
  )
}

type Step = { title: string; text: string }

export function HowItWorks({ steps }: { steps: Step[] }) {
  return (
    <section aria-labelledby="how-title" className="bg-white px-4 py-14">
      <div className="mx-auto max-w-5xl">
        <h2 id="how-title" className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          How It Works
        </h2>
        <NumberedSteps steps={steps} variant="centered" className="mt-10 grid gap-8 md:grid-cols-3" />
      </div>
    </section>
  )
}

export function ClosingBanner({ title, text }: { title: string; text: string }) {
  return (
    <section aria-labelledby="closing-title" className="px-4 py-14">
      <div className="mx-auto max-w-4xl rounded-3xl bg-brand-700 px-6 py-10 text-center text-white sm:px-12">
        <h2 id="closing-title" className="text-2xl font-bold sm:text-3xl">
          {title}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-brand-50">{text}</p>
        <Link to="/free-tools" className="btn mt-6 bg-white px-5 py-3 text-base text-brand-800 hover:bg-brand-50">
          Explore All Free Tools
        </Link>
      </div>
    </section>
  )
}

/**
 * A whole free-tool page: the hero with the tool's form (its required text fields, the honeypot and the busy
 * label), the result area (error box, the page's own result view, then its promo), and the page's feature cards,
 * How It Works steps and closing banner. `afterResults` goes between the results and the feature cards.
 */
export function FreeToolPage<T extends ToolId>({
  tool,
  title,
  intro,
  formLabel,
  fields,
  submitText,
  pendingText,
  renderResult,
  promo,
  afterResults,
  features,
  steps,
  closing,
}: {
  tool: T
  title: string
  intro: string
  formLabel: string
  fields: Array<{ label: string; name: keyof ToolInput<T> & string; placeholder: string }>
  submitText: string
  pendingText: string
  renderResult: (result: ToolResult[T]) => ReactNode
  promo?: Promo
  afterResults?: ReactNode
  features: Features
  steps: Step[]
  closing: { title: string; text: string }
}) {
  const { fetcher, busy, formProps, fields: meta, result, error, errorId, resultRef } = useToolRun(tool)
  return (
    <>
      <ToolHero eyebrow="Free SEO tool" title={title} intro={intro}>
        <fetcher.Form method="post" className="space-y-4" aria-label={formLabel} {...formProps}>
          {fields.map((field) => (
            <Field
              key={field.name}
              label={field.label}
              meta={meta[field.name]}
              required
              maxLength={MAX_INPUT_LENGTH}
              placeholder={field.placeholder}
            />
          ))}
          <Honeypot />
          <SubmitButton pending={busy} pendingText={pendingText} className="btn-primary w-full py-3 text-base">
            {submitText}
          </SubmitButton>
        </fetcher.Form>
      </ToolHero>

      <ResultArea error={error} errorId={errorId} resultRef={resultRef}>
        {result ? (
          <>
            {renderResult(result)}
            {promo ? <PromoBlock {...promo} /> : null}
          </>
        ) : null}
      </ResultArea>

      {afterResults}
      <FeatureCards {...features} />
      <HowItWorks steps={steps} />
      <ClosingBanner {...closing} />
    </>
  )
}
