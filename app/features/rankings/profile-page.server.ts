import { eq, sql } from 'drizzle-orm'
import { sessionListColumn, toSessionList } from '#app/features/accounts/account-security.server'
import { activeApiKeysColumn, toApiKeyList } from '#app/features/accounts/api-keys.server'
import { secondFactorColumns, secondFactorStateOf } from '#app/features/accounts/second-factor.server'
import { preparedQuery, schema } from '#app/platform/db/client.server'
import { toUsageSummary, usageSummaryColumns } from '#app/features/billing/quota.server'
import { rankingsCardColumns, toRankingsCard } from './rankings.server'
import { aiVisibilityLimits } from '#app/features/visibility/visibility'

/**
 * What /profile shows besides the user itself, in one prepared statement (issue 17: was three, side by side): the
 * subscription and its usage, the Rankings card's figures, the live sessions, and (issue 39) the second factor and
 * the active API keys — the user's subscription row with the others as subqueries. Each part is mapped by its own
 * module's function, as its own reads do.
 */
const profilePageQuery = preparedQuery((d) => {
  const userId = sql.placeholder('userId')
  return d
    .select({
      ...usageSummaryColumns,
      ...rankingsCardColumns(userId),
      // Issue 37: this UTC month's AI checks (ai_check_usage, charged by the checks).
      aiChecksUsed: sql<number | null>`(select ${schema.aiCheckUsage.used} from ${schema.aiCheckUsage}
        where ${schema.aiCheckUsage.userId} = ${userId}
          and ${schema.aiCheckUsage.month} = to_char(now() at time zone 'utc', 'YYYY-MM'))`,
      sessions: sessionListColumn(userId),
      // Issue 39: the second factor and the active API keys, which were statements of their own.
      ...secondFactorColumns(userId),
      apiKeys: activeApiKeysColumn(userId),
    })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
    .limit(1)
    .prepare('profile_page')
})

export async function profilePageData(user: { id: string; email: string }, currentSessionId: string | null) {
  const [row] = await profilePageQuery().execute({ userId: user.id })
  if (!row) throw new Error(`no subscription row for user ${user.id}`)
  return {
    summary: toUsageSummary(row),
    rankings: toRankingsCard(row, row.sub.status),
    aiChecks: { used: row.aiChecksUsed ?? 0, limit: aiVisibilityLimits(row.sub.status).checksPerMonth },
    sessions: toSessionList(row.sessions, currentSessionId),
    secondFactor: await secondFactorStateOf(user, row),
    apiKeys: toApiKeyList(row.apiKeys),
  }
}
