import { eq, sql } from 'drizzle-orm'
import { TRIAL_DAYS } from './trial'
import { db, schema } from '#app/platform/db/client.server'
import { hashPassword } from '#app/platform/security/password.server'

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase()
}

export async function findUserByEmail(email: string) {
  const [user] = await db
    .select()
    .from(schema.users)
    .where(eq(sql`lower(${schema.users.email})`, normalizeEmail(email)))
    .limit(1)
  return user ?? null
}

/** The user's row by id, or null. */
export async function findUserById(userId: string) {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId)).limit(1)
  return user ?? null
}

/** Creates a user with its trial subscription row in one transaction. Returns null when the e-mail is taken. */
export async function createUser(input: {
  email: string
  name: string
  password?: string
  googleSub?: string
  /** Only for addresses proven by another route (Google's verified e-mail). */
  emailVerified?: boolean
}) {
  const passwordHash = input.password ? await hashPassword(input.password) : null
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(schema.users)
      .values({
        email: normalizeEmail(input.email),
        name: input.name.trim(),
        passwordHash,
        googleSub: input.googleSub ?? null,
        emailVerifiedAt: input.emailVerified ? new Date() : null,
      })
      .onConflictDoNothing()
      .returning()
    if (!user) return null
    await tx.insert(schema.subscriptions).values({
      userId: user.id,
      status: 'trial',
      trialEndsAt: new Date(Date.now() + TRIAL_DAYS * 24 * 3600 * 1000),
    })
    await tx.insert(schema.autopilotSettings).values({ userId: user.id }).onConflictDoNothing()
    return user
  })
}
