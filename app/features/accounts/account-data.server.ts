import { eq, getTableColumns } from 'drizzle-orm'
import { ACCOUNT_MESSAGES } from './account-schemas'
import { endSessions } from './account-security.server'
import { listApiKeys } from './api-keys.server'
import { db, schema } from '#app/platform/db/client.server'
import { sendMail } from '#app/platform/mail/mail.server'
import { verifyPassword } from '#app/platform/security/password.server'
import { hit } from '#app/platform/security/rate-limit.server'

/**
 * 'Download my data' and 'Delete account' (issue 13). The export holds what the account owns, never a secret
 * (password hash, second factor, webhook secret, CMS credentials, Search Console tokens, session ids). Issue 34
 * added the destinations (their settings, never their credentials), publications, post versions, content settings,
 * rankings (tracked keywords and their daily positions) and Search Console (the connection's state and the stats);
 * issue 38 the personal API keys (never their secret).
 * The tables are read straight from the schema (app/platform/db), which every capability may read: accounts imports
 * no capability above it.
 */
type UserRow = typeof schema.users.$inferSelect

/** Drops every key that names a secret, at any depth (a destination's settings, Auto Pilot's row). */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (!value || typeof value !== 'object' || value instanceof Date) return value
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) if (!SECRET_KEY.test(key)) copy[key] = withoutSecrets(item)
  return copy
}
const SECRET_KEY = /secret|password|credential|token|api_?key|private/i

export async function exportAccount(user: UserRow) {
  const { passwordHash: _p, googleSub: _g, ...account } = user
  const uid = user.id
  const [subscription, keywords, lookups, clusterRuns, posts, settings, deliveries, sessions] = await Promise.all([
    db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, uid)),
    db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.userId, uid)),
    // Issue 36: the lookups charged as keyword searches (decision 0360) and the clustering runs.
    db
      .select({
        kind: schema.keywordLookups.kind,
        subject: schema.keywordLookups.subject,
        countryCode: schema.keywordLookups.countryCode,
        languageCode: schema.keywordLookups.languageCode,
        lookedUpOn: schema.keywordLookups.lookedUpOn,
        createdAt: schema.keywordLookups.createdAt,
      })
      .from(schema.keywordLookups)
      .where(eq(schema.keywordLookups.userId, uid))
      .orderBy(schema.keywordLookups.createdAt),
    db
      .select()
      .from(schema.keywordClusterRuns)
      .where(eq(schema.keywordClusterRuns.userId, uid))
      .orderBy(schema.keywordClusterRuns.createdAt),
    db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, uid)),
    db.select().from(schema.autopilotSettings).where(eq(schema.autopilotSettings.userId, uid)),
    db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.userId, uid)),
    db
      .select({
        kind: schema.sessions.kind,
        userAgent: schema.sessions.userAgent,
        ipPrefix: schema.sessions.ipPrefix,
        createdAt: schema.sessions.createdAt,
        lastUsedAt: schema.sessions.lastUsedAt,
      })
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, uid)),
  ])
  const d = schema.destinations
  const p = schema.publications
  const tk = schema.trackedKeywords
  const sc = schema.searchConsoleConnections
  const [destinations, publications, postVersions, contentSettings, tracked, positions, searchConsole, stats] =
    await Promise.all([
      // Named columns: `credentials` (encrypted) and `credentials_for` are never read.
      db
        .select({
          id: d.id,
          kind: d.kind,
          name: d.name,
          config: d.config,
          autopilot: d.autopilot,
          failingSince: d.failingSince,
          pausedAt: d.pausedAt,
          pausedReason: d.pausedReason,
          lastCheckedAt: d.lastCheckedAt,
          lastCheckError: d.lastCheckError,
          createdAt: d.createdAt,
          updatedAt: d.updatedAt,
        })
        .from(d)
        .where(eq(d.userId, uid))
        .orderBy(d.createdAt),
      db
        .select({
          id: p.id,
          postId: p.postId,
          destinationId: p.destinationId,
          status: p.status,
          action: p.action,
          remoteId: p.remoteId,
          remoteUrl: p.remoteUrl,
          attempts: p.attempts,
          lastError: p.lastError,
          publishedAt: p.publishedAt,
          createdAt: p.createdAt,
          updatedAt: p.updatedAt,
        })
        .from(p)
        .where(eq(p.userId, uid))
        .orderBy(p.createdAt),
      db
        .select(getTableColumns(schema.postVersions))
        .from(schema.postVersions)
        .innerJoin(schema.blogPosts, eq(schema.blogPosts.id, schema.postVersions.postId))
        .where(eq(schema.blogPosts.userId, uid))
        .orderBy(schema.postVersions.postId, schema.postVersions.createdAt),
      db.select().from(schema.contentSettings).where(eq(schema.contentSettings.userId, uid)),
      db.select().from(tk).where(eq(tk.userId, uid)).orderBy(tk.createdAt),
      db
        .select({
          trackedKeywordId: schema.keywordPositions.trackedKeywordId,
          day: schema.keywordPositions.day,
          status: schema.keywordPositions.status,
          position: schema.keywordPositions.position,
          url: schema.keywordPositions.url,
        })
        .from(schema.keywordPositions)
        .innerJoin(tk, eq(tk.id, schema.keywordPositions.trackedKeywordId))
        .where(eq(tk.userId, uid))
        .orderBy(schema.keywordPositions.trackedKeywordId, schema.keywordPositions.day),
      // The connection's state, never its refresh token.
      db
        .select({
          siteUrl: sc.siteUrl,
          status: sc.status,
          disabledReason: sc.disabledReason,
          disabledAt: sc.disabledAt,
          syncedThrough: sc.syncedThrough,
          lastSyncAt: sc.lastSyncAt,
          createdAt: sc.createdAt,
        })
        .from(sc)
        .where(eq(sc.userId, uid)),
      db
        .select({
          day: schema.searchConsoleStats.day,
          page: schema.searchConsoleStats.page,
          query: schema.searchConsoleStats.query,
          clicks: schema.searchConsoleStats.clicks,
          impressions: schema.searchConsoleStats.impressions,
          ctr: schema.searchConsoleStats.ctr,
          position: schema.searchConsoleStats.position,
        })
        .from(schema.searchConsoleStats)
        .where(eq(schema.searchConsoleStats.userId, uid))
        .orderBy(schema.searchConsoleStats.day, schema.searchConsoleStats.page, schema.searchConsoleStats.query),
    ])
  const positionsOf = new Map<string, Array<Omit<(typeof positions)[number], 'trackedKeywordId'>>>()
  for (const { trackedKeywordId, ...position } of positions) {
    const list = positionsOf.get(trackedKeywordId)
    if (list) list.push(position)
    else positionsOf.set(trackedKeywordId, [position])
  }
  return {
    exportedAt: new Date().toISOString(),
    account: { ...account, googleLinked: Boolean(user.googleSub), hasPassword: Boolean(user.passwordHash) },
    subscription: subscription[0] ?? null,
    keywords,
    keywordLookups: lookups,
    keywordClusterRuns: clusterRuns,
    posts,
    postVersions,
    contentSettings: contentSettings[0] ?? null,
    autopilot: { settings: withoutSecrets(settings[0] ?? null), deliveries },
    destinations: destinations.map((row) => ({ ...row, config: withoutSecrets(row.config) })),
    publications,
    rankings: {
      trackedKeywords: tracked.map((t) => ({ ...t, positions: positionsOf.get(t.id) ?? [] })),
    },
    searchConsole: { connection: searchConsole[0] ?? null, stats },
    sessions,
    // Issue 38: every personal API key, revoked ones too: name, public start, scopes, dates, never the secret's hash.
    apiKeys: await listApiKeys(uid, { includeRevoked: true }),
  }
}

export type DeleteResult = { ok: true } | { ok: false; status: 400 | 429 | 502; message: string; field?: 'password' }

/** How recent a Google-only account's sign-in must be to delete it without a password (its re-authentication). */
export const REAUTH_WINDOW_MS = 10 * 60 * 1000

/**
 * What other capabilities must do before an account's rows go, given by the caller (the route), since accounts sit
 * below them: `cancelSubscription` cancels a Stripe subscription at once and throws when Stripe does not answer;
 * `revokeSearchConsole` revokes the Search Console grant at Google and never throws (a failure must not keep the
 * account: its tokens go with the rows anyway).
 */
export type AccountClosing = {
  cancelSubscription: (userId: string) => Promise<unknown>
  revokeSearchConsole: (userId: string) => Promise<unknown>
}

/**
 * Deletes the account: the password (or, for an account without one, a Google sign-in in the last ten minutes),
 * then the Stripe subscription is cancelled at once, the Search Console grant is revoked at Google (best effort), the
 * rows go (every table cascades from users), and a confirmation e-mail is sent.
 */
export async function deleteAccount(
  user: UserRow,
  session: { createdAt: Date } | null,
  input: { password?: string },
  closing: AccountClosing,
): Promise<DeleteResult> {
  const limited = await hit(`delete-account:${user.id}`, { limit: 10, windowSeconds: 15 * 60 })
  if (!limited.allowed) return { ok: false, status: 429, message: 'Too many attempts. Please wait a few minutes.' }
  if (user.passwordHash) {
    if (!input.password || !(await verifyPassword(user.passwordHash, input.password)))
      return { ok: false, status: 400, message: ACCOUNT_MESSAGES.wrongPassword, field: 'password' }
  } else if (!session || Date.now() - session.createdAt.getTime() > REAUTH_WINDOW_MS) {
    return {
      ok: false,
      status: 400,
      message: 'For your security, sign out and sign in with Google again, then delete the account within 10 minutes.',
    }
  }
  try {
    await closing.cancelSubscription(user.id)
  } catch (error) {
    return { ok: false, status: 502, message: error instanceof Error ? error.message : 'Stripe did not answer.' }
  }
  await closing.revokeSearchConsole(user.id).catch((error: unknown) => {
    console.error('[accounts] revoking Search Console failed', error instanceof Error ? error.message : error)
  })
  await endSessions(user.id)
  await db.delete(schema.users).where(eq(schema.users.id, user.id))
  try {
    await sendMail({
      to: user.email,
      subject: 'Your Rankwell account has been deleted',
      text: `Hi ${user.name || 'there'},\n\nYour Rankwell account and its data (keywords, posts, Auto Pilot settings) have been deleted, and any subscription was cancelled. If you did not ask for this, reply to this e-mail.\n\n— Rankwell`,
      html: `<p>Hi ${escapeHtml(user.name || 'there')},</p><p>Your Rankwell account and its data (keywords, posts, Auto Pilot settings) have been deleted, and any subscription was cancelled. If you did not ask for this, reply to this e-mail.</p><p>— Rankwell</p>`,
    })
  } catch (error) {
    console.error('[accounts] deletion e-mail failed', error instanceof Error ? error.message : error)
  }
  return { ok: true }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
