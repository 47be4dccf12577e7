import { sqlClient } from '#app/platform/db/client.server'
import { aiVisibilityLimits } from './visibility'

/**
 * AI checks used this UTC month (issue 37, decision 0370): one per subject (tracked keyword or prompt) and day, charged
 * in ai_check_usage when the subject's first result of that day is written (checks.server.ts). /profile shows it
 * beside the other quotas; over the limit, the user's subjects are skipped, not failed.
 */
export const usageMonth = (day: string) => day.slice(0, 7)

/** `status`: the user's subscription status when the caller already has it (the statement then skips it). */
export async function aiCheckUsage(userId: string, status?: string | null, now = new Date()) {
  const month = usageMonth(now.toISOString())
  const [row] = await sqlClient()<{ used: number | null; status: string | null }[]>`
    select (select used from ai_check_usage where user_id = ${userId} and month = ${month}) as used,
      ${status === undefined ? sqlClient()`(select status from subscriptions where user_id = ${userId} limit 1)` : sqlClient()`null`} as status`
  const limit = aiVisibilityLimits(status === undefined ? (row?.status ?? null) : status).checksPerMonth
  return { used: row?.used ?? 0, limit, month }
}
