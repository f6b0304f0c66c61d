import { createNanoEvents, type EventsMap } from 'nanoevents'
import type { Unsubscribe } from './types.js'

/** Its functions are closures (no `this`): pass `emitter.on` around as it is. */
export interface SafeEmitter<Events extends EventsMap> {
  on: <E extends keyof Events>(event: E, callback: Events[E]) => Unsubscribe
  emit: <E extends keyof Events>(event: E, ...args: Parameters<Events[E]>) => void
  /** Someone listens to `event`: build its payload only then (hot paths). */
  has: <E extends keyof Events>(event: E) => boolean
}

/**
 * nanoevents, but a listener that throws cannot break the SDK (a token refresh, a request
 * that the service already applied): its error goes to the platform's `reportError` (the
 * page's `onerror`), or is re-thrown on a microtask where there is none, and the other
 * listeners still run.
 */
export function createEmitter<Events extends EventsMap>(): SafeEmitter<Events> {
  const emitter = createNanoEvents<Events>()
  return {
    on: (event, callback) => emitter.on(event, callback),
    has: (event) => !!emitter.events[event]?.length,
    emit(event, ...args) {
      // No copy per emit (the receive path emits per message): nanoevents' unsubscribe replaces the list
      // rather than changing it, so a listener that unsubscribes (itself or another) leaves this walk
      // alone, and one subscribed meanwhile lands past `length`: it waits for the next emit.
      const callbacks = (emitter.events[event] ?? []) as ((...a: typeof args) => void)[]
      for (let i = 0, length = callbacks.length; i < length; i++)
        try {
          callbacks[i]!(...args)
        } catch (error) {
          reportError(error)
        }
    },
  }
}

function reportError(error: unknown): void {
  const report = (globalThis as { reportError?: (e: unknown) => void }).reportError
  if (typeof report === 'function') report(error)
  else
    queueMicrotask(() => {
      throw error
    })
}
