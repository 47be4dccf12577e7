import type { ZodType } from 'zod'
import type { JobDefinition } from '#app/platform/queue/queues.server'
import type { Processor } from '#app/platform/queue/processor'

type Entry = { schema: ZodType; handler: Processor<never> }

/** Job handlers by queue and job name, registered with the job definitions of app/jobs/ (name + payload schema). */
class Registry {
  private entries = new Map<string, Entry>()
  register<T>(job: JobDefinition<T>, handler: Processor<T>) {
    this.entries.set(`${job.queue}/${job.name}`, { schema: job.schema, handler: handler as Processor<never> })
  }
  get(queue: string, name: string) {
    return this.entries.get(`${queue}/${name}`)
  }
}

export const registry = new Registry()
