import { Form, Link } from '@remix-run/react'
import { TRACKED_KEYWORD_LIMITS } from '#app/features/rankings/rankings'
import { SubmitButton } from '#app/ui/submit-button'

/** The profile's rankings card: tracked keywords against the plan's limit, and the weekly digest opt-out. */
export function RankingsCard({
  tracked,
  limit,
  digestEnabled,
  aiChecks,
}: {
  tracked: number
  limit: number
  digestEnabled: boolean
  /** Issue 37: this month's AI checks against the plan's bound. */
  aiChecks?: { used: number; limit: number }
}) {
  return (
    <section className="card" aria-labelledby="rankings-title" data-testid="rankings-card">
      <h2 id="rankings-title" className="text-lg font-semibold">
        Rankings
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="tracked-usage">
        Tracked keywords: {tracked} of {limit}
      </p>
      {aiChecks ? (
        <p className="mt-1 text-sm text-slate-600" data-testid="ai-checks-usage">
          AI checks this month: {aiChecks.used} of {aiChecks.limit}{' '}
          <Link to="/rankings/ai" className="underline">
            AI visibility
          </Link>
        </p>
      ) : null}
      <p className="mt-1 text-xs text-slate-500">
        Trial: {TRACKED_KEYWORD_LIMITS.trial} tracked keywords. Premium: {TRACKED_KEYWORD_LIMITS.premium}.{' '}
        <Link to="/rankings" className="underline">
          See rankings
        </Link>
      </p>
      <Form method="post" className="mt-4 space-y-3">
        <input type="hidden" name="digest" value={digestEnabled ? 'off' : 'on'} />
        <p className="text-sm text-slate-700">
          Weekly rankings e-mail: <strong>{digestEnabled ? 'On' : 'Off'}</strong>
        </p>
        <SubmitButton intent="rankings-digest" className="btn-secondary w-full" pendingText="Saving...">
          {digestEnabled ? 'Stop the weekly e-mail' : 'Send me the weekly e-mail'}
        </SubmitButton>
      </Form>
    </section>
  )
}
