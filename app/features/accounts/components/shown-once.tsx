import type { ReactNode } from 'react'

/**
 * A secret shown this once (a new API key, new recovery codes): the action's message (announced), what the secret is
 * for, then the secret itself (`children`).
 */
export function ShownOnce({
  testId,
  message,
  hint,
  children,
}: {
  testId: string
  message: string
  hint: ReactNode
  children: ReactNode
}) {
  return (
    <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3" data-testid={testId}>
      <p className="text-sm font-medium text-amber-900" role="status">
        {message}
      </p>
      <p className="mt-1 text-xs text-amber-900">{hint}</p>
      {children}
    </div>
  )
}
