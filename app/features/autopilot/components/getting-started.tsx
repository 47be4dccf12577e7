import { Form, Link, useLocation } from '@remix-run/react'
import { SubmitButton } from '#app/ui/submit-button'
import { progressText, type GettingStarted } from '../getting-started'

/**
 * The 'Get started' checklist (issue 35), on /keywords and /profile until every step is done or it is hidden. Each
 * step says in words whether it is done (the mark beside it only repeats that) and links to where it is done. Plain
 * forms: 'Hide' and 'Send the link again' work without JavaScript.
 */
export function GettingStartedCard({ data }: { data: GettingStarted }) {
  const location = useLocation()
  const here = `${location.pathname}${location.search}`
  const next = data.steps.find((s) => !s.done)
  return (
    <section className="card mb-6" aria-labelledby="getting-started-title" data-testid="getting-started">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="getting-started-title" className="text-lg font-semibold text-slate-900">
            Get started
          </h2>
          <p className="text-sm text-slate-600" data-testid="getting-started-progress">
            {progressText(data)}
          </p>
        </div>
        <Form method="post" action="/getting-started">
          <input type="hidden" name="redirectTo" value={here} />
          <SubmitButton intent="hide" className="btn-secondary py-1 text-sm" pendingText="Hiding...">
            Hide
          </SubmitButton>
        </Form>
      </div>
      <progress
        className="mt-3 block h-2 w-full overflow-hidden rounded-full bg-slate-100 [&::-moz-progress-bar]:bg-brand-600 [&::-webkit-progress-bar]:bg-slate-100 [&::-webkit-progress-value]:bg-brand-600"
        max={data.total}
        value={data.done}
        aria-label={`Get started: ${progressText(data)}`}
      >
        {progressText(data)}
      </progress>
      <ol className="mt-4 space-y-3">
        {data.steps.map((step) => (
          <li
            key={step.id}
            className="flex items-start gap-3"
            data-step={step.id}
            data-done={step.done ? 'true' : 'false'}
          >
            <span
              aria-hidden="true"
              className={`mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs font-bold ${
                step.done ? 'border-green-700 bg-green-700 text-white' : 'border-slate-400 text-slate-500'
              }`}
            >
              {step.done ? '✓' : ''}
            </span>
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-baseline gap-x-2">
                {step.href ? (
                  <Link
                    to={step.href}
                    className={`font-medium underline-offset-2 hover:underline ${step.done ? 'text-slate-700' : 'text-brand-700 underline'}`}
                  >
                    {step.label}
                  </Link>
                ) : (
                  <span className="font-medium text-slate-900">{step.label}</span>
                )}
                <span
                  className={`text-xs font-semibold ${step.done ? 'text-green-800' : step === next ? 'text-brand-700' : 'text-slate-600'}`}
                >
                  {step.done ? 'Done' : step === next ? 'Next' : 'Not done yet'}
                </span>
              </p>
              {step.done ? null : <p className="text-sm text-slate-600">{step.hint}</p>}
              {step.id === 'verify' && !step.done ? (
                <Form method="post" action="/verify-email" className="mt-1">
                  <SubmitButton intent="resend" className="btn-secondary py-1 text-sm" pendingText="Sending...">
                    Send the link again
                  </SubmitButton>
                </Form>
              ) : null}
            </div>
          </li>
        ))}
      </ol>
    </section>
  )
}

/** On /profile while the checklist is hidden and not finished: a way back to it. */
export function ShowGettingStarted({ data }: { data: GettingStarted }) {
  const location = useLocation()
  return (
    <Form
      method="post"
      action="/getting-started"
      className="flex flex-wrap items-center gap-3 text-sm text-slate-600"
      data-testid="getting-started-hidden"
    >
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <span>Get started: {progressText(data)}.</span>
      <SubmitButton intent="show" className="btn-secondary py-1 text-sm" pendingText="Showing...">
        Show the checklist
      </SubmitButton>
    </Form>
  )
}
