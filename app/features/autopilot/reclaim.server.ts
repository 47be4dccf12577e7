import type { AccountReclaim } from '#app/features/accounts/account-takeover.server'
import { reclaimLeftovers } from '#app/features/publishing/reclaim.server'
import { removeSearchConsoleLeftovers } from '#app/features/rankings/search-console.server'

/**
 * Issue 34: everything above accounts that a takeover of an unverified account removes, handed to accounts by the
 * routes (password reset, Google sign-in). Composed here, in Auto Pilot, the one capability above both publishing
 * (content settings, destinations, publications, Auto Pilot's settings and webhook) and rankings (Search Console).
 * All of it runs in the takeover's transaction.
 */
export const reclaimEverything: AccountReclaim = {
  async removeLeftovers(tx, userId) {
    const publishing = await reclaimLeftovers.removeLeftovers(tx, userId)
    const searchConsole = await removeSearchConsoleLeftovers(tx, userId)
    return { ...publishing, searchConsole }
  },
  afterCommit: (userId) => reclaimLeftovers.afterCommit(userId),
}
