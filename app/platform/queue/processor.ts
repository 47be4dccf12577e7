import type { Job, Worker } from 'bullmq'

export type ProcessorContext = {
  job: Job
  worker: Worker
  workerId: string
  log: (msg: string, extra?: Record<string, unknown>) => void
}

export type Processor<T> = (data: T, ctx: ProcessorContext) => Promise<unknown>
