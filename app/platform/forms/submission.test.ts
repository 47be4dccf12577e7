import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { apiErrors, firstMessage, parseSubmission } from './submission'

const schema = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').email('Enter a valid email address.'),
  tags: z.array(z.string().min(2, 'Too short.')).optional(),
})

describe('parseSubmission: a form read the one way', () => {
  it('gives field errors by name, the values to show again, and the schema’s own message for an empty field', () => {
    const submission = parseSubmission(new URLSearchParams({ email: '', other: 'x' }), schema)
    expect(submission.status).toBe('error')
    const reply = submission.reply()
    expect(reply.error).toEqual({ email: ['Enter your email address.', 'Enter a valid email address.'] })
    expect(firstMessage(reply)).toBe('Enter your email address.')
  })

  it('names the fields of a list as Conform does, and so does the JSON API', () => {
    const form = new URLSearchParams([
      ['email', 'a@b.co'],
      ['tags', 'ok'],
      ['tags', 'x'],
    ])
    const submission = parseSubmission(form, schema)
    expect(submission.reply().error).toEqual({ 'tags[1]': ['Too short.'] })
    const api = schema.safeParse({ email: 'nope', tags: ['ok', 'x'] })
    expect(api.success || apiErrors(api.error)).toEqual({
      message: 'Enter a valid email address.',
      errors: { email: ['Enter a valid email address.'], 'tags[1]': ['Too short.'] },
    })
  })

  it('never echoes a hidden field, and keeps the others', () => {
    const submission = parseSubmission(new URLSearchParams({ email: 'a@b.co', password: 'secret1234' }), schema)
    const reply = submission.reply({ formErrors: ['Invalid email or password.'], hideFields: ['password'] })
    expect(reply.initialValue).toEqual({ email: 'a@b.co' })
    expect(firstMessage(reply)).toBe('Invalid email or password.')
  })

  it('reads a hand-made post whose Conform control fields are not JSON as the plain form it is (no 500)', () => {
    for (const name of ['__intent__', '__state__']) {
      const form = new FormData()
      form.append('email', 'a@b.co')
      form.append(name, '{not json')
      const submission = parseSubmission(form, schema)
      expect(submission.status).toBe('success')
      expect(submission.status === 'success' && submission.value).toEqual({ email: 'a@b.co' })
    }
  })
})
