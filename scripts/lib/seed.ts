import { eq } from 'drizzle-orm'

export const DEMO = { email: 'demo@rankwell.app', password: 'rankwell-demo-2026', name: 'Demo Founder' }

/** Creates the demo account with onboarding done, unless it exists. Needs DATABASE_URL in the environment. */
export async function seedDemo() {
  const { db, schema, closeDb } = await import('#app/platform/db/client.server')
  const { createUser, findUserByEmail } = await import('#app/features/accounts/users.server')
  try {
    const existing = await findUserByEmail(DEMO.email)
    if (!existing) {
      const user = await createUser({ email: DEMO.email, name: DEMO.name, password: DEMO.password })
      if (user) {
        await db
          .update(schema.users)
          .set({
            website: 'https://rankwell.app',
            marketSegment: 'Solo founders and small SaaS teams',
            productService: 'saas marketing',
            countryCode: '2840',
            countryName: 'United States',
            languageCode: '1000',
            languageName: 'English',
            onboardingComplete: true,
          })
          .where(eq(schema.users.id, user.id))
      }
    }
    return DEMO
  } finally {
    await closeDb()
  }
}
