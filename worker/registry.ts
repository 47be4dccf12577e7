import type { ZodType } from 'zod'
import type { QueueName } from '#app/jobs/queues.server'
import type { Processor } from './context'

type Entry = { schema: ZodType; handler: Processor<never> }

/** Job handlers by queue and job name. */
class Registry {
  private entries = new Map<string, Entry>()
  register<T>(queue: QueueName, name: string, schema: ZodType<T>, handler: Processor<T>) {
    this.entries.set(`${queue}/${name}`, { schema, handler: handler as Processor<never> })
  }
  get(queue: string, name: string) {
    return this.entries.get(`${queue}/${name}`)
  }
}

export const registry = new Registry()
