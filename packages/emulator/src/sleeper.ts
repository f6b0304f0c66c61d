// Injected latency that close() can cut short: a pending delay must never keep a closed
// emulator (or a test run) alive.
export class Sleeper {
  private pending = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>()

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.pending.delete(entry)
          resolve()
        }, ms),
        resolve,
      }
      this.pending.add(entry)
    })
  }

  /** Resolve every pending sleep now. */
  wakeAll(): void {
    for (const entry of this.pending) {
      clearTimeout(entry.timer)
      entry.resolve()
    }
    this.pending.clear()
  }
}
