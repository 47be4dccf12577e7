import { z } from 'zod'
import { chatJson } from '#app/platform/ai/openai.server'
import { KEYWORD_INTENTS } from '#app/features/keywords/keyword-metrics'
import { IDEAS_PER_SEARCH, KeywordProviderError, type KeywordProvider } from './types'

/**
 * The fallback when no keyword data provider is configured: the language model suggests ideas and *estimates*
 * their volume and difficulty. Rows are stored with source 'ai_estimate' and shown as estimates. Issue 36: the same
 * call estimates each idea's search intent (intentSource 'ai_estimate'); no cost per click, competition, trend or SERP
 * features are made up (null).
 */
const jsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['keywords'],
  properties: {
    keywords: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['keyword', 'avgMonthlySearches', 'difficultyScore', 'intent'],
        properties: {
          keyword: { type: 'string', description: 'the keyword idea, as people type it into Google' },
          avgMonthlySearches: {
            type: 'integer',
            description: 'estimated average monthly Google searches in the market',
          },
          difficultyScore: {
            type: 'integer',
            description: 'estimated ranking difficulty from 0 (easy) to 100 (very hard)',
          },
          intent: {
            type: 'string',
            enum: [...KEYWORD_INTENTS],
            description:
              'search intent: informational (researching), commercial (comparing options), transactional (ready to buy), navigational (looking for a site)',
          },
        },
      },
    },
  },
} as const

const answer = z.object({
  keywords: z.array(
    z.object({
      keyword: z.string(),
      avgMonthlySearches: z.number(),
      difficultyScore: z.number(),
      // Older cached answers and a model that leaves it out: no intent rather than a failed search.
      intent: z.enum(KEYWORD_INTENTS).nullish().catch(null),
    }),
  ),
})

const SYSTEM = [
  'You are an SEO keyword researcher. You have no live search data, so you estimate from what you know about',
  'search behaviour. Be realistic and conservative: most long-tail keywords have small volumes.',
  'Answer only with the JSON the schema asks for.',
].join(' ')

export function aiEstimateProvider(): KeywordProvider {
  return {
    id: 'ai_estimate',
    async ideas(q) {
      const user = [
        `Keyword: "${q.query}"`,
        `Country: ${q.countryName || q.countryCode}`,
        `Language: ${q.languageName || q.languageCode}`,
        '',
        `List about 25 (at most ${IDEAS_PER_SEARCH}) keyword ideas for this keyword in this country and language, written in`,
        'that language, starting with the keyword itself. For each, estimate avgMonthlySearches (average monthly Google',
        'searches in that country, an integer) and difficultyScore (how hard it is to rank on the first page, 0-100,',
        'like the keyword difficulty of common SEO tools) and intent (informational, commercial, transactional or',
        'navigational).',
      ].join('\n')
      try {
        const { data } = await chatJson({
          system: SYSTEM,
          user,
          name: 'keyword_ideas',
          jsonSchema,
          parse: answer,
          temperature: 0.3,
          maxRetries: 2,
          timeoutMs: 30_000,
        })
        const ideas = data.keywords.slice(0, IDEAS_PER_SEARCH).map((k) => ({
          keyword: k.keyword.trim(),
          avgMonthlySearches: Math.max(0, Math.round(k.avgMonthlySearches)),
          difficultyScore: Math.min(100, Math.max(0, Math.round(k.difficultyScore))),
          intent: k.intent ?? null,
          intentSource: k.intent ? ('ai_estimate' as const) : null,
          cpc: null,
          cpcCurrency: null,
          competition: null,
          competitionLevel: null,
          monthlySearches: null,
          serpFeatures: null,
        }))
        return { ideas, note: null }
      } catch (error) {
        throw new KeywordProviderError(
          `ai_estimate: ${error instanceof Error ? error.message : String(error)}`,
          'ai_estimate',
        )
      }
    },
  }
}
