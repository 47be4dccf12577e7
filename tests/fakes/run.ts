/**
 * Standalone entry: `tsx tests/fakes/run.ts [--only=openai,stripe] [--stripe-webhook-url=URL] [--latency-ms=N]`
 * Prints one line `FAKES_READY <json env>` on stdout and runs until SIGTERM/SIGINT.
 */
import { ALL_FAKES, startFakes, type FakeName } from './index'

function arg(name: string): string | undefined {
  const prefix = `--${name}=`
  const found = process.argv.find((a) => a.startsWith(prefix))
  if (found) return found.slice(prefix.length)
  const idx = process.argv.indexOf(`--${name}`)
  if (idx >= 0 && idx + 1 < process.argv.length && !process.argv[idx + 1].startsWith('--')) return process.argv[idx + 1]
  return undefined
}

async function main(): Promise<void> {
  const onlyRaw = arg('only')
  const only = onlyRaw
    ? onlyRaw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined
  if (only) {
    const unknown = only.filter((n) => !(ALL_FAKES as readonly string[]).includes(n))
    if (unknown.length > 0) {
      process.stderr.write(`unknown fake(s): ${unknown.join(', ')}; known: ${ALL_FAKES.join(', ')}\n`)
      process.exit(2)
    }
  }
  const latency = arg('latency-ms')
  const running = await startFakes({
    only: only as FakeName[] | undefined,
    stripeWebhookUrl: arg('stripe-webhook-url'),
    latencyMs: latency ? Number(latency) : undefined,
    host: arg('host'),
  })
  process.stdout.write(`FAKES_READY ${JSON.stringify(running.env)}\n`)

  let closing = false
  const shutdown = (): void => {
    if (closing) return
    closing = true
    const force = setTimeout(() => process.exit(0), 3000)
    force.unref()
    running
      .close()
      .catch(() => undefined)
      .finally(() => process.exit(0))
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}

main().catch((err: unknown) => {
  process.stderr.write(`fakes failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exit(1)
})
