import { asTandemError } from '../as-tandem-error.js'
import { LEASE_RELEASE_MS } from '../defaults.js'
import type { TandemError } from '../errors.js'
import { createPool } from '../pool.js'
import type { Unsubscribe } from '../types.js'
import type { MessengerRest } from './rest.js'
import type { PhaseEffect, PhaseState, Step } from './store-phase.js'

// What runs a messenger store's machine (thread-machine.ts, conversation-table-machine.ts): the
// one writer (`dispatch`), and the shared effects carried out: the channel held while watched, a
// fetch whose end is fed back in as an event, a failure reported.

export interface StoreDeps {
  rest: MessengerRest
  /** Holds the customer channel while a store runs. */
  hold: () => Unsubscribe
  signal: AbortSignal
  report: (error: TandemError) => void
  /** Throws the shut-down error once the messenger is shut down. */
  alive: () => void
  /** The most pages a store reads of one list (`MessengerOptions.maxPages`). */
  maxPages: number
}

export const toTandemError = (e: unknown): TandemError => asTandemError(e, 'unknown')

export interface LiveRunner<E> {
  /** The one writer: the machine's next state, published, then its effects carried out. */
  dispatch: (event: E) => void
  /** A subscriber's hold: `start` on the first, `stop` a lease delay after the last (StrictMode-safe). */
  acquire: () => Unsubscribe
  /** `refresh`, and the fetch it started, ended. */
  refresh: () => Promise<void>
}

export interface LiveRunnerOptions<S, E, F> {
  /** Shows the state (each snapshot the same object when what it shows is). */
  publish: (state: S) => void
  /** Reads what `state` shows, and says so: the machine's `loaded` event (never a rejection). */
  load: (state: S) => Promise<E>
  /** Every effect, after the shared ones are carried out: the machine's own, news of a hold. */
  run?: (effect: F) => void
}

export function createLiveRunner<S extends PhaseState, E extends { type: string }, F extends { type: string }>(
  initial: S,
  transition: (s: S, e: E) => Step<S, F>,
  deps: StoreDeps,
  o: LiveRunnerOptions<S, E, F>,
): LiveRunner<E> {
  let state = initial
  let release: Unsubscribe | undefined
  /** The fetch the last `fetch` effect started: what `refresh()` waits for. */
  let loading: Promise<unknown> = Promise.resolve()
  const pool = createPool(LEASE_RELEASE_MS)

  function dispatch(event: E) {
    const { state: next, effects } = transition(state, event)
    if (next !== state) o.publish((state = next))
    for (const effect of effects as readonly (F | PhaseEffect)[]) {
      if (effect.type === 'hold') release = deps.hold()
      if (effect.type === 'release') release = void release?.()
      if (effect.type === 'fetch') loading = o.load(next).then(dispatch)
      if (effect.type === 'report') deps.report((effect as Extract<PhaseEffect, { type: 'report' }>).error)
      o.run?.(effect as F)
    }
  }

  return {
    dispatch,
    acquire: () =>
      pool.acquire('store', () => {
        dispatch({ type: 'start' } as E)
        return () => dispatch({ type: 'stop' } as E)
      }),
    async refresh() {
      deps.alive()
      dispatch({ type: 'refresh' } as E)
      await loading
    },
  }
}
