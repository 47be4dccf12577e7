import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { honeypotFilled } from '#app/platform/security/honeypot'
import { LEAD_MESSAGES, type LeadInput } from './leads'
import { SEO_GUIDE } from './seo-guide'
import { db, schema } from '#app/platform/db/client.server'
import type { PublicFailure } from '#app/platform/http/json-api.server'
import { getEnv } from '#app/platform/env.server'
import { mailConfigured, sendMail } from '#app/platform/mail/mail.server'
import { clientIp, hit } from '#app/platform/security/rate-limit.server'

/**
 * Ebook leads: one row per address (unique lower(email)), and the ebook e-mail sent once per address and day
 * ("claim, then send": emailed_at is set before sending and restored when sending fails).
 */
export { LEAD_MESSAGES }

/** A second request for the same address re-sends the ebook only after a day. */
const RESEND_AFTER_MS = 24 * 60 * 60 * 1000

/** Ebook requests per IP address per hour. */
export const LEAD_LIMIT = { limit: 5, windowSeconds: 60 * 60 }

export type LeadOutcome = { ok: true; status: 200; message: string; emailed: boolean } | PublicFailure

export function ebookUrl() {
  return new URL('/ebook', getEnv().APP_URL).toString()
}

function ebookMail(to: string) {
  const url = ebookUrl()
  const chapters = SEO_GUIDE.chapters.map((c, i) => `${i + 1}. ${c.title}`)
  const text = [
    'Hi,',
    '',
    `Thanks for your interest in ${SEO_GUIDE.title}. Here is your copy:`,
    '',
    url,
    '',
    'Open it in your browser to read it, or print it (File → Print → Save as PDF) to keep a PDF.',
    '',
    'Inside:',
    ...chapters,
    '',
    'When you are ready to put it into practice, Rankwell finds the keywords you can rank for and writes the posts for you:',
    new URL('/signup', getEnv().APP_URL).toString(),
    '',
    '— The Rankwell team',
  ].join('\n')
  const escape = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<p>Hi,</p>
<p>Thanks for your interest in <strong>${escape(SEO_GUIDE.title)}</strong>. Here is your copy:</p>
<p><a href="${escape(url)}" style="display:inline-block;background:#254bea;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Read the ebook</a></p>
<p style="font-size:14px;color:#475569">Or open this link: <a href="${escape(url)}">${escape(url)}</a><br>To keep a PDF, print it from your browser and choose “Save as PDF”.</p>
<p>Inside:</p>
<ol>${SEO_GUIDE.chapters.map((c) => `<li>${escape(c.title)}</li>`).join('')}</ol>
<p>— The Rankwell team</p>
</body></html>`
  return { to, subject: `Your free ebook: ${SEO_GUIDE.title}`, text, html }
}

/**
 * Stores the lead (once per address) and sends the ebook e-mail (once per address). `input` is validated by
 * `leadInput` (the page's form or the API's body).
 */
export async function captureLead(input: LeadInput, request: Request): Promise<LeadOutcome> {
  if (honeypotFilled(input)) return { ok: false, status: 400, message: LEAD_MESSAGES.failed }

  const limited = await hit(`leads:${clientIp(request)}`, LEAD_LIMIT)
  if (!limited.allowed) {
    return {
      ok: false,
      status: 429,
      message: 'Too many requests from your network. Please try again later.',
      retryAfterSeconds: limited.retryAfterSeconds,
    }
  }
  if (!mailConfigured()) {
    return {
      ok: false,
      status: 503,
      message: 'We cannot send e-mail right now, so the ebook cannot be sent. Please try again later.',
    }
  }

  const email = input.email
  const lower = email.toLowerCase()
  await db.insert(schema.leads).values({ email }).onConflictDoNothing()
  // Claim the send: only one request per address gets the row back, and an address gets at most one e-mail a day.
  const [previous] = await db
    .select({ emailedAt: schema.leads.emailedAt })
    .from(schema.leads)
    .where(eq(sql`lower(${schema.leads.email})`, lower))
    .limit(1)
  const [claimed] = await db
    .update(schema.leads)
    .set({ emailedAt: new Date() })
    .where(
      and(
        eq(sql`lower(${schema.leads.email})`, lower),
        or(isNull(schema.leads.emailedAt), lt(schema.leads.emailedAt, new Date(Date.now() - RESEND_AFTER_MS))),
      ),
    )
    .returning({ id: schema.leads.id })
  if (!claimed) return { ok: true, status: 200, message: LEAD_MESSAGES.success, emailed: false }

  try {
    await sendMail(ebookMail(email))
    return { ok: true, status: 200, message: LEAD_MESSAGES.success, emailed: true }
  } catch (error) {
    console.error('[leads] ebook e-mail failed', error instanceof Error ? error.message : error)
    await db
      .update(schema.leads)
      .set({ emailedAt: previous?.emailedAt ?? null })
      .where(eq(schema.leads.id, claimed.id))
    return { ok: false, status: 502, message: LEAD_MESSAGES.failed }
  }
}
