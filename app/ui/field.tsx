import type { FieldMetadata } from '@conform-to/react'
import {
  Fragment,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'
import { optionsHtml, type SelectOption } from './html'

type Common = {
  label: ReactNode
  error?: string | string[] | null
  hint?: ReactNode
  className?: string
  /**
   * The field of a form made by `useSchemaForm` (app/ui/form.tsx): its name, id, kept value and errors come from
   * the form's last reply and, with JavaScript, from checking the field as it is left.
   */
  meta?: FieldMetadata<string | number | boolean | null | undefined | string[]>
}

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
  errorId,
  controlKey,
  control,
}: Omit<Common, 'meta'> & {
  id?: string
  errorId?: string
  /** Conform's key of the field: a new one (the form was reset) mounts the control anew, with its kept value. */
  controlKey?: string
  control: (props: ControlProps) => ReactNode
}) {
  const generated = useId()
  const inputId = id ?? generated
  const messageId = errorId ?? `${inputId}-error`
  const message = firstError(error)
  return (
    <div className={className}>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <Fragment key={controlKey}>
        {control({
          id: inputId,
          className: 'input',
          'aria-invalid': message ? true : undefined,
          'aria-describedby': message ? messageId : undefined,
        })}
      </Fragment>
      {hint && !message ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
      {message ? (
        <p id={messageId} className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  )
}

/**
 * Splits a field's props into its frame's and its control's. A form field (`meta`) gives the frame its id, error id
 * and errors, and the control its name, kept value and key (so that a reset form shows its fields anew).
 */
function frameProps<P extends Common & { id?: string }>({ label, error, hint, className, id, meta, ...control }: P) {
  if (!meta) return [{ label, error, hint, className, id }, control] as const
  const kept = meta.initialValue
  return [
    { label, hint, className, id: meta.id, errorId: meta.errorId, error: meta.errors ?? error, controlKey: meta.key },
    { name: meta.name, defaultValue: typeof kept === 'string' ? kept : undefined, ...control },
  ] as const
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
    options: readonly SelectOption[]
    placeholder?: string
  }) {
  const [frame, select] = frameProps(props)
  // The options are written as one string (issue 39: the market lists are 250 options, rendered on every request
  // by React one element at a time), with the chosen one marked `selected` so that the page is right without
  // JavaScript; React still owns the select's value (`value` or `defaultValue`) in the browser.
  const chosen = select.value ?? select.defaultValue
  const html = optionsHtml(options, placeholder, typeof chosen === 'string' ? chosen : '')
  return (
    <FieldFrame
      {...frame}
      control={(wiring) => <select {...wiring} {...select} dangerouslySetInnerHTML={{ __html: html }} />}
    />
  )
}
