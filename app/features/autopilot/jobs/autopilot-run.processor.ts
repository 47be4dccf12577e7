import { scheduledTimeOf, slotFor } from '#app/features/autopilot/settings/autopilot'
import type { AutopilotRunJob } from '#app/features/autopilot/settings/jobs/autopilot.server'
import { runAutopilot } from '#app/features/autopilot/autopilot.server'
import { unscheduleRuns } from '#app/features/autopilot/settings/settings.server'
import type { ProcessorContext } from '#app/platform/queue/processor'

/**
 * A scheduled Auto Pilot run. The slot is the UTC date of the time the scheduler planned this run for (or the
 * one given in the payload), so a second job for the same slot, from any worker process, finds it claimed.
 */
export async function processAutopilotRun(data: AutopilotRunJob, ctx: ProcessorContext) {
  const slot = data.slot ?? slotFor(scheduledTimeOf(ctx.job))
  const outcome = await runAutopilot(data.userId, slot, ctx.log)
  // A scheduler left behind by a failed switch-off stops itself.
  if (outcome.status === 'off' && ctx.job.repeatJobKey) await unscheduleRuns(data.userId)
  return outcome
}
