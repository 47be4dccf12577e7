import { useEffect, useState } from 'react'

/** "Save as PDF": opens the browser's print dialog. Without JavaScript it explains how instead. */
export function PrintButton() {
  const [canPrint, setCanPrint] = useState(false)
  useEffect(() => setCanPrint(typeof window.print === 'function'), [])
  if (!canPrint)
    return <p className="text-sm text-brand-50 print:hidden">To keep a PDF, use your browser’s Print → Save as PDF.</p>
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="btn bg-white text-brand-800 hover:bg-brand-50 print:hidden"
    >
      Print or save as PDF
    </button>
  )
}
