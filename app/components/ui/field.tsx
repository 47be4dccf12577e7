import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'

type Common = { label: ReactNode; error?: string | string[] | null; hint?: ReactNode; className?: string }

function firstError(error: Common['error']) {
  return Array.isArray(error) ? error[0] : error || undefined
}

/** A labelled input with its error message right below it (aria-invalid + aria-describedby). */
export function Field({ label, error, hint, className, id, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const generated = useId()
  const inputId = id ?? generated
  const message = firstError(error)
  return (
    <div className={className}>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <input
        id={inputId}
        type="text"
        className="input"
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${inputId}-error` : undefined}
        {...input}
      />
      {hint && !message ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
      {message ? (
        <p id={`${inputId}-error`} className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  )
}

export function TextareaField({
  label,
  error,
  hint,
  className,
  id,
  ...input
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const generated = useId()
  const inputId = id ?? generated
  const message = firstError(error)
  return (
    <div className={className}>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <textarea
        id={inputId}
        className="input"
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${inputId}-error` : undefined}
        {...input}
      />
      {hint && !message ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
      {message ? (
        <p id={`${inputId}-error`} className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  )
}

export function SelectField({
  label,
  error,
  hint,
  className,
  id,
  options,
  placeholder,
  ...select
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: Array<{ value: string; label: string }>
    placeholder?: string
  }) {
  const generated = useId()
  const inputId = id ?? generated
  const message = firstError(error)
  return (
    <div className={className}>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <select
        id={inputId}
        className="input"
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${inputId}-error` : undefined}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && !message ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
      {message ? (
        <p id={`${inputId}-error`} className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  )
}
