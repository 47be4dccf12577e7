import { and, desc, eq, ne } from 'drizzle-orm'
import { normalizeSerpKeyword } from '#app/features/keywords/serp'
import { db, schema } from '#app/platform/db/client.server'
import { pageText, relevanceMany } from './embeddings.server'
import { sitemapUrls } from './site-pages.server'

/**
 * No cannibalisation: before a post is written, its keyword is compared with the user's existing posts (keyword and
 * title) and the pages of their sitemap. The same normalised keyword always overlaps; otherwise embeddings decide
 * (cosine ≥ OVERLAP_MIN_SIMILARITY), or, when embeddings are unavailable, term overlap (Jaccard ≥ OVERLAP_MIN_TERMS).
 */
export const OVERLAP_MIN_SIMILARITY = 0.85
export const OVERLAP_MIN_TERMS = 0.75
/**
 * Create Post waits on this check: embeddings get one attempt of 2.5 s (an answer takes well under a second), then
 * term overlap decides, so that the click is answered within 5 s even while the model provider hangs (issue 20).
 */
export const OVERLAP_EMBED_BUDGET = { timeoutMs: 2_500, maxRetries: 0 }

export type Overlap = {
  kind: 'post' | 'page'
  /** The post's id (kind 'post'). */
  postId: string | null
  title: string
  url: string | null
  similarity: number
  method: 'same-keyword' | 'embeddings' | 'terms'
}

export function overlapMessage(o: Overlap): string {
  return `You already have "${o.title}" for a very similar search: update it instead?`
}

function jaccard(a: Set<string>, b: Set<string>) {
  if (!a.size || !b.size) return 0
  let shared = 0
  for (const t of a) if (b.has(t)) shared++
  return shared / (a.size + b.size - shared)
}

function titleFromUrl(url: string) {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop()
    return last ? decodeURIComponent(last).replace(/[-_]+/g, ' ') : url
  } catch {
    return url
  }
}

/** The strongest overlap of one keyword with the user's posts and sitemap pages (null when none is strong). */
export async function findOverlap(
  userId: string,
  keyword: string,
  opts: { exceptRequestKey?: string } = {},
): Promise<Overlap | null> {
  const [found] = await findOverlaps(userId, [{ keyword, exceptRequestKey: opts.exceptRequestKey }])
  return found ?? null
}

/**
 * The same for several keywords at once (bulk 'Create posts'): the posts and the sitemap are read once and one
 * embeddings call compares every keyword. `exceptRequestKey` leaves out the post of a repeated request.
 */
export async function findOverlaps(
  userId: string,
  keywords: Array<{ keyword: string; exceptRequestKey?: string }>,
): Promise<Array<Overlap | null>> {
  if (!keywords.length) return []
  const [user] = await db
    .select({ website: schema.users.website })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
    .limit(1)
  const existing = await db
    .select({
      id: schema.blogPosts.id,
      keyword: schema.blogPosts.keyword,
      title: schema.blogPosts.title,
      url: schema.blogPosts.publishedUrl,
      requestKey: schema.blogPosts.requestKey,
    })
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.userId, userId), ne(schema.blogPosts.status, 'failed')))
    .orderBy(desc(schema.blogPosts.createdAt))
    .limit(300)

  const results: Array<Overlap | null> = keywords.map(({ keyword, exceptRequestKey }) => {
    const wanted = normalizeSerpKeyword(keyword)
    const same = existing.find((p) => p.requestKey !== exceptRequestKey && normalizeSerpKeyword(p.keyword) === wanted)
    return same
      ? {
          kind: 'post',
          postId: same.id,
          title: same.title || same.keyword,
          url: same.url,
          similarity: 1,
          method: 'same-keyword',
        }
      : null
  })
  const open = keywords.map((k, i) => ({ ...k, i })).filter((k) => !results[k.i])
  if (!open.length) return results

  let pages: string[] = []
  if (user?.website) {
    try {
      pages = await sitemapUrls(user.website)
    } catch {
      pages = []
    }
  }
  const own = new Set(existing.map((p) => p.url).filter(Boolean))
  pages = pages.filter((u) => !own.has(u)).slice(0, 200)
  type Candidate = { text: string; requestKey: string | null; overlap: Omit<Overlap, 'similarity' | 'method'> }
  const candidates: Candidate[] = [
    ...existing.flatMap((p) => {
      const o = { kind: 'post' as const, postId: p.id, title: p.title || p.keyword, url: p.url }
      return [
        { text: p.keyword, requestKey: p.requestKey, overlap: o },
        ...(p.title && p.title !== p.keyword ? [{ text: p.title, requestKey: p.requestKey, overlap: o }] : []),
      ]
    }),
    ...pages.map((url) => ({
      text: pageText({ url, title: titleFromUrl(url) }),
      requestKey: null,
      overlap: { kind: 'page' as const, postId: null, title: titleFromUrl(url), url },
    })),
  ]
  if (!candidates.length) return results
  const r = await relevanceMany(
    open.map((k) => k.keyword),
    candidates.map((c) => c.text),
    jaccard,
    OVERLAP_EMBED_BUDGET,
  )
  const min = r.method === 'embeddings' ? OVERLAP_MIN_SIMILARITY : OVERLAP_MIN_TERMS
  open.forEach((k, t) => {
    let best: Overlap | null = null
    candidates.forEach((c, i) => {
      const score = r.scores[t]![i]!
      if (c.requestKey === k.exceptRequestKey) return
      if (score >= min && (!best || score > best.similarity))
        best = { ...c.overlap, similarity: Math.round(score * 1000) / 1000, method: r.method }
    })
    results[k.i] = best
  })
  return results
}
