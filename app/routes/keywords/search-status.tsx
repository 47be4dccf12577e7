import {
  COMPETITION_TOOLTIP,
  ESTIMATES_NOTICE,
  SEARCH_UNAVAILABLE_MESSAGE,
  type KeywordSource,
} from '#app/features/keywords/keywords'

/** Over the page while a search runs (JavaScript). */
export function AnalyzingOverlay() {
  return (
    <div
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/60 p-4"
      data-testid="analyzing-overlay"
    >
      <div role="status" aria-live="polite" className="w-full max-w-sm rounded-2xl bg-white p-8 text-center shadow-xl">
        <span
          aria-hidden="true"
          className="mx-auto mb-4 block h-10 w-10 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600"
        />
        <h2 className="text-lg font-semibold text-slate-900">Analyzing Keywords</h2>
        <p className="mt-2 text-sm text-slate-600">Our AI is evaluating search patterns and competition levels...</p>
      </div>
    </div>
  )
}

/** Where new searches get their numbers, unless they are measured search data (the spec's source), in product words. */
export function SourceNotice({ source }: { source: KeywordSource | null }) {
  if (source === 'dataforseo') return null
  const text =
    source === 'google_ads'
      ? `Keyword data comes from Google Ads. ${COMPETITION_TOOLTIP}`
      : source === 'ai_estimate'
        ? ESTIMATES_NOTICE
        : SEARCH_UNAVAILABLE_MESSAGE
  return (
    <p
      className={`mb-6 rounded-lg border px-4 py-3 text-sm ${source ? 'border-sky-200 bg-sky-50 text-sky-900' : 'border-yellow-200 bg-yellow-50 text-yellow-900'}`}
      data-testid="source-notice"
    >
      {text}
    </p>
  )
}
