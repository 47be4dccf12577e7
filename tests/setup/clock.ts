/**
 * The app's rate limits count in fixed windows aligned to the clock (an hour starts at :00). A test that fills a
 * window and then expects the refusal must not straddle two windows: this waits, when the next window starts in
 * less than `marginMs`, until it has started. Returns how long it waited (0 almost always), so that a caller can
 * extend its own time limit first with `timeNeeded`.
 */
export function msUntilSafe(windowSeconds: number, marginMs: number, now = Date.now()) {
  const windowMs = windowSeconds * 1000
  const left = windowMs - (now % windowMs)
  return left < marginMs ? left + 1000 : 0
}

export async function clearOfWindowEdge(windowSeconds: number, marginMs = 90_000) {
  const wait = msUntilSafe(windowSeconds, marginMs)
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  return wait
}
