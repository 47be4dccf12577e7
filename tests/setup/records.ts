import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'

type KeywordSource = (typeof schema.savedKeywords.$inferInsert)['source']

/** A saved keyword for the United States in the given language, as a search with that source would have saved it. */
export async function addKeyword(
  user: { id: string },
  keyword: string,
  languageName = 'English',
  source: KeywordSource = 'ai_estimate',
) {
  const [row] = await db
    .insert(schema.savedKeywords)
    .values({
      userId: user.id,
      keyword,
      countryCode: '2840',
      countryName: 'United States',
      languageCode: '1000',
      languageName,
      source,
    })
    .returning()
  return row!
}

/** A post's row as stored now. */
export async function postRow(postId: string) {
  const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
  return row
}
