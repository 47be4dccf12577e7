import { formatShortDate } from '#app/features/billing/billing'
import { LIMITS } from '#app/features/billing/plans'

/**
 * Why Auto Pilot cannot write now (decision 0353), from the plan, the trial and this month's usage: what /autopilot
 * and /calendar show instead of promising posts that will not be written. Pure: `autopilotPause` reads the state.
 * `message` is the headline ('Paused: …'); `detail` says what happens next and what the owner can do; `action` is the
 * link that does it (none when the pause ends on its own).
 */
export type AutopilotPause = {
  reason: 'quota' | 'trial-ended' | 'past-due' | 'ended'
  message: string
  detail: string
  action: { label: string; href: string } | null
  /** When Auto Pilot writes again on its own (the allowance renews), ISO; null when the owner must act. */
  resumesAt: string | null
}

export const PAUSE_MESSAGES = {
  quota: "Paused: this month's posts are used",
  trialQuota: "Paused: the trial's posts are used",
  trialEnded: 'Paused: the trial has ended',
  paymentFailed: 'Paused: the last payment could not be collected',
  ended: 'Paused: your subscription has ended',
} as const

const UPGRADE = { label: 'Upgrade to Premium', href: '/pricing' } as const
const KEPT = 'Your keywords, posts and settings are kept.'

export type PauseInput = {
  status: 'trial' | 'active' | 'past_due' | 'canceled'
  trialExpired: boolean
  blogPostCount: number
  limits: { blogPosts: number }
  usageResetsAt: string | null
  endedReason?: string | null
}

export function pauseOf(s: PauseInput): AutopilotPause | null {
  if (s.status === 'trial') {
    if (s.trialExpired)
      return {
        reason: 'trial-ended',
        message: PAUSE_MESSAGES.trialEnded,
        detail: `Auto Pilot writes no new posts until you upgrade. ${KEPT}`,
        action: UPGRADE,
        resumesAt: null,
      }
    if (s.blogPostCount >= s.limits.blogPosts)
      return {
        reason: 'quota',
        message: PAUSE_MESSAGES.trialQuota,
        detail: `The free trial includes ${s.limits.blogPosts} posts. Upgrade to keep Auto Pilot writing: Premium includes ${LIMITS.premium.blogPosts} posts a month.`,
        action: UPGRADE,
        resumesAt: null,
      }
    return null
  }
  if (s.status === 'canceled')
    return s.endedReason === 'payment_failed'
      ? {
          reason: 'past-due',
          message: PAUSE_MESSAGES.paymentFailed,
          detail: `Your Premium subscription ended because the payment could not be collected. Subscribe again to resume Auto Pilot. ${KEPT}`,
          action: { label: 'Subscribe again', href: '/pricing' },
          resumesAt: null,
        }
      : {
          reason: 'ended',
          message: PAUSE_MESSAGES.ended,
          detail: `Subscribe again to resume Auto Pilot. ${KEPT}`,
          action: { label: 'Subscribe again', href: '/pricing' },
          resumesAt: null,
        }
  // Premium (and past due, while the payment is retried: Auto Pilot keeps writing then) stops only at the allowance.
  if (s.blogPostCount >= s.limits.blogPosts) {
    const renews = formatShortDate(s.usageResetsAt)
    return {
      reason: 'quota',
      message: PAUSE_MESSAGES.quota,
      detail: `Auto Pilot writes again ${renews ? `on ${renews}` : 'next month'}, when your ${s.limits.blogPosts} posts a month renew. Its schedule is kept.`,
      action: null,
      resumesAt: s.usageResetsAt,
    }
  }
  return null
}
