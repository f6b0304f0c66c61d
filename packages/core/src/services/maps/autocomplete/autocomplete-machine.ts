import { extendsInput, MAX_QUERY, parseAutocompleteInput, refineSuggestions } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError, type TandemError } from '../../../errors.js'
import type { RateLimitState } from '../../../types.js'
import type { PlaceAutocomplete } from '../types.js'
import { fail, heldBack, keyOf, known, nameLength, remember, type Answer, type Memory } from './autocomplete-memory.js'
import { degradation } from './degradation.js'
import type { AutocompleteQuota, AutocompleteSnapshot, AutocompleteStatus } from './types.js'

// Autocomplete as a pure machine: `transition(state, event)` looks the pair up in TABLE and returns
// the next state (its public snapshot in it) and the effects to carry out, as data. No clock, no
// timers, no requests: create-autocomplete.ts waits, asks the service, and feeds the outcomes in.

/** The snapshot's status, or `destroyed` (`destroy()`: the snapshot stays as it was). */
export type AutocompletePhase = AutocompleteStatus | 'destroyed'

export interface AutocompleteConfig {
  readonly minChars: number
  readonly debounceMs: number
  readonly cacheSize: number
  readonly failureBackoff: { readonly baseMs: number; readonly maxMs: number }
  readonly quota: AutocompleteQuota
}

export interface AutocompleteState {
  /** What the store shows: the same object until something in it changes. */
  readonly snapshot: AutocompleteSnapshot
  readonly destroyed: boolean
  readonly memory: Memory
  /** The input asked of the service, while its answer is awaited. */
  readonly asking: string | undefined
  /** The debounce for the current input has passed: it waits for the service. */
  readonly due: boolean
  readonly config: AutocompleteConfig
}

export type AutocompleteEvent =
  /** `setQuery(text)` at `now`. */
  | { type: 'typed'; text: string; now: number }
  /** The debounce ran out. */
  | { type: 'due'; now: number }
  /** The service answered `input` (an answer that fits the contract). */
  | { type: 'answered'; input: string; answer: PlaceAutocomplete; now: number }
  /** Asking `input` failed (not aborted). */
  | { type: 'failed'; input: string; error: TandemError; now: number }
  /** The client's rate limit changed (any service's). */
  | { type: 'rate'; state: RateLimitState }
  /** `select(suggestion)`: the list closes, the input shows its text. */
  | { type: 'selected'; text: string }
  | { type: 'clear' }
  | { type: 'destroy' }

export type AutocompleteEventType = AutocompleteEvent['type']

export type AutocompleteEffect =
  /** (Re)start the debounce: `due` after `ms`. */
  | { type: 'wait'; ms: number }
  /** Clear the debounce. */
  | { type: 'cancel' }
  /** Abort the request in flight, if any. */
  | { type: 'abort' }
  /** Ask the service for `input`; then `answered` or `failed`. */
  | { type: 'ask'; input: string }
  /** Stop following the client's rate limit. */
  | { type: 'unwatch' }

export type AutocompleteEffectType = AutocompleteEffect['type']

export interface AutocompleteResult {
  state: AutocompleteState
  effects: AutocompleteEffect[]
}

type Handler<E extends AutocompleteEventType> = (
  s: AutocompleteState,
  e: Extract<AutocompleteEvent, { type: E }>,
) => AutocompleteResult
type Edges = { readonly [E in AutocompleteEventType]?: Handler<E> }

export const IDLE: AutocompleteSnapshot = { status: 'idle', query: '', suggestions: [], error: null, degraded: null }

export const initialAutocompleteState = (config: AutocompleteConfig): AutocompleteState => ({
  snapshot: IDLE,
  destroyed: false,
  memory: { answers: new Map(), failures: new Map() },
  asking: undefined,
  due: false,
  config,
})

export const phaseOf = (s: AutocompleteState): AutocompletePhase => (s.destroyed ? 'destroyed' : s.snapshot.status)

/** The snapshot with `patch`: the same object when it changes nothing. */
const show = (s: AutocompleteSnapshot, patch: Partial<AutocompleteSnapshot>): AutocompleteSnapshot =>
  (Object.keys(patch) as (keyof AutocompleteSnapshot)[]).every((k) => s[k] === patch[k]) ? s : { ...s, ...patch }

const STOP: AutocompleteEffect[] = [{ type: 'cancel' }, { type: 'abort' }]
/** `s` with `change`, its snapshot showing `patch`, and `effects`: the one builder of every edge's result. */
const to = (
  s: AutocompleteState,
  change: Partial<AutocompleteState>,
  patch: Partial<AutocompleteSnapshot>,
  effects: AutocompleteEffect[] = [],
): AutocompleteResult => ({ state: { ...s, ...change, snapshot: show(s.snapshot, patch) }, effects })
/** Nothing pending any more (the debounce, the request), and the snapshot shows `patch`. */
const settle = (s: AutocompleteState, patch: Partial<AutocompleteSnapshot>, memory = s.memory): AutocompleteResult =>
  to(s, { memory, asking: undefined, due: false }, patch, STOP)

const same = (s: AutocompleteState): AutocompleteResult => ({ state: s, effects: [] })

/** `query` served from what is known (an answer, or a failure that holds it back), else undefined. */
function serve(s: AutocompleteState, query: string, now: number, extra?: Answer): AutocompleteResult | undefined {
  const parsed = parseAutocompleteInput(query)
  const found = known(s.memory, query, parsed, s.config.cacheSize, extra)
  if (found) return settle(s, { status: 'success', query, suggestions: found.suggestions, error: null }, found.memory)
  const failure = heldBack(s.memory, query, keyOf(parsed), now)
  if (failure) return settle(s, { status: 'error', query, suggestions: [], error: failure.error })
}

/** Serves the current input from what is known; else asks, once its debounce has passed and nothing else is in flight. */
function advance(s: AutocompleteState, now: number, extra?: Answer): AutocompleteResult {
  const { query } = s.snapshot
  return (
    serve(s, query, now, extra) ??
    (!s.due || s.asking !== undefined
      ? same(s)
      : to(s, { asking: query }, { status: 'loading' }, [{ type: 'ask', input: query }]))
  )
}

const typed: Handler<'typed'> = (s, { text: query, now }) => {
  if (query.length > MAX_QUERY) {
    const why = DEV && process.env.NODE_ENV !== 'production' && `must be at most ${MAX_QUERY} characters`
    return settle(s, { status: 'error', query, suggestions: [], error: new ValidationError('query', why) })
  }
  if (nameLength(parseAutocompleteInput(query)) < s.config.minChars)
    return settle(s, { status: 'idle', query, suggestions: [], error: null })
  // Known, or it failed lately (or an input it extends did): the error again, nothing asked until it lapses.
  const served = serve(s, query, now)
  if (served) return served
  // In flight for an input this one extends: its answer may still serve, so it goes on.
  const keep = s.asking !== undefined && extendsInput(s.asking, query)
  // Meanwhile, the earlier suggestions that still match (none when the input changed otherwise,
  // or when the rule cannot tell: those may be an unfinished answer's, and a number was typed).
  const { query: before, suggestions, degraded } = s.snapshot
  const narrowed = refineSuggestions(before, query, { suggestions, complete: false }) ?? []
  const { debounceMs, quota } = s.config
  const mode = degraded?.mode
  const ms =
    mode === 'paused'
      ? Math.max(debounceMs, quota.pauseMs)
      : mode === 'slower'
        ? debounceMs * quota.slowerFactor
        : debounceMs
  return to(
    s,
    { asking: keep ? s.asking : undefined, due: false },
    { status: 'debouncing', query, suggestions: narrowed, error: null },
    // cancel, then abort unless kept, then wait
    [...STOP.slice(0, keep ? 1 : 2), { type: 'wait', ms }],
  )
}

/** The debounce passed: with a request in flight its answer comes first, then this input is served or asked. */
const due: Handler<'due'> = (s, e) =>
  advance(to(s, { due: true }, s.asking !== undefined ? { status: 'loading' } : {}).state, e.now)

const answered: Handler<'answered'> = (s, e) => {
  if (e.input !== s.asking) return same(s)
  const answer = { ...e.answer, input: e.input }
  const memory = remember(s.memory, keyOf(parseAutocompleteInput(e.input)), answer, s.config.cacheSize)
  return advance({ ...s, memory, asking: undefined }, e.now, answer)
}

/** The current input is the failed one or extends it (else it was aborted): held back too. */
const failed: Handler<'failed'> = (s, e) => {
  if (e.input !== s.asking) return same(s)
  const { cacheSize, failureBackoff } = s.config
  const memory = fail(s.memory, e.input, e.error, e.now, cacheSize, failureBackoff)
  return to(s, { memory, asking: undefined, due: false }, { status: 'error', error: e.error })
}

const rate: Handler<'rate'> = (s, e) => {
  if (e.state.service !== 'maps') return same(s)
  const d = degradation(e.state, s.config.quota)
  const was = s.snapshot.degraded
  return d?.reason === was?.reason && d?.mode === was?.mode ? same(s) : to(s, {}, { degraded: d })
}

const selected: Handler<'selected'> = (s, e) =>
  settle(s, { status: 'idle', query: e.text, suggestions: [], error: null })
/** Back to idle; what was learned stays. */
const clear: Handler<'clear'> = (s) => settle(s, { ...IDLE, degraded: s.snapshot.degraded })
const destroy: Handler<'destroy'> = (s) =>
  to(s, { destroyed: true, asking: undefined, due: false }, {}, [...STOP, { type: 'unwatch' }])

/** In every phase but `destroyed`. */
const ALIVE: Edges = { typed, rate, selected, clear, destroy }
/** While an input waits for its debounce or its answer: a request may be in flight. */
const PENDING: Edges = { ...ALIVE, answered, failed }

/** Every legal (phase, event) pair; a pair not here changes nothing. */
export const TABLE: { readonly [P in AutocompletePhase]: Edges } = {
  idle: ALIVE,
  debouncing: { ...PENDING, due },
  loading: PENDING,
  success: ALIVE,
  // An answer that failed during the debounce of an input extending it: the debounce still ends here.
  error: { ...ALIVE, due },
  // The snapshot stays as it was; `clear()` still empties it.
  destroyed: { clear },
}

export function transition(s: AutocompleteState, e: AutocompleteEvent): AutocompleteResult {
  const handler = TABLE[phaseOf(s)][e.type] as Handler<AutocompleteEventType> | undefined
  return handler ? handler(s, e) : same(s)
}
