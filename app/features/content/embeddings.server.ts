import { overlap, pageTerms, terms, type LinkTarget } from './internal-links'
import { getEnv } from '#app/platform/env.server'
import { openai } from '#app/platform/ai/openai.server'

/**
 * Relevance between texts from embeddings (`/v1/embeddings` of the configured OpenAI-compatible API, model
 * OPENAI_EMBEDDING_MODEL), with term overlap as the fallback when embeddings fail or AI is not configured.
 */
export const EMBED_TIMEOUT_MS = 10_000
/** At most this many texts per call (the API takes 2048). */
export const EMBED_MAX_INPUTS = 400
/** Cosine similarity from which a page counts as related to a post's keyword (internal links). */
export const LINK_MIN_SIMILARITY = 0.3

export type Embedded = { vectors: number[][]; tokens: number; ms: number }

/** How long one embeddings call may take: EMBED_TIMEOUT_MS with a retry, or less where someone waits on it. */
export type EmbedBudget = { timeoutMs: number; maxRetries: number }
const DEFAULT_BUDGET: EmbedBudget = { timeoutMs: EMBED_TIMEOUT_MS, maxRetries: 1 }

export async function embed(texts: string[], budget: EmbedBudget = DEFAULT_BUDGET): Promise<Embedded> {
  const started = Date.now()
  const input = texts.map((t) => t.replace(/\s+/g, ' ').trim().slice(0, 2000) || '-')
  const res = await openai(budget).embeddings.create({
    model: getEnv().OPENAI_EMBEDDING_MODEL,
    input,
  })
  const vectors = new Array<number[]>(input.length)
  for (const d of res.data) vectors[d.index] = Array.from(d.embedding)
  if (vectors.some((v) => !v?.length)) throw new Error('The embeddings answer missed some inputs.')
  return { vectors, tokens: res.usage?.total_tokens ?? 0, ms: Date.now() - started }
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0
}

/** What a page is about, for matching: its title and the words of its URL path. */
export function pageText(target: LinkTarget): string {
  let path = target.url
  try {
    path = decodeURIComponent(new URL(target.url).pathname)
  } catch {
    /* keep the raw URL */
  }
  return `${target.title} ${path.replace(/[-_/.]+/g, ' ')}`.trim()
}

export type Relevance = {
  /** Similarity 0–1 of each candidate to the topic, in the candidates' order. */
  scores: number[]
  method: 'embeddings' | 'terms'
  tokens: number
  ms: number
}

/** How related each candidate text is to the topic: embeddings when they work, else term overlap. */
export async function relevance(topic: string, candidates: string[]): Promise<Relevance> {
  const r = await relevanceMany([topic], candidates)
  return { scores: r.scores[0] ?? [], method: r.method, tokens: r.tokens, ms: r.ms }
}

/**
 * The same for several topics against one candidate list, in one embeddings call (`scores[topic][candidate]`).
 * With term overlap, `termScore` decides (the links' overlap by default).
 */
export async function relevanceMany(
  topics: string[],
  candidates: string[],
  termScore: (a: Set<string>, b: Set<string>) => number = overlap,
  budget: EmbedBudget = DEFAULT_BUDGET,
): Promise<Omit<Relevance, 'scores'> & { scores: number[][] }> {
  if (!candidates.length || !topics.length) return { scores: topics.map(() => []), method: 'terms', tokens: 0, ms: 0 }
  try {
    const limited = candidates.slice(0, Math.max(0, EMBED_MAX_INPUTS - topics.length))
    const { vectors, tokens, ms } = await embed([...topics, ...limited], budget)
    const rest = vectors.slice(topics.length)
    const scores = topics.map((_, t) =>
      candidates.map((_c, i) => (i < rest.length ? cosine(vectors[t]!, rest[i]!) : 0)),
    )
    return { scores, method: 'embeddings', tokens, ms }
  } catch (error) {
    console.warn('[embeddings] falling back to term overlap:', (error as Error).message)
    const candidateTerms = candidates.map((c) => terms(c))
    const scores = topics.map((topic) => {
      const topicTerms = terms(topic)
      return candidateTerms.map((c) => termScore(topicTerms, c))
    })
    return { scores, method: 'terms', tokens: 0, ms: 0 }
  }
}

/** A similarity function for pickInternalLinks: embeddings (above LINK_MIN_SIMILARITY) or term overlap. */
export async function linkSimilarity(
  topic: string,
  pages: LinkTarget[],
): Promise<{ similarity: (t: LinkTarget) => number; method: Relevance['method']; tokens: number; ms: number }> {
  const r = await relevance(topic, pages.map(pageText))
  const byUrl = new Map(pages.map((p, i) => [p.url, r.scores[i] ?? 0]))
  const topicTerms = terms(topic)
  return {
    method: r.method,
    tokens: r.tokens,
    ms: r.ms,
    similarity:
      r.method === 'embeddings'
        ? (t) => {
            const s = byUrl.get(t.url) ?? 0
            return s >= LINK_MIN_SIMILARITY ? s : 0
          }
        : (t) => overlap(topicTerms, pageTerms(t)),
  }
}
