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

/** Splits a field's props into its frame's and its control's. */
function frameProps<P extends Common & { id?: string }>({ label, error, hint, className, id, ...control }: P) {
  return [{ label, error, hint, className, id }, control] as const
}

/** A labelled input with its error message right below it. */
export function Field(props: Common & InputHTMLAttributes<HTMLInputElement>) {
  const [frame, input] = frameProps(props)
  return <FieldFrame {...frame} control={(wiring) => <input type="text" {...wiring} {...input} />} />
}

export function TextareaField(props: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const [frame, input] = frameProps(props)
  return <FieldFrame {...frame} control={(wiring) => <textarea {...wiring} {...input} />} />
}

export function SelectField({
  options,
  placeholder,
  ...props
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: Array<{ value: string; label: string }>
    placeholder?: string
  }) {
  const [frame, select] = frameProps(props)
  return (
    <FieldFrame
      {...frame}
      control={(wiring) => (
        <select {...wiring} {...select}>
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
