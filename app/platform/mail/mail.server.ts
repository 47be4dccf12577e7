import nodemailer, { type Transporter } from 'nodemailer'
import { getEnv } from '#app/platform/env.server'
import { observeProvider } from '#app/platform/observability/metrics.server'

let transporter: Transporter | undefined

function transport() {
  const url = getEnv().SMTP_URL
  if (!url) throw new MailNotConfiguredError()
  transporter ??= nodemailer.createTransport(url)
  return transporter
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('E-mail is not configured (SMTP_URL is not set).')
  }
}

export function mailConfigured() {
  return Boolean(getEnv().SMTP_URL)
}

/** Sends one e-mail through SMTP. Throws when SMTP is not configured or the server refuses. */
export async function sendMail(message: {
  to: string
  subject: string
  text: string
  html?: string
  replyTo?: string
}) {
  const mailer = transport()
  const info = await observeProvider('smtp', () => mailer.sendMail({ from: getEnv().MAIL_FROM, ...message }))
  return { messageId: info.messageId as string }
}
