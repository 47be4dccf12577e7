import { z } from 'zod'
import { safeText } from '#app/platform/security/safe-text'
import { plainField } from '#app/platform/security/plain-field'

export { plainField, safeSlug } from '#app/platform/security/plain-field'
import { isLoopbackHost } from './site-key'

/**
 * Publishing destinations (WordPress, Ghost, Webflow): the forms' schemas, shared by the screens (parsed by Conform on
 * the server and in the browser) and the JSON API, and the copy of the publishing screens. Pure: no I/O.
 */

export const DESTINATION_KINDS = ['wordpress', 'ghost', 'webflow'] as const
export type DestinationKind = (typeof DESTINATION_KINDS)[number]

export const KIND_LABELS: Record<DestinationKind, string> = {
  wordpress: 'WordPress',
  ghost: 'Ghost',
  webflow: 'Webflow',
}

export const REVIEW_MODES = ['quality', 'review', 'auto_approve', 'always'] as const
export type ReviewMode = (typeof REVIEW_MODES)[number]

export const REVIEW_MODE_LABELS: Record<ReviewMode, string> = {
  quality: 'Publish automatically when the SEO score reaches the minimum below and every figure is verified',
  review: 'Review every post before it is published',
  auto_approve: 'Approve automatically after the waiting time below, unless I reject the post',
  always: 'Publish every post automatically, without review (except posts with unverified figures)',
}

export const PUBLICATION_STATUS_LABELS = {
  pending: 'Publishing…',
  published: 'Published',
  unpublished: 'Unpublished',
  failed: 'Failed',
  missing: 'Deleted on the site',
} as const
export type PublicationStatus = keyof typeof PUBLICATION_STATUS_LABELS

export const PUBLISHING_MESSAGES = {
  saved: 'Destination saved. The connection works.',
  deleted: 'Destination removed.',
  testOk: 'The connection works.',
  queued: 'Publishing started. The status below updates when the site answers.',
  scheduled: 'Scheduled.',
  unpublishQueued: 'Unpublishing started.',
  noTargets: 'Choose at least one destination.',
  notReady: 'Only a finished post can be published.',
  approved: 'Approved. The post is being published.',
  approvedScheduled: 'Approved and scheduled.',
  rejected: 'Rejected. Auto Pilot will not use this keyword again.',
  reviewSaved: 'Review settings saved.',
  moved: 'Moved.',
  pausedByRejections:
    'Auto Pilot paused itself: you rejected the last 3 drafts. Check your business details, then switch Auto Pilot back on.',
  pausedByDestination: (name: string) =>
    `Auto Pilot paused itself: the destination "${name}" is paused. Fix it, then switch Auto Pilot back on.`,
  missingRemote: (kind: string) => `The post was deleted on ${kind}. Publish it again to create a new copy there.`,
} as const

/** True when a one-line value holds a control character (a NUL byte, a line break, …). */
function hasControlCharacters(value: string) {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/** Trims a text field and refuses control characters (a NUL byte can never reach Postgres). */
const text = (label: string, max: number) =>
  z
    .string({ required_error: `${label} is required.`, invalid_type_error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is too long (at most ${max} characters).`)
    .refine((v) => !hasControlCharacters(v), `${label} contains invalid characters.`)

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} is too long (at most ${max} characters).`)
    .refine((v) => !hasControlCharacters(v), `${label} contains invalid characters.`)
    .optional()
    .transform((v) => (v ? v : undefined))

/** The message next to a site address that is not https (Basic credentials and admin keys must not travel in clear). */
export const httpsRequired = (label: string) =>
  `${label} must start with https:// (the password or key must not travel unencrypted).`

/**
 * An https URL without credentials, query or fragment, normalised without a trailing slash. Plain http only for a
 * loopback host (a site on the same machine, in development and tests); the server refuses even that in production
 * (destinations.server.ts, `loopbackHttpAllowed`).
 */
export const siteUrl = (label: string) =>
  text(label, 300)
    .transform((v) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`))
    .superRefine((v, ctx) => {
      let url: URL
      try {
        url = new URL(v)
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `${label} is not a valid address (for example https://blog.example.com).`,
        })
        return
      }
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
        ctx.addIssue({ code: 'custom', message: httpsRequired(label) })
      else if (url.username || url.password)
        ctx.addIssue({ code: 'custom', message: `${label} must not contain a user name or password.` })
      else if (url.search || url.hash) ctx.addIssue({ code: 'custom', message: `${label} must not contain ? or #.` })
    })
    .transform((v) => new URL(v).toString().replace(/\/+$/, ''))

/**
 * A comma-separated list of names (categories, tags): plain text (`plainField`: a name is shown on the customer's
 * site), de-duplicated, at most 20.
 */
const nameList = (label: string) =>
  z
    .string()
    .max(1000, `${label}: too long.`)
    .optional()
    .transform((v) => [
      ...new Set(
        (v ?? '')
          .split(',')
          .map((s) => plainField(s))
          .filter(Boolean),
      ),
    ])
    .refine((list) => list.length <= 20, `${label}: at most 20.`)
    .refine((list) => list.every((n) => n.length <= 100 && !hasControlCharacters(n)), `${label}: invalid name.`)

const postStatus = z.enum(['publish', 'draft'], { errorMap: () => ({ message: 'Choose publish or draft.' }) })
const unpublishMode = z.enum(['draft', 'delete'], { errorMap: () => ({ message: 'Choose draft or delete.' }) })
/** Whether Auto Pilot publishes to a destination: yes unless said otherwise (forms send `false` when unticked). */
const autopilotFlag = z
  .union([z.boolean(), safeText()])
  .optional()
  .transform((v) => v === undefined || v === true || v === 'on' || v === 'true')

const name = optionalText('Name', 80)

export const wordpressForm = z.object({
  kind: z.literal('wordpress'),
  name,
  siteUrl: siteUrl('Site URL'),
  username: text('User name', 100),
  /** Optional when editing: blank keeps the stored one. Spaces (as WordPress shows it) are ignored. */
  appPassword: optionalText('Application Password', 200).transform((v) => v?.replace(/\s+/g, '')),
  postStatus: postStatus.default('publish'),
  unpublishMode: unpublishMode.default('draft'),
  categories: nameList('Categories'),
  tags: nameList('Tags'),
  autopilot: autopilotFlag,
})

export const ghostForm = z.object({
  kind: z.literal('ghost'),
  name,
  adminUrl: siteUrl('Admin API URL'),
  adminApiKey: optionalText('Admin API key', 300).refine(
    (v) => v === undefined || /^[a-f0-9]{24}:[a-f0-9]{64}$/i.test(v),
    'The Admin API key looks like 24 hex characters, a colon and 64 hex characters (Ghost Admin → Integrations).',
  ),
  postStatus: postStatus.default('publish'),
  unpublishMode: unpublishMode.default('draft'),
  tags: nameList('Tags'),
  autopilot: autopilotFlag,
})

const FIELD_SLUG = /^[a-z0-9][a-z0-9-_]*$/i
const fieldSlugMessage = (label: string) =>
  `${label}: use the field's slug as Webflow shows it (letters, digits, - and _).`
const fieldSlug = (label: string) => text(label, 100).refine((v) => FIELD_SLUG.test(v), fieldSlugMessage(label))
const optionalFieldSlug = (label: string) =>
  optionalText(label, 100).refine((v) => v === undefined || FIELD_SLUG.test(v), fieldSlugMessage(label))

export const webflowForm = z.object({
  kind: z.literal('webflow'),
  name,
  apiToken: optionalText('API token', 300),
  siteId: text('Site ID', 100).refine((v) => /^[a-f0-9]{24}$/i.test(v), 'The Site ID is 24 hex characters.'),
  collectionId: text('Collection ID', 100).refine(
    (v) => /^[a-f0-9]{24}$/i.test(v),
    'The Collection ID is 24 hex characters.',
  ),
  titleField: fieldSlug('Title field').default('name'),
  slugField: fieldSlug('Slug field').default('slug'),
  bodyField: fieldSlug('Body field'),
  summaryField: optionalFieldSlug('Summary field'),
  /** A Plain text field that receives the post's JSON-LD, for the collection template's custom code. */
  jsonLdField: optionalFieldSlug('Structured data field'),
  imageField: optionalFieldSlug('Image field'),
  unpublishMode: unpublishMode.default('draft'),
  autopilot: autopilotFlag,
})

const kindErrors = { errorMap: () => ({ message: 'Choose WordPress, Ghost or Webflow.' }) }

/** A destination as the JSON API takes it (`autopilot` left out means yes). */
export const destinationForm = z.discriminatedUnion('kind', [wordpressForm, ghostForm, webflowForm], kindErrors)
export type DestinationInput = z.infer<typeof destinationForm>

/** The 'Auto Pilot publishes here' box as a browser posts it: 'on' when ticked, nothing at all when not. */
const autopilotCheckbox = z
  .string()
  .optional()
  .transform((v) => v === 'on')

/**
 * The same destination as the settings page's form posts it (decision 0311: parsed with Conform, checked in the
 * browser too). Only the Auto Pilot box differs from the API: an unticked checkbox is absent from the form.
 */
export const destinationPageForm = z.discriminatedUnion(
  'kind',
  [
    wordpressForm.extend({ autopilot: autopilotCheckbox }),
    ghostForm.extend({ autopilot: autopilotCheckbox }),
    webflowForm.extend({ autopilot: autopilotCheckbox }),
  ],
  kindErrors,
)

/** The secret field of each kind (never sent back to the browser). */
export const SECRET_FIELD: Record<DestinationKind, 'appPassword' | 'adminApiKey' | 'apiToken'> = {
  wordpress: 'appPassword',
  ghost: 'adminApiKey',
  webflow: 'apiToken',
}

export const SECRET_LABEL: Record<DestinationKind, string> = {
  wordpress: 'Application Password',
  ghost: 'Admin API key',
  webflow: 'API token',
}

/** How Auto Pilot's drafts are published (the review form of /autopilot). */
export const reviewSettingsForm = z
  .object({
    reviewMode: z.enum(REVIEW_MODES, { errorMap: () => ({ message: 'Choose how drafts are published.' }) }),
    minScore: z.coerce
      .number({ invalid_type_error: 'The score is a number from 0 to 100.' })
      .int('The score is a whole number.')
      .min(0, 'The score is a number from 0 to 100.')
      .max(100, 'The score is a number from 0 to 100.')
      .default(80),
    approveAfterHours: z.coerce
      .number({ invalid_type_error: 'Hours are a number from 1 to 168.' })
      .int('Hours are a whole number.')
      .min(1, 'Hours are a number from 1 to 168.')
      .max(168, 'Hours are a number from 1 to 168.')
      .default(24),
  })
  .strip()
export type ReviewSettings = z.infer<typeof reviewSettingsForm>

const uuid = safeText().uuid('Unknown destination.')

/** A date (YYYY-MM-DD, optionally with a time) in the future or today; empty = now. */
export const publishAt = z
  .string()
  .trim()
  .max(40)
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined
    const date = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T09:00:00Z`) : new Date(v)
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'Enter a date like 2026-12-01.' })
      return z.NEVER
    }
    // Today (its morning may have passed: it goes out at once) or later; a day gone by is a mistake, not 'now'.
    if (date.toISOString().slice(0, 10) < new Date().toISOString().slice(0, 10)) {
      ctx.addIssue({ code: 'custom', message: 'Choose today or a later date.' })
      return z.NEVER
    }
    return date
  })

/**
 * 'Publish to…': the chosen targets and an optional date. A form posts one value per ticked box, so one box is a
 * single string and none is nothing at all: both are read as a list (the JSON API sends a list).
 */
export const publishForm = z.object({
  targets: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z
      .array(z.union([uuid, z.literal('webhook')]))
      .max(20)
      .transform((list) => [...new Set(list)])
      .refine((list) => list.length > 0, PUBLISHING_MESSAGES.noTargets),
  ),
  publishAt,
})

/** Approving a draft waiting for review: now, or on a date. */
export const approveForm = z.object({ publishAt })

/** A target is a destination id or the user's Auto Pilot webhook. */
export type PublishTarget = string | 'webhook'

/** Does a post pass the automatic publishing bar? */
export function passesQualityGate(
  post: { seoScore: number | null; claims: unknown },
  minScore: number,
): { passes: boolean; reasons: string[] } {
  const reasons: string[] = []
  if (post.seoScore === null) reasons.push('the post has no SEO score yet')
  else if (post.seoScore < minScore) reasons.push(`its SEO score is ${post.seoScore}, below ${minScore}`)
  const unverified = unverifiedClaims(post.claims)
  if (unverified > 0) reasons.push(unverifiedReason(unverified))
  return { passes: reasons.length === 0, reasons }
}

export const unverifiedReason = (n: number) =>
  `${n} claim${n === 1 ? ' is' : 's are'} not verified against ${n === 1 ? 'its' : 'their'} source`

/**
 * How many claims of a ledger are not verified: 'unverified' ones (issue 32), and in older ledgers any entry
 * without a source. Auto Pilot publishes no post with one, whatever its score or the review mode.
 */
export function unverifiedClaims(claims: unknown): number {
  if (!Array.isArray(claims)) return 0
  return claims.filter((c) => {
    if (!c || typeof c !== 'object') return true
    const claim = c as { sourceUrl?: unknown; status?: unknown }
    return typeof claim.status === 'string' ? claim.status === 'unverified' : !claim.sourceUrl
  }).length
}

/** A URL a remote site answered with, if it is http(s); anything else (`javascript:`, `data:`, junk) is null. */
export function httpUrlOrNull(url: string | null | undefined): string | null {
  if (!url) return null
  try {
    const u = new URL(url)
    return u.protocol === 'http:' || u.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}

/**
 * POST /api/blogpost/:id/publish's body: the schemas of the 'Publish to…' page's forms (publishForm, approveForm)
 * with the action named, so that a bad body answers 400 {message, errors} under the forms' field names.
 */
export const publishActionSchema = z.discriminatedUnion('action', [
  publishForm.extend({ action: z.literal('publish'), confirmRecreate: z.boolean().optional() }),
  z.object({ action: z.literal('unpublish'), target: z.union([z.string().uuid(), z.literal('webhook')]) }),
  approveForm.extend({ action: z.literal('approve') }),
  z.object({ action: z.literal('reject') }),
])
