import type { TandemError } from '../errors.js'
import type { MessengerStatus } from './types.js'

// What the messenger's two live stores (thread-machine.ts, conversation-table-machine.ts) share:
// their phases (the status a snapshot says, and `closed` once the messenger is shut down, said as
// `error`), and the edges of their life: started by the first subscriber, stopped after the last,
// fetched again on `refresh()` or a resync, settled by a fetch's end.

export type StorePhase = MessengerStatus | 'closed'

export interface PhaseState {
  readonly phase: StorePhase
  /** Watched (a subscriber holds it): the runner holds the customer channel. */
  readonly running: boolean
  readonly error: TandemError | null
}

/** The effects of the shared edges; each machine adds its own. */
export type PhaseEffect =
  /** Hold the customer channel. */
  | { type: 'hold' }
  | { type: 'release' }
  /** Read again what the store shows, then send `loaded`. */
  | { type: 'fetch' }
  | { type: 'report'; error: TandemError }

export interface Step<S, F> {
  state: S
  effects: readonly F[]
}

const NONE: readonly never[] = []
const FETCH = { type: 'fetch' } as const

/** What a snapshot says of a phase. */
export const statusOf = (phase: StorePhase): MessengerStatus => (phase === 'closed' ? 'error' : phase)

/** Nothing changes, nothing to do. */
export const same = <S>(state: S): Step<S, never> => ({ state, effects: NONE })

/** Fetch again: what is ready stays shown as ready; anything else is loading. */
export const fetch = <S extends PhaseState>(s: S): Step<S, PhaseEffect> => ({
  state: { ...s, phase: s.phase === 'ready' ? 'ready' : 'loading' },
  effects: [FETCH],
})

/** The first subscriber: hold the channel, fetch. */
export const start = <S extends PhaseState>(s: S): Step<S, PhaseEffect> => ({
  state: { ...fetch(s).state, running: true },
  effects: [{ type: 'hold' }, FETCH],
})

/** The channel may have missed pushes: a running store fetches again. */
export const resync = <S extends PhaseState>(s: S): Step<S, PhaseEffect> => (s.running ? fetch(s) : same(s))

/** The last subscriber let go (after the shutdown too: the channel is let go all the same). */
export const stop = <S extends PhaseState>(s: S): Step<S, PhaseEffect> =>
  s.running ? { state: { ...s, running: false }, effects: [{ type: 'release' }] } : same(s)

/** A fetch ended: `ready`, or `error` and said (what did load is shown beside it). */
export const settle = <S extends PhaseState>(s: S, error: TandemError | null): Step<S, PhaseEffect> => ({
  state: { ...s, phase: error ? 'error' : 'ready', error },
  effects: error ? [{ type: 'report', error }] : NONE,
})

/** The pair's edge in `table` carried out; `s` itself and no effect for a pair it has no edge for. */
export function step<S extends PhaseState, E extends { type: string }, F>(
  table: { readonly [P in StorePhase]: { readonly [T in E['type']]?: (s: S, e: never) => Step<S, F> } },
  s: S,
  e: E,
): Step<S, F> {
  const handler = table[s.phase][e.type as E['type']] as ((s: S, e: E) => Step<S, F>) | undefined
  return handler ? handler(s, e) : same(s)
}

/**
 * The phases' edges, the same for every messenger store: nothing shown yet (`idle`), pushes wait for
 * the first load, which brings them; shown (`loading`, `ready`, `error`), they take `shown`; shut
 * down (`closed`), a subscriber that lets go still lets the channel go.
 */
export const storeTable = <Edges>(idle: Edges, shown: Edges, closed: Edges): { readonly [P in StorePhase]: Edges } => ({
  idle,
  loading: shown,
  ready: shown,
  error: shown,
  closed,
})
