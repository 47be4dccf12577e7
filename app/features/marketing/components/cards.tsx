import { Icon, type IconName } from './icons'

/** The list items that the landing page and the free-tool pages share, in their two sizes. */

/** A card with an icon badge, a title and a short text. */
export function IconCard({
  icon,
  title,
  text,
  badgeClassName,
  textClassName,
}: {
  icon: IconName
  title: string
  text: string
  badgeClassName: string
  textClassName: string
}) {
  return (
    <li className="card">
      <span className={`inline-flex h-11 w-11 items-center justify-center rounded-xl ${badgeClassName}`}>
        <Icon name={icon} />
      </span>
      <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
      <p className={`mt-2 ${textClassName}`}>{text}</p>
    </li>
  )
}

const STEP_STYLES = {
  /** The landing page: each step a tinted card. */
  card: {
    item: 'relative rounded-2xl border border-slate-200 bg-slate-50 p-6',
    badge: 'flex h-12 w-12 items-center justify-center rounded-full bg-brand-600 text-xl font-bold text-white',
    title: 'mt-4 text-xl font-semibold text-slate-900',
    text: 'mt-2 text-slate-600',
  },
  /** The free-tool pages: centred steps without a card. */
  centered: {
    item: 'text-center',
    badge: 'mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white',
    title: 'mt-4 text-lg font-semibold text-slate-900',
    text: 'mt-2 text-sm text-slate-600',
  },
} as const

/** Numbered steps: the number is drawn for the eye, and read out as "Step n:" before the title. */
export function NumberedSteps({
  steps,
  variant,
  className,
}: {
  steps: ReadonlyArray<{ title: string; text: string }>
  variant: keyof typeof STEP_STYLES
  className: string
}) {
  const style = STEP_STYLES[variant]
  return (
    <ol className={className}>
      {steps.map((step, i) => (
        <li key={step.title} className={style.item}>
          <span className={style.badge} aria-hidden="true">
            {i + 1}
          </span>
          <h3 className={style.title}>
            <span className="sr-only">Step {i + 1}: </span>
            {step.title}
          </h3>
          <p className={style.text}>{step.text}</p>
        </li>
      ))}
    </ol>
  )
}
