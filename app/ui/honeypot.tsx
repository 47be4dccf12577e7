import { useId } from 'react'
import { HONEYPOT_FIELD } from '#app/platform/security/honeypot'

/** Invisible to people (off-screen, not focusable, hidden from screen readers); bots fill it in. */
export function Honeypot() {
  const id = useId()
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}
