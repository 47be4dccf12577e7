import { z } from 'zod'
import { HONEYPOT_FIELD } from '#app/platform/security/honeypot'
import { MAX_INPUT_LENGTH, type ToolId } from './seo-tools'
import { safeText } from '#app/platform/security/safe-text'

/** The free tools' input schemas, shared by the pages' actions and the /api/public routes. */
const text = (required: string) =>
  z
    .string({ required_error: required, invalid_type_error: required })
    .transform((v) => v.replace(/\s+/g, ' ').trim())
    .pipe(safeText().min(1, required).max(MAX_INPUT_LENGTH, `Please use at most ${MAX_INPUT_LENGTH} characters.`))

const honeypot = { [HONEYPOT_FIELD]: safeText().optional() }

export const keywordsInput = z.object({ topic: text('Please enter a content topic.'), ...honeypot })
export const titlesInput = z.object({ keyword: text('Please enter a main keyword.'), ...honeypot })
export const outlineInput = z.object({ keyword: text('Please enter a main topic.'), ...honeypot })
export const strategyInput = z.object({
  business: text('Please enter your business type.'),
  segment: text('Please enter your market segment.'),
  ...honeypot,
})

export const TOOL_INPUTS = {
  keywords: keywordsInput,
  titles: titlesInput,
  outline: outlineInput,
  strategy: strategyInput,
} as const

export type ToolInput<T extends ToolId> = z.infer<(typeof TOOL_INPUTS)[T]>
