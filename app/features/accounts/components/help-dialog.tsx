import { useFetcher } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { HelpForm, helpAnswer, type HelpActionData } from './help-form'
import type { ClientFailure } from '#app/ui/client-failure'
import { Dialog } from '#app/ui/dialog'

/**
 * The 'How can we help?' modal (the shared accessible Dialog: focus moves to the question and stays inside, Escape
 * closes it, the focus returns to 'Help'). It posts to /help with a
 * fetcher; on success it closes and the root Toaster shows the success toast, on failure it stays open with the
 * question kept and the error shown.
 */
export function HelpDialog({ open, onClose, redirectTo }: { open: boolean; onClose: () => void; redirectTo: string }) {
  const fetcher = useFetcher<HelpActionData | ClientFailure>({ key: 'help-question' })
  const answer = helpAnswer(fetcher.data)
  const sent = answer?.ok === true

  // Close once a question went through: when the fetcher turns idle again after a submission, with a good answer.
  const previousState = useRef(fetcher.state)
  useEffect(() => {
    const wasBusy = previousState.current !== 'idle'
    previousState.current = fetcher.state
    if (wasBusy && fetcher.state === 'idle' && sent) onClose()
  }, [fetcher.state, sent, onClose])

  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy="help-title"
      describedBy="help-description"
      className="max-w-lg"
      testId="help-dialog"
    >
      <div className="p-6">
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id="help-title" className="text-lg font-semibold text-slate-900">
              How can we help?
            </h2>
            <p id="help-description" className="mt-1 text-sm text-slate-600">
              We&apos;ll respond within 24 hours
            </p>
          </div>
          <button
            type="button"
            onClick={onClose}
            className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            aria-label="Close"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {open ? (
          <HelpForm fetcher={fetcher} redirectTo={redirectTo} answer={sent ? undefined : answer} autoFocus />
        ) : null}
      </div>
    </Dialog>
  )
}
