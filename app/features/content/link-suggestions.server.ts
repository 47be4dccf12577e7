import { and, desc, eq, isNull, lt, ne } from 'drizzle-orm'
import { comparableUrl } from '#app/features/keywords/serp'
import { linkUrls } from './content'
import { LINK_MESSAGES, proposeLink, type LinkChange, type LinkProposal } from './link-proposal'
import { splitTitle } from './post-editor'
import { POST_MESSAGES } from './posts'
import { stripFinish } from './content-engine.server'
import { db, schema } from '#app/platform/db/client.server'
import { LINK_MIN_SIMILARITY, relevance } from './embeddings.server'
import { postText, targetText } from './internal-links'
import { saveStoredEdit, type SaveOutcome } from './post-editor.server'
import { getPost } from './posts.server'

/**
 * Links from older posts to a newly published one (issue 14, point 5): the user's older finished posts most related
 * to it (embeddings, or term overlap when they fail), each with the exact change that adding the link makes
 * (app/lib/link-proposal.ts). Adding one saves the older post through the editor (finished, scored, sanitized, a
 * version kept), so it can be undone from its versions. Nothing is changed without the user's click.
 */
export const MAX_LINK_SUGGESTIONS = 5
/** The older posts compared (the most recent). */
const MAX_CANDIDATES = 200
const posts = schema.blogPosts

export type LinkSuggestion = {
  postId: string
  title: string
  keyword: string
  kind: LinkProposal['kind']
  /** How an inline link was found: a mention of the newer post's keyword, or a phrase naming its topic. */
  via: 'keyword' | 'topic' | null
  /** The sentence (plain text) the link goes in. */
  excerpt: string
  /** The change as text: the sentence before and after, with the new link apart (never Markdown). */
  change: LinkChange
  section: string | null
  publishedUrl: string | null
}

export type LinkSuggestions =
  | { ready: false; reason: 'not_published' }
  | { ready: true; target: { url: string; title: string }; suggestions: LinkSuggestion[] }

type Stored = NonNullable<Awaited<ReturnType<typeof getPost>>>

function shownTarget(post: Stored) {
  return { url: post.publishedUrl!, title: post.title || post.keyword }
}

function targetOf(post: Stored) {
  return { url: post.publishedUrl!, title: post.title || post.keyword, keyword: post.keyword, text: postText(post) }
}

function linksTo(markdown: string, url: string) {
  const wanted = comparableUrl(url)
  return linkUrls(markdown).some((u) => comparableUrl(u) === wanted)
}

function proposalFor(older: { contentMarkdown: string }, post: Stored) {
  return proposeLink(stripFinish(splitTitle(older.contentMarkdown).body), targetOf(post))
}

/** The suggestions for a post (null when it is not the user's). Only a post with a live URL can be linked to. */
export async function linkSuggestions(userId: string, postId: string): Promise<LinkSuggestions | null> {
  const post = await getPost(userId, postId)
  if (!post) return null
  if (post.status !== 'completed' || !post.publishedUrl) return { ready: false, reason: 'not_published' }

  const candidates = await db
    .select({
      id: posts.id,
      title: posts.title,
      keyword: posts.keyword,
      metaDescription: posts.metaDescription,
      contentMarkdown: posts.contentMarkdown,
      publishedUrl: posts.publishedUrl,
    })
    .from(posts)
    .where(
      and(
        eq(posts.userId, userId),
        ne(posts.id, post.id),
        eq(posts.status, 'completed'),
        isNull(posts.deletingAt),
        lt(posts.createdAt, post.createdAt),
      ),
    )
    .orderBy(desc(posts.createdAt))
    .limit(MAX_CANDIDATES)
  // By meaning: what the newer post is about (title, description, headings) against what each older one is about.
  const target = targetOf(post)
  const related = await relevance(
    targetText(target),
    candidates.map((c) => targetText({ url: '', title: c.title || c.keyword, text: postText(c) })),
  )
  const minimum = related.method === 'embeddings' ? LINK_MIN_SIMILARITY : Number.MIN_VALUE
  const ranked = candidates
    .map((c, i) => ({ c, score: related.scores[i] ?? 0 }))
    .filter((x) => x.score >= minimum)
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_LINK_SUGGESTIONS * 2)
  if (!ranked.length) return { ready: true, target: shownTarget(post), suggestions: [] }

  const suggestions: LinkSuggestion[] = []
  for (const { c } of ranked) {
    if (linksTo(c.contentMarkdown, post.publishedUrl)) continue
    const proposal = proposalFor(c, post)
    suggestions.push({
      postId: c.id,
      title: c.title || c.keyword,
      keyword: c.keyword,
      kind: proposal.kind,
      via: proposal.kind === 'inline' ? proposal.via : null,
      excerpt: proposal.excerpt,
      section: proposal.kind === 'read-next' ? proposal.section : null,
      change: proposal.change,
      publishedUrl: c.publishedUrl,
    })
    if (suggestions.length === MAX_LINK_SUGGESTIONS) break
  }
  return { ready: true, target: shownTarget(post), suggestions }
}

export type AddLinkResult =
  | { ok: true; message: string; alreadyLinked: boolean; from: { id: string; title: string } }
  | Extract<SaveOutcome, { ok: false }>

/** Adds the link to `postId` in the user's older post `fromId` (a repeat finds it linked and changes nothing). */
export async function addLinkFrom(userId: string, postId: string, fromId: string): Promise<AddLinkResult> {
  const [post, from] = await Promise.all([getPost(userId, postId), getPost(userId, fromId)])
  if (!post || !from || from.id === post.id) return { ok: false, status: 404, message: POST_MESSAGES.notFound }
  if (!post.publishedUrl || post.status !== 'completed')
    return { ok: false, status: 409, message: LINK_MESSAGES.notPublished }
  const title = from.title || from.keyword
  if (linksTo(from.contentMarkdown, post.publishedUrl))
    return { ok: true, alreadyLinked: true, message: LINK_MESSAGES.already(title), from: { id: from.id, title } }
  const proposal = proposalFor(from, post)
  const saved = await saveStoredEdit(userId, from.id, {
    title: from.title,
    slug: from.slug,
    metaDescription: from.metaDescription ?? '',
    body: proposal.markdown,
  })
  if (!saved.ok) return saved
  return { ok: true, alreadyLinked: false, message: LINK_MESSAGES.added(title), from: { id: from.id, title } }
}
