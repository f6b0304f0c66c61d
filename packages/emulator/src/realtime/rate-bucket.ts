import { msUntil, refill } from '@tandem/contract'

// A connection's publish or presence bucket: `limit` tokens per `intervalMs`, holding at most `burst`.

export class RateBucket {
  private tokens: number
  private last: number

  constructor(
    private readonly limit: number,
    private readonly intervalMs: number,
    private readonly burst: number,
    now = Date.now(),
  ) {
    this.tokens = burst
    this.last = now
  }

  /** 0 when a token was taken, else how long until one is available (ms, ≥ 1). */
  take(now = Date.now()): number {
    const rate = this.limit / this.intervalMs
    this.tokens = refill(this.tokens, this.burst, now - this.last, rate)
    this.last = now
    if (this.tokens >= 1) {
      this.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil(msUntil(this.tokens, 1, rate)))
  }
}
