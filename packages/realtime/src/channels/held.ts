// The client-wide budget of live messages held while channels (re)subscribe or fill a gap from
// history: a server that pushes without answering must not grow the heap without end. A channel
// past it drops what comes and reads it from history afterwards (channel.ts).

export interface HeldBudget {
  /** Room for one more message of `bytes`: taken if there is. */
  take: (bytes: number) => boolean
  /** Messages released (delivered or dropped). */
  give: (count: number, bytes: number) => void
}

export function createHeldBudget(max: number, maxBytes: number): HeldBudget {
  let count = 0
  let bytes = 0
  return {
    take(b) {
      if (count >= max || bytes + b > maxBytes) return false
      count++
      bytes += b
      return true
    },
    give(c, b) {
      count -= c
      bytes -= b
    },
  }
}
