/**
 * The 'Get started' checklist (issue 35): the seven steps from a new account to Auto Pilot, in order, each with
 * where it is done. Pure: getting-started.server.ts reads the facts, this turns them into the list.
 */
export const GETTING_STARTED_STEPS = [
  { id: 'verify', label: 'Verify your e-mail address', hint: 'Open the link we sent to your inbox.' },
  {
    id: 'business',
    label: 'Describe your business and voice',
    hint: 'What you sell, to whom, and how your posts should sound.',
  },
  { id: 'blog', label: 'Connect your blog', hint: 'WordPress, Ghost or Webflow: where your posts appear.' },
  { id: 'write', label: 'Write your first post', hint: 'Pick a keyword idea and press Create Post.' },
  { id: 'review', label: 'Review your post', hint: 'Read it, check its facts, then mark it as reviewed.' },
  { id: 'publish', label: 'Publish it', hint: 'Send it to your blog in one click.' },
  {
    id: 'autopilot',
    label: 'Switch Auto Pilot on',
    hint: 'Rankwell then writes and publishes new posts for you on a schedule.',
  },
] as const

export type GettingStartedStepId = (typeof GETTING_STARTED_STEPS)[number]['id']

export type GettingStartedStep = {
  id: GettingStartedStepId
  label: string
  hint: string
  done: boolean
  /** Where the step is done; null for the e-mail (done from the inbox; the card offers to send the link again). */
  href: string | null
}

export type GettingStarted = { steps: GettingStartedStep[]; done: number; total: number; hidden: boolean }

/** What the checklist is computed from (one read of the database). */
export type GettingStartedFacts = {
  verified: boolean
  business: boolean
  blog: boolean
  /** The newest finished post of the user, or null. */
  newestPostId: string | null
  reviewed: boolean
  published: boolean
  autopilot: boolean
  hidden: boolean
}

export function gettingStartedFrom(facts: GettingStartedFacts): GettingStarted {
  const post = facts.newestPostId ? `/blogpost/${facts.newestPostId}` : null
  const where: Record<GettingStartedStepId, { done: boolean; href: string | null }> = {
    verify: { done: facts.verified, href: null },
    business: { done: facts.business, href: '/settings/content' },
    blog: { done: facts.blog, href: '/settings/publishing' },
    write: { done: facts.newestPostId !== null, href: '/keywords' },
    review: { done: facts.reviewed, href: post ?? '/blogposts' },
    publish: { done: facts.published, href: post ? `${post}/publish` : '/blogposts' },
    autopilot: { done: facts.autopilot, href: '/autopilot' },
  }
  const steps = GETTING_STARTED_STEPS.map((s) => ({ ...s, ...where[s.id] }))
  return { steps, done: steps.filter((s) => s.done).length, total: steps.length, hidden: facts.hidden }
}

/** The progress line: 'N of 7 done'. */
export const progressText = (g: Pick<GettingStarted, 'done' | 'total'>) => `${g.done} of ${g.total} done`
