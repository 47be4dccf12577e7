/** Shown when local fake servers answer for third-party services (npm run dev without credentials). */
export function OfflineBadge({ services }: { services: string[] }) {
  if (services.length === 0) return null
  return (
    <div
      className="fixed bottom-3 left-3 z-40 rounded-full border border-amber-300 bg-amber-50 px-3 py-1 text-xs font-medium text-amber-900 shadow"
      title={`These services are answered by local fake servers: ${services.join(', ')}`}
      data-testid="offline-badge"
    >
      Offline services: {services.join(', ')}
    </div>
  )
}
