import { UnrecoverableError, Worker, type Job } from 'bullmq'

/**
 * What a job's processor gets (capabilities define their processors beside their jobs; the worker registers them).
 * BullMQ stays behind app/platform/queue: processors use the two signals below instead of importing it.
 */
export type ProcessorContext = {
  job: Job
  worker: Worker
  workerId: string
  log: (msg: string, extra?: Record<string, unknown>) => void
}

export type Processor<T> = (data: T, ctx: ProcessorContext) => Promise<unknown>

/** Thrown by a processor when no retry can help: the job fails at once. */
export { UnrecoverableError }

/** Thrown by a processor after pausing its queue: the job goes back to waiting without using an attempt. */
export const rateLimitedJob = () => Worker.RateLimitError()
