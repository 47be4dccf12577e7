import type { ReactNode } from 'react'

/** An alert for each paused destination (with why it was paused), ending with what to do about it: `fix`. */
export function PausedDestinations({
  destinations,
  className,
  testId,
  fix,
}: {
  destinations: Array<{ id: string; name: string; paused: boolean; pausedReason: string | null }>
  className: string
  testId?: string
  fix: ReactNode
}) {
  return destinations
    .filter((d) => d.paused)
    .map((d) => (
      <p key={d.id} role="alert" data-testid={testId} className={className}>
        <strong>{d.name}</strong> is paused: {d.pausedReason ?? 'it kept failing'} {fix}
      </p>
    ))
}
