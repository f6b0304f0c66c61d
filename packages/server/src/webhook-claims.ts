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

export function createClaims(store: WebhookReplayStore, ttlSeconds: number, timeoutMs: number): Claims {
  const claimable = typeof store.claim === 'function'
  // Copies racing within this process: known before anything is awaited, so none slips between
  // a check and a claim.
  const inFlight = new Set<string>()

  /** The claim: atomic with `claim`; with a legacy store, "not seen" (the in-process guard covers this process). */
  async function claim(id: string): Promise<boolean> {
    if (!claimable) return !(await bounded(store.seen!(id), timeoutMs))
    const pending = Promise.resolve(store.claim!(id, ttlSeconds))
    try {
      return await bounded(pending, timeoutMs)
    } catch (error) {
      // Timed out: if the claim lands later, give it back, or this event would be locked out for the ttl.
      if (error instanceof StoreTimeout) void pending.then((won) => won && store.release?.(id)).catch(() => {})
      throw error
    }
  }

  return {
    async run(id, handler) {
      if (inFlight.has(id)) return 'in_flight'
      inFlight.add(id)
      try {
        let won: boolean
        try {
          won = await claim(id)
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
        try {
          await handler()
        } catch {
          // Given back, so the sender's retry is accepted.
          if (claimable) await bounded(store.release?.(id), timeoutMs).catch(() => {})
          return 'failed'
        }
        try {
          await bounded(claimable ? store.complete?.(id, ttlSeconds) : store.remember!(id, ttlSeconds), timeoutMs)
        } catch {
          // Handled: answering an error now would have it delivered again. With `claim`, the claim
          // itself still guards the event (it reads as in flight until its ttl).
        }
        return 'handled'
      } finally {
        inFlight.delete(id)
      }
    },
  }
}
