import { WebhookClaimError } from './errors.js'
import type { WebhookReplayStore } from './replay-store.js'

// One run of a webhook handler per event, across every copy of a delivery and every instance that
// shares the store: the first copy claims the event, the others are told to come back (still in
// flight) or that it was handled. Nothing is ever accepted unguarded: a store that fails or
// hangs makes the delivery fail retryably.

/** What became of one delivery. */
export type ClaimOutcome = 'handled' | 'duplicate' | 'in_flight' | 'unavailable' | 'failed'

export interface Claims {
  /** Claims `id`, runs `handler` if this delivery won, and records the result. */
  run: (id: string, handler: () => Promise<void>) => Promise<ClaimOutcome>
}

class StoreTimeout extends Error {}

/** `value`, unless it takes longer than `ms` (a store that never answers must not hold the request). */
function bounded<T>(value: T | Promise<T>, ms: number): Promise<T> {
  if (!(value instanceof Promise)) return Promise.resolve(value)
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeout()), ms)
  })
  return Promise.race([value, timeout]).finally(() => clearTimeout(timer))
}

export interface ClaimTimes {
  /** How long a handled event is kept (twice the signature tolerance). */
  ttlSeconds: number
  /** How long a claim holds unrenewed, with a store that renews; ignored otherwise. */
  leaseSeconds: number
  /** The bound on each store call. */
  timeoutMs: number
  /** Told, once per event, that a handler still running has lost its lease. */
  onLost: (error: WebhookClaimError) => void
}

export function createClaims(
  store: WebhookReplayStore,
  { ttlSeconds, leaseSeconds, timeoutMs, onLost }: ClaimTimes,
): Claims {
  const claimable = typeof store.claim === 'function'
  // With `renew`, a claim is a lease: short, renewed while its handler runs. Without, it holds for
  // the ttl (a claim whose holder is gone locks the event out until then).
  const leased = claimable && typeof store.renew === 'function'
  const claimSeconds = leased ? leaseSeconds : ttlSeconds
  // Copies racing within this process: known before anything is awaited, so none slips between
  // a check and a claim.
  const inFlight = new Set<string>()

  /** The claim: atomic with `claim`; with a legacy store, "not seen" (the in-process guard covers this process). */
  async function claim(id: string, owner: string): Promise<boolean> {
    if (!claimable) return !(await bounded(store.seen!(id), timeoutMs))
    const pending = Promise.resolve(store.claim!(id, claimSeconds, owner))
    try {
      return await bounded(pending, timeoutMs)
    } catch (error) {
      // Timed out: if the claim lands later, give it back, or this event would be locked out
      // until it lapses. (A reply lost for good is what the lease is for.)
      if (error instanceof StoreTimeout) void pending.then((won) => won && store.release?.(id, owner)).catch(() => {})
      throw error
    }
  }

  /**
   * Renews the lease every third of it until stopped (a failed renewal is retried at the next
   * tick). A lease lost while the handler runs is reported once: the store said it is not ours
   * any more (renewal stops), or no renewal got through for a whole lease since the last one did.
   */
  function hold(id: string, owner: string, claimedAt: number): () => void {
    if (!leased) return () => {}
    const leaseMs = leaseSeconds * 1000
    // The lease runs at least a lease from when the last confirmed call (claim or renewal) was sent.
    let confirmedAt = claimedAt
    let running = true
    let reported = false
    const lost = (reason: 'taken' | 'unrenewed', cause?: unknown) => {
      if (reported) return
      reported = true
      try {
        onLost(new WebhookClaimError(id, reason, leaseSeconds, cause))
      } catch {
        // A reporter that throws must not become an unhandled rejection.
      }
    }
    const renew = () => {
      const sentAt = performance.now()
      // Answers after `stop` are ignored: `complete` may already have replaced the claim.
      bounded((async () => store.renew!(id, leaseSeconds, owner))(), timeoutMs).then(
        (renewed) => {
          if (!running) return
          if (renewed) confirmedAt = Math.max(confirmedAt, sentAt)
          else {
            stop()
            lost('taken')
          }
        },
        (error: unknown) => {
          if (running && performance.now() - confirmedAt >= leaseMs) lost('unrenewed', error)
        },
      )
    }
    const timer = setInterval(renew, leaseMs / 3)
    const stop = () => {
      running = false
      clearInterval(timer)
    }
    return stop
  }

  return {
    async run(id, handler) {
      if (inFlight.has(id)) return 'in_flight'
      inFlight.add(id)
      try {
        const owner = globalThis.crypto.randomUUID()
        const claimedAt = performance.now()
        let won: boolean
        try {
          won = await claim(id, owner)
        } catch {
          return 'unavailable'
        }
        if (!won) {
          if (!claimable || !store.completed) return 'duplicate'
          try {
            return (await bounded(store.completed(id), timeoutMs)) ? 'duplicate' : 'in_flight'
          } catch {
            return 'unavailable'
          }
        }
        const stop = hold(id, owner, claimedAt)
        try {
          await handler()
        } catch {
          stop()
          // Given back, so the sender's retry is accepted.
          if (claimable) await bounded(store.release?.(id, owner), timeoutMs).catch(() => {})
          return 'failed'
        }
        stop()
        try {
          await bounded(
            claimable ? store.complete?.(id, ttlSeconds, owner) : store.remember!(id, ttlSeconds),
            timeoutMs,
          )
        } catch {
          // Handled: answering an error now would have it delivered again. The claim itself
          // still guards the event (it reads as in flight) until it lapses.
        }
        return 'handled'
      } finally {
        inFlight.delete(id)
      }
    },
  }
}
