import { Form } from '@remix-run/react'
import type { ComponentProps } from 'react'
import { SubmitButton } from './submit-button'

/**
 * A form of one button that posts its `intent` and one hidden field, `field` (the row it acts on: a post, a
 * delivery, a destination…), to the page's action. A plain form, so it works without JavaScript.
 */
export function ActionButton({
  field: [name, value],
  intent,
  ...button
}: Omit<ComponentProps<typeof SubmitButton>, 'intent'> & { field: [name: string, value: string]; intent: string }) {
  return (
    <Form method="post">
      <input type="hidden" name={name} value={value} />
      <SubmitButton intent={intent} {...button} />
    </Form>
  )
}
