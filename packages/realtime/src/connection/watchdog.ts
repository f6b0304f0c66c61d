export interface Watchdog {
  /** Any frame arrived. */
  seen(): void
  /** A property, not a method: the runner passes it on as it is. */
  start: (heartbeatMs: number, graceMs: number) => void
  stop(): void
}

/**
 * `heartbeatMs + grace` without any frame means a dead link. It compares wall-clock time on
 * each tick instead of trusting one long timer, so a timer throttled in a background tab
 * still notices as soon as it runs. A frame only sets a flag (no clock read per frame): a tick
 * that finds it set dates the last frame at that tick, never earlier than it came, so the link is
 * never called dead before `heartbeatMs + grace` of silence (and at most a tick or two after).
 */
export function createWatchdog(onDead: () => void, now = () => Date.now()): Watchdog {
  // Set by start(): made with a connection (in a render, where Next.js refuses the clock), it reads none.
  let last = 0
  let fresh = false
  let timer: ReturnType<typeof setInterval> | undefined
  const stop = () => clearInterval(timer)
  return {
    seen: () => {
      fresh = true
    },
    start(heartbeatMs, graceMs) {
      stop()
      last = now()
      timer = setInterval(
        () => {
          const t = now()
          if (fresh) last = t
          else if (t - last >= heartbeatMs + graceMs) {
            stop()
            onDead()
          }
          fresh = false
        },
        Math.min(1_000, graceMs / 4), // at least 25 ms: the link clamps the heartbeat, and grace with it, to 100 ms or more
      )
    },
    stop,
  }
}
