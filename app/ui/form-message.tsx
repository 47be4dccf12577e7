/** The server's answer above the form: green on success, red on failure. */
export function FormMessage({ message, tone }: { message: string | null | undefined; tone: 'success' | 'error' }) {
  if (!message) return null
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid="form-message"
      data-tone={tone}
      className={`mb-4 rounded-lg border px-3 py-2 text-sm ${
        tone === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-green-200 bg-green-50 text-green-800'
      }`}
    >
      {message}
    </div>
  )
}
