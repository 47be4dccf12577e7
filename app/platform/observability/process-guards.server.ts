import { logJson } from './log.server'

/**
 * What a stray error does to a long-running process (issue 20, docs/decisions/0206-stray-errors-in-processes.md).
 *
 * - A promise rejected with nobody listening (a client library's background reconnect while Redis or Postgres
 *   restarts, a fire-and-forget write) is logged as an error line with its stack, and the process goes on: the
 *   request or job it belonged to has answered or failed on its own path already. Node's default would end the
 *   process, and with it every request in flight on it.
 * - An exception thrown outside any request or job handler leaves the process in a state nobody planned for: it is
 *   logged, then the process stops the way a deploy stops it (`stop`: drain, finish what runs, exit 1), so that its
 *   supervisor starts a fresh one.
 *
 * With SENTRY_DSN set, the SDK's own handlers report both (they are installed by Sentry.init); nothing here reports
 * them a second time.
 */
export function installProcessGuards(processKind: 'web' | 'worker', stop: (reason: string) => void) {
  process.on('unhandledRejection', (reason) => {
    logJson({ process: processKind, level: 'error', msg: 'unhandled promise rejection', ...describe(reason) })
  })
  let fatal = false
  process.on('uncaughtException', (error, origin) => {
    logJson({ process: processKind, level: 'error', msg: 'uncaught exception: stopping', origin, ...describe(error) })
    process.exitCode = 1
    if (fatal) return
    fatal = true
    stop('uncaughtException')
  })
}

function describe(reason: unknown): { error: string; stack?: string } {
  if (reason instanceof Error) return { error: `${reason.name}: ${reason.message}`, stack: reason.stack }
  return { error: String(reason) }
}
