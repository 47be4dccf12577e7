/**
 * The AI visibility settings form and the prompt form (issue 37): pure zod schemas over the strings a browser posts
 * (decision 0311), shared by the page's actions and the JSON API so both answer the same messages under the same names.
 */
import { z } from 'zod'
import { checkDomain } from '#app/features/keywords/domains'
import { MAX_BRAND_ALIASES, MAX_COMPETITOR_DOMAINS, PROMPT_LENGTH, SAMPLES } from './visibility'

/** The longest brand alias (a name, not a sentence). */
export const BRAND_ALIAS_LENGTH = 60

export const AI_SETTINGS_MESSAGES = {
  aliasesTooMany: `Enter at most ${MAX_BRAND_ALIASES} other names, one per line.`,
  aliasTooLong: `Each name may be at most ${BRAND_ALIAS_LENGTH} characters.`,
  competitorsTooMany: `Enter at most ${MAX_COMPETITOR_DOMAINS} competitor domains, one per line.`,
  competitorInvalid: (line: string, why: string) => `“${line.slice(0, 60)}”: ${why}`,
  samples: `Choose between ${SAMPLES.min} and ${SAMPLES.max} answers per prompt.`,
  saved: 'AI visibility settings saved.',
} as const

export const PROMPT_MESSAGES = {
  required: 'Enter a question a buyer would ask.',
  tooShort: `Write at least ${PROMPT_LENGTH.min} characters.`,
  tooLong: `Keep it under ${PROMPT_LENGTH.max} characters.`,
  secret:
    'This looks like a key, password or token. Prompts are sent to ChatGPT, Perplexity, Gemini and Claude: leave secrets out.',
  email: 'Leave e-mail addresses out: prompts are sent to ChatGPT, Perplexity, Gemini and Claude.',
  markup: 'Write the question as plain text.',
  duplicate: 'You already track this prompt.',
  limit: (n: number) => `Your plan allows ${n} active prompts. Remove one first, or upgrade for more.`,
  added: 'Prompt added. Its first answers come with the next daily check.',
  removed: 'Prompt removed.',
  accepted: 'Suggestion added to your prompts.',
  dismissed: 'Suggestion dismissed.',
} as const

/** Lines of a textarea: trimmed, empty ones dropped, duplicates (case-insensitive) once. */
export function linesOf(value: string) {
  const seen = new Set<string>()
  const lines: string[] = []
  for (const raw of value.split(/\r?\n/)) {
    const line = raw.normalize('NFKC').replace(/\s+/g, ' ').trim()
    if (!line || seen.has(line.toLowerCase())) continue
    seen.add(line.toLowerCase())
    lines.push(line)
  }
  return lines
}

const textarea = (max: number) =>
  z
    .string({ invalid_type_error: 'Enter text.' })
    .max(max * 300, 'Too long.')
    .default('')

export const aiSettingsSchema = z.object({
  brandAliases: textarea(MAX_BRAND_ALIASES).transform((value, ctx) => {
    const lines = linesOf(value)
    if (lines.length > MAX_BRAND_ALIASES)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: AI_SETTINGS_MESSAGES.aliasesTooMany })
    if (lines.some((l) => l.length > BRAND_ALIAS_LENGTH))
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: AI_SETTINGS_MESSAGES.aliasTooLong })
    return lines
  }),
  competitorDomains: textarea(MAX_COMPETITOR_DOMAINS).transform((value, ctx) => {
    const lines = linesOf(value)
    if (lines.length > MAX_COMPETITOR_DOMAINS) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: AI_SETTINGS_MESSAGES.competitorsTooMany })
      return []
    }
    const domains: string[] = []
    for (const line of lines) {
      const checked = checkDomain(line)
      if (!checked.ok) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: AI_SETTINGS_MESSAGES.competitorInvalid(line, checked.message),
        })
        continue
      }
      if (!domains.includes(checked.domain)) domains.push(checked.domain)
    }
    return domains
  }),
  samples: z
    .string({ required_error: AI_SETTINGS_MESSAGES.samples, invalid_type_error: AI_SETTINGS_MESSAGES.samples })
    .trim()
    .refine((s) => /^\d$/.test(s) && Number(s) >= SAMPLES.min && Number(s) <= SAMPLES.max, AI_SETTINGS_MESSAGES.samples)
    .transform(Number),
})
export type AiSettingsInput = z.output<typeof aiSettingsSchema>

/**
 * What looks like a secret: provider key prefixes (OpenAI, Stripe, GitHub, Slack, AWS, Google), a JWT, a PEM block,
 * `password=…`-style assignments, and long random-looking runs of letters and digits.
 */
const SECRET_PATTERNS = [
  /\b(sk|pk|rk)[-_](live|test|proj)?[-_]?[A-Za-z0-9_-]{12,}/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  /\bA(KIA|SIA)[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  /-----BEGIN [A-Z ]*(PRIVATE KEY|CERTIFICATE)-----/,
  /\b(api[-_ ]?key|secret|password|passwd|pwd|token|bearer|authorization)\s*[:=]\s*\S{6,}/i,
  /\bBearer\s+[A-Za-z0-9._~+/-]{16,}/,
]

/** A run of 24+ key-like characters mixing letters and digits (no word, path or hyphenated phrase is like that). */
function hasRandomRun(text: string) {
  for (const run of text.match(/[A-Za-z0-9_+=]{24,}/g) ?? []) {
    const letters = (run.match(/[A-Za-z]/g) ?? []).length
    const digits = (run.match(/[0-9]/g) ?? []).length
    if (letters >= 4 && digits >= 4) return true
  }
  return false
}

export function looksLikeSecret(text: string) {
  return SECRET_PATTERNS.some((p) => p.test(text)) || hasRandomRun(text)
}

export function looksLikeEmail(text: string) {
  return /[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[A-Za-z]{2,}/.test(text)
}

/** A prompt as stored: NFKC, spaces collapsed, no control characters. */
export function cleanPrompt(value: string) {
  const controls = /[\p{Cc}\p{Cf}\u2028\u2029]/gu
  return value.normalize('NFKC').replace(controls, ' ').replace(/\s+/g, ' ').trim()
}

/** The prompt form (and POST /api/ai-prompts): a question a buyer would ask, bounded, with no secrets. */
export const promptSchema = z.object({
  prompt: z
    .string({ required_error: PROMPT_MESSAGES.required, invalid_type_error: PROMPT_MESSAGES.required })
    .transform(cleanPrompt)
    .superRefine((text, ctx) => {
      const fail = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message })
      if (!text) return fail(PROMPT_MESSAGES.required)
      if (text.length < PROMPT_LENGTH.min) return fail(PROMPT_MESSAGES.tooShort)
      if (text.length > PROMPT_LENGTH.max) return fail(PROMPT_MESSAGES.tooLong)
      if (looksLikeEmail(text)) return fail(PROMPT_MESSAGES.email)
      if (looksLikeSecret(text)) return fail(PROMPT_MESSAGES.secret)
      if (/<\/?[a-z][^>]*>/i.test(text)) return fail(PROMPT_MESSAGES.markup)
    }),
})
export type PromptInput = z.output<typeof promptSchema>

/** The settings as the form shows them (textareas of lines, samples as a string). */
export function settingsFormValues(settings: { brandAliases: string[]; competitorDomains: string[]; samples: number }) {
  return {
    brandAliases: settings.brandAliases.join('\n'),
    competitorDomains: settings.competitorDomains.join('\n'),
    samples: String(settings.samples),
  }
}
