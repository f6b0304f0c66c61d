import { useEffect, useState } from 'react'

const secondsLeft = (until: number) => Math.max(0, Math.ceil((until - Date.now()) / 1000))

/**
 * Whole seconds until `until` (ms since the epoch), counting down once a second. Each tick is
 * computed from the deadline, not by decrementing, so a late timer (a busy tab, a throttled
 * background one) never leaves the number wrong: it is right whenever it renders.
 */
export function useCountdown(until: number): number {
  const [ticks, tick] = useState(0)
  const left = secondsLeft(until)
  useEffect(() => {
    if (left <= 0) return
    // The next change is when the remaining time crosses the next whole second.
    const timer = setTimeout(() => tick((n) => n + 1), until - Date.now() - (left - 1) * 1000)
    return () => clearTimeout(timer)
    // `ticks` too: a timer that fires a hair early leaves `left` as it was, and must still re-arm.
  }, [until, left, ticks])
  return left
}
