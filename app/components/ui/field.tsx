import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'

type Common = { label: ReactNode; error?: string | string[] | null; hint?: ReactNode; className?: string }

/** What the labelled control itself gets from its field: its id, the input style and the error wiring. */
type ControlProps = {
  id: string
  className: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

function firstError(error: Common['error']) {
  return Array.isArray(error) ? error[0] : error || undefined
}

/**
 * The frame every field shares: the label, the control (drawn by `control`), then the hint or the error message right
 * below it (aria-invalid + aria-describedby).
 */
function FieldFrame({
  label,
  error,
  hint,
  className,
  id,
  control,
}: Common & { id?: string; control: (props: ControlProps) => ReactNode }) {
  const generated = useId()
  const inputId = id ?? generated
  const message = firstError(error)
  return (
    <div className={className}>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      {control({
        id: inputId,
        className: 'input',
        'aria-invalid': message ? true : undefined,
        'aria-describedby': message ? `${inputId}-error` : undefined,
      })}
      {hint && !message ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
      {message ? (
        <p id={`${inputId}-error`} className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  )
}

/** A labelled input with its error message right below it. */
export function Field({ label, error, hint, className, id, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      id={id}
      control={(props) => <input {...props} {...input} />}
    />
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
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      id={id}
      control={(props) => <textarea {...props} {...input} />}
    />
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
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      id={id}
      control={(props) => (
        <select {...props} {...select}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  )
}
