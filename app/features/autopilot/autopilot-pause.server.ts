import { getUsageSummary } from '#app/features/billing/quota.server'
import { pauseOf, type AutopilotPause } from './autopilot-pause'

export { PAUSE_MESSAGES, type AutopilotPause } from './autopilot-pause'

/**
 * Whether Auto Pilot is paused by the plan (decision 0353): this month's (or the trial's) posts are used, the trial
 * has ended, or the subscription ended. Null when it can write. Read from the same usage summary the profile shows.
 */
export async function autopilotPause(userId: string): Promise<AutopilotPause | null> {
  return pauseOf(await getUsageSummary(userId))
}
