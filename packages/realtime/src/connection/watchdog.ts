export interface Watchdog {
  /** Any frame arrived. */
  seen(): void
  start(heartbeatMs: number, graceMs: number): void
  stop(): void
}

/**
 * `heartbeatMs + grace` without any frame means a dead link. It compares wall-clock time on
 * each tick instead of trusting one long timer, so a timer throttled in a background tab
 * still notices as soon as it runs.
 */
export function createWatchdog(onDead: () => void, now = () => Date.now()): Watchdog {
  // Set by start(): made with a connection (in a render, where Next.js refuses the clock), it reads none.
  let last = 0
  let timer: ReturnType<typeof setInterval> | undefined
  const stop = () => clearInterval(timer)
  return {
    seen: () => {
      last = now()
    },
    start(heartbeatMs, graceMs) {
      stop()
      last = now()
      const limit = heartbeatMs + graceMs
      timer = setInterval(
        () => {
          if (now() - last > limit) {
            stop()
            onDead()
          }
        },
        Math.max(20, Math.min(1_000, graceMs / 4)),
      )
    },
    stop,
  }
}
