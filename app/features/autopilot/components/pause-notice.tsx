import { Link } from '@remix-run/react'
import type { AutopilotPause } from '#app/features/autopilot/autopilot-pause'

/** 'Paused: …' with what happens next and what to do (decision 0353), on /autopilot and /calendar. */
export function PauseNotice({ pause }: { pause: AutopilotPause }) {
  return (
    <div
      role="status"
      data-testid="autopilot-paused"
      className="mb-6 rounded-xl border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900"
    >
      <p className="font-semibold">{pause.message}</p>
      <p className="mt-1">
        {pause.detail}
        {pause.action ? (
          <>
            {' '}
            <Link to={pause.action.href} className="font-semibold text-brand-700 underline">
              {pause.action.label}
            </Link>
          </>
        ) : null}
      </p>
    </div>
  )
}
