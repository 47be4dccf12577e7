import { eq } from 'drizzle-orm'
import { schema, type Db } from '#app/platform/db/client.server'
import type { ReclaimedSettings } from './account-schemas'

/**
 * Issue 34: a reclaimed account is the owner's alone. When the owner of an address takes over an account nobody had
 * verified (a used reset link, or Google's verified e-mail: account-security.server.ts `resetPassword`,
 * google-auth.server.ts `findOrCreateGoogleUser`), whoever created it may have been someone else. Besides the
 * password, every session, API token, personal API key and link, what they set up goes, in the takeover's transaction: their second
 * factor, the business details, and what the capabilities above accounts hold (content settings, publishing
 * destinations, the Auto Pilot webhook and settings, pending publications). Accounts is the lowest capability, so
 * that part is handed down by the caller (the route), as account deletion receives billing's cancelSubscription.
 * Posts and keywords stay (docs/decisions/0341).
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** What the capabilities above accounts removed (counted for the owner's message). */
export type HigherLeftovers = Omit<ReclaimedSettings, 'secondFactor' | 'businessDetails'>

export type AccountReclaim = {
  /** Removes the higher capabilities' rows of `userId` inside the takeover's transaction (`tx`). */
  removeLeftovers: (tx: Tx, userId: string) => Promise<Partial<HigherLeftovers>>
  /** After the commit: what lives outside Postgres (Auto Pilot's scheduler in Redis). */
  afterCommit: (userId: string) => Promise<unknown>
}

/**
 * The takeover's removals, inside its transaction (the caller has updated the user row: password, verification).
 * Returns what was removed.
 */
export async function reclaimAccount(tx: Tx, userId: string, reclaim: AccountReclaim): Promise<ReclaimedSettings> {
  await tx.delete(schema.sessions).where(eq(schema.sessions.userId, userId))
  await tx.delete(schema.accountTokens).where(eq(schema.accountTokens.userId, userId))
  await tx.delete(schema.oauthCodes).where(eq(schema.oauthCodes.userId, userId))
  // Personal API keys (issue 38) are whoever created them's too.
  await tx.delete(schema.apiKeys).where(eq(schema.apiKeys.userId, userId))
  // A second factor set up by someone else would lock the owner out (or let them back in).
  const totp = await tx
    .delete(schema.userTotp)
    .where(eq(schema.userTotp.userId, userId))
    .returning({ userId: schema.userTotp.userId })
  const codes = await tx
    .delete(schema.recoveryCodes)
    .where(eq(schema.recoveryCodes.userId, userId))
    .returning({ id: schema.recoveryCodes.id })
  // The business details steer every post (the website's pages become its internal links, its name the author):
  // the owner gives theirs again at onboarding. The market (country, language) stays as a starting choice.
  const [before] = await tx
    .select({
      website: schema.users.website,
      marketSegment: schema.users.marketSegment,
      productService: schema.users.productService,
    })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
  await tx
    .update(schema.users)
    .set({ website: null, marketSegment: null, productService: null, onboardingComplete: false, updatedAt: new Date() })
    .where(eq(schema.users.id, userId))
  const higher = await reclaim.removeLeftovers(tx, userId)
  // Defaults for what the caller's removal does not report (a type import only: account-schemas.ts loads the market
  // lists, which the end-to-end tests' loader cannot import through this module).
  const none = { contentSettings: false, destinations: 0, webhook: false, autopilot: false, publications: 0 }
  return {
    ...none,
    searchConsole: false,
    ...higher,
    secondFactor: totp.length > 0 || codes.length > 0,
    businessDetails: Boolean(before?.website || before?.marketSegment || before?.productService),
  }
}

/** Runs the caller's after-commit part; a failure is logged (Auto Pilot's run finds it off and stops its scheduler). */
export async function afterReclaim(reclaim: AccountReclaim, userId: string) {
  try {
    await reclaim.afterCommit(userId)
  } catch (error) {
    console.error('[accounts] after a takeover', error instanceof Error ? error.message : error)
  }
}
