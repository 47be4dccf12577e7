import { Form } from '@remix-run/react'
import type { ComponentProps } from 'react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { Field } from '#app/ui/field'
import { FormMessage } from '#app/ui/form-message'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'
import { recoveryCodesSchema, totpConfirmSchema, totpDisableSchema } from '#app/features/accounts/account-schemas'
import { PasswordField, useForgetPasswords } from './account-fields'
import { ShownOnce } from './shown-once'

/** Issue 34: /profile's two-step sign-in card, and the code field every form asking for a code shares. */

type FieldProps = ComponentProps<typeof Field>

/**
 * The code of the second factor. `recovery`: a recovery code is accepted too (so no digits-only keyboard). Without
 * JavaScript the browser's own checks stay out of the way: the server's answer shows next to the field.
 */
export function SecondFactorCodeField({
  recovery = false,
  label,
  ...props
}: Omit<FieldProps, 'label' | 'type' | 'autoComplete'> & { recovery?: boolean; label?: FieldProps['label'] }) {
  return (
    <Field
      label={label ?? (recovery ? 'Code' : 'Code from your authenticator app')}
      hint={
        recovery
          ? 'The 6-digit code from your authenticator app, or one of your recovery codes.'
          : 'The 6 digits your authenticator app shows now.'
      }
      autoComplete="one-time-code"
      inputMode={recovery ? 'text' : 'numeric'}
      spellCheck={false}
      autoCapitalize="off"
      maxLength={40}
      {...props}
    />
  )
}

export type SecondFactorView =
  { status: 'off' } | { status: 'pending'; key: string; qrCode: string } | { status: 'on'; recoveryCodesLeft: number }

type Result = SubmissionResult<string[]> | undefined

/** The action's answers to this card's forms (only the one it last answered is set). */
export type SecondFactorAnswers = {
  start?: Result
  confirm?: Result
  regenerate?: Result
  disable?: Result
  /** Recovery codes just made (after turning on or asking for new ones): shown this once. */
  codes?: { recoveryCodes: string[]; message: string }
}

function RecoveryCodes({ codes }: { codes: NonNullable<SecondFactorAnswers['codes']> }) {
  return (
    <ShownOnce
      testId="recovery-codes"
      message={codes.message}
      hint="Each code works once, in place of the code from your app, if you lose your phone."
    >
      <ul className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm text-slate-900">
        {codes.recoveryCodes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
    </ShownOnce>
  )
}

function StartForm({ result }: { result: Result }) {
  const { formProps, message } = useSchemaForm({
    id: '2fa-start',
    schema: recoveryCodesSchema.partial(),
    lastResult: result,
  })
  return (
    <Form method="post" className="mt-4" {...formProps}>
      <FormMessage message={message} tone="error" />
      <SubmitButton intent="2fa-start" className="btn-primary w-full" pendingText="Starting...">
        Turn on two-step sign-in
      </SubmitButton>
    </Form>
  )
}

function SetupForm({ view, result }: { view: Extract<SecondFactorView, { status: 'pending' }>; result: Result }) {
  const { fields, formProps, message } = useSchemaForm({
    id: '2fa-confirm',
    schema: totpConfirmSchema,
    lastResult: result,
  })
  return (
    <div className="mt-4 space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…).</li>
        <li>Or type the key below into the app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <img
        src={view.qrCode}
        alt="QR code to add Rankwell to your authenticator app"
        width={192}
        height={192}
        className="mx-auto h-48 w-48 rounded border border-slate-200 bg-white"
      />
      <div>
        <p className="text-sm text-slate-600">Key for typing</p>
        <code
          className="mt-1 block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900"
          data-testid="totp-key"
        >
          {view.key}
        </code>
      </div>
      <Form method="post" className="space-y-3" aria-label="Confirm two-step sign-in" {...formProps}>
        <FormMessage message={message} tone="error" />
        <SecondFactorCodeField meta={fields.code} />
        <SubmitButton intent="2fa-confirm" className="btn-primary w-full" pendingText="Checking...">
          Confirm and turn on
        </SubmitButton>
      </Form>
      <Form method="post">
        <SubmitButton intent="2fa-cancel" className="btn-secondary w-full" pendingText="Cancelling...">
          Cancel
        </SubmitButton>
      </Form>
    </div>
  )
}

function RegenerateForm({ result }: { result: Result }) {
  const { fields, formProps, message } = useSchemaForm({
    id: '2fa-recovery-codes',
    schema: recoveryCodesSchema,
    lastResult: result,
  })
  return (
    <details className="mt-4" open={Boolean(result)}>
      <summary className="cursor-pointer text-sm font-medium text-brand-700">New recovery codes</summary>
      <Form method="post" className="mt-3 space-y-3" aria-label="New recovery codes" {...formProps}>
        <FormMessage message={message} tone="error" />
        <p className="text-sm text-slate-600">The codes you have now stop working.</p>
        <SecondFactorCodeField meta={fields.code} recovery />
        <SubmitButton intent="2fa-recovery-codes" className="btn-secondary w-full" pendingText="Making codes...">
          Make new recovery codes
        </SubmitButton>
      </Form>
    </details>
  )
}

function DisableForm({ hasPassword, result }: { hasPassword: boolean; result: Result }) {
  const { fields, formProps, message } = useSchemaForm({
    id: '2fa-disable',
    schema: totpDisableSchema,
    lastResult: result,
  })
  useForgetPasswords(formProps.id, result)
  return (
    <details className="mt-4" open={Boolean(result)}>
      <summary className="cursor-pointer text-sm font-medium text-red-700">Turn off two-step sign-in</summary>
      <Form method="post" className="mt-3 space-y-3" aria-label="Turn off two-step sign-in" {...formProps}>
        <FormMessage message={message} tone="error" />
        {hasPassword ? <PasswordField purpose="current" meta={fields.password} /> : null}
        <SecondFactorCodeField meta={fields.code} recovery />
        <SubmitButton intent="2fa-disable" className="btn-danger w-full" pendingText="Turning off...">
          Turn off
        </SubmitButton>
      </Form>
    </details>
  )
}

export function SecondFactorCard({
  view,
  hasPassword,
  answers,
}: {
  view: SecondFactorView
  hasPassword: boolean
  answers: SecondFactorAnswers
}) {
  return (
    <section className="card scroll-mt-20" id="two-step" aria-labelledby="two-step-title" data-testid="two-step-card">
      <h2 id="two-step-title" className="text-lg font-semibold">
        Two-step sign-in
      </h2>
      {answers.codes ? <RecoveryCodes codes={answers.codes} /> : null}
      {view.status === 'off' ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            After your password or Google, sign-in also asks for a code from an authenticator app on your phone.
          </p>
          <StartForm result={answers.start} />
        </>
      ) : view.status === 'pending' ? (
        <SetupForm view={view} result={answers.confirm} />
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600" data-testid="two-step-status">
            Two-step sign-in is on. {view.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          <RegenerateForm result={answers.regenerate} />
          <DisableForm hasPassword={hasPassword} result={answers.disable} />
        </>
      )}
    </section>
  )
}
