import { eq } from 'drizzle-orm'
import type { OnboardingInput, ProfileInput } from './account-schemas'
import { db, schema } from '#app/platform/db/client.server'

/** The account's own data: onboarding and profile edits (the API's user document is billing/api-user.server.ts). */

type UserRow = typeof schema.users.$inferSelect

const market = (code: string | null, name: string | null) => (code ? { code, name: name ?? '' } : null)

/** Saves the onboarding answers and marks onboarding complete. */
export async function completeOnboarding(userId: string, input: OnboardingInput) {
  await db
    .update(schema.users)
    .set({
      website: input.website,
      marketSegment: input.marketSegment,
      productService: input.productService,
      countryCode: input.country?.code ?? null,
      countryName: input.country?.name ?? null,
      languageCode: input.language?.code ?? null,
      languageName: input.language?.name ?? null,
      onboardingComplete: true,
      updatedAt: new Date(),
    })
    .where(eq(schema.users.id, userId))
}

/** Saves a profile edit; business details that are absent from the input stay as they are. */
export async function updateProfile(userId: string, input: ProfileInput) {
  const [user] = await db
    .update(schema.users)
    .set({
      name: input.name,
      marketSegment: input.marketSegment,
      productService: input.productService,
      ...(input.website !== undefined ? { website: input.website } : {}),
      ...(input.country !== undefined
        ? { countryCode: input.country?.code ?? null, countryName: input.country?.name ?? null }
        : {}),
      ...(input.language !== undefined
        ? { languageCode: input.language?.code ?? null, languageName: input.language?.name ?? null }
        : {}),
      updatedAt: new Date(),
    })
    .where(eq(schema.users.id, userId))
    .returning()
  return user ?? null
}

/** The profile fields of a user, as the profile page and the API show them. */
export function profileFields(user: UserRow) {
  return {
    name: user.name,
    email: user.email,
    marketSegment: user.marketSegment ?? '',
    productService: user.productService ?? '',
    website: user.website ?? '',
    country: market(user.countryCode, user.countryName),
    language: market(user.languageCode, user.languageName),
    onboardingComplete: user.onboardingComplete,
  }
}
