import { MAX_QUERY, parseAutocompleteInput } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import { fail, keyOf, remember, type Memory } from '../../services/maps/autocomplete/autocomplete-memory.js'
import {
  TABLE,
  initialAutocompleteState,
  phaseOf,
  transition,
  type AutocompleteEvent,
  type AutocompletePhase,
  type AutocompleteState,
} from '../../services/maps/autocomplete/autocomplete-machine.js'
import { AUTOCOMPLETE_DEFAULTS } from '../../services/maps/autocomplete/defaults.js'
import { itWalksTheTable } from '../../../../../test/utils/machine-table.js'

// Every edge of the autocomplete machine, walked: (phase, event) → (next phase, effects, in
// order). The rows must name exactly the machine's edges, so adding, removing or changing one
// fails here until this table says the same.

const config = {
  minChars: 3,
  debounceMs: 200,
  cacheSize: 50,
  failureBackoff: { baseMs: 1_000, maxMs: 30_000 },
  quota: AUTOCOMPLETE_DEFAULTS.quota,
}
const down = new ApiError('maps down', { code: 'unavailable', status: 503 })
const incomplete = { suggestions: [], complete: false }
const key = (input: string) => keyOf(parseAutocompleteInput(input))

/** Learned before: an answer for "Palo Alto", a failure for "Springfield" held back until 10 s. */
const learned: Memory = fail(
  remember({ answers: new Map(), failures: new Map() }, key('Palo Alto'), { input: 'Palo Alto', ...incomplete }, 50),
  'Springfield',
  down,
  9_000,
  50,
  config.failureBackoff,
)

/** One event of each type (and the variants the handlers tell apart), at `now` 0. */
const E = {
  tooLong: { type: 'typed', text: 'a'.repeat(MAX_QUERY + 1), now: 0 },
  short: { type: 'typed', text: 'ab', now: 0 },
  fresh: { type: 'typed', text: 'Mountain View', now: 0 },
  known: { type: 'typed', text: 'Palo Alto', now: 0 },
  held: { type: 'typed', text: 'Springfield', now: 0 },
  due: { type: 'due', now: 0 },
  answered: { type: 'answered', input: 'Mount', answer: incomplete, now: 0 },
  answeredStale: { type: 'answered', input: 'Other', answer: incomplete, now: 0 },
  failed: { type: 'failed', input: 'Mount', error: down, now: 0 },
  failedStale: { type: 'failed', input: 'Other', error: down, now: 0 },
  rate: { type: 'rate', state: { service: 'maps', queued: 1, waitMs: 100, remaining: 50, limit: 100, bucket: 'app' } },
  selected: { type: 'selected', text: 'Mountain View, CA, USA' },
  clear: { type: 'clear' },
  destroy: { type: 'destroy' },
} satisfies Record<string, AutocompleteEvent>

/** What the guards read: the query, what is in flight, whether the debounce passed, what was learned. */
const C = {
  none: { query: 'Mountain' },
  learned: { query: 'Mountain', memory: learned },
  /** "Mount" in flight, the query is "Mount" or extends it ("Mountain"), the debounce passed or not. */
  asking: { query: 'Mount', asking: 'Mount', due: true },
  askingPrefix: { query: 'Mountain', asking: 'Mount', due: false },
  askingPrefixDue: { query: 'Mountain', asking: 'Mount', due: true },
  knownQuery: { query: 'Palo Alto', memory: learned },
  heldQuery: { query: 'Springfield', memory: learned },
} satisfies Record<string, Partial<AutocompleteState> & { query: string }>

type Row = [
  from: AutocompletePhase,
  event: keyof typeof E,
  context: keyof typeof C,
  to: AutocompletePhase,
  effects: string[],
]

const STOP = ['cancel', 'abort']

/** In every phase but destroyed. */
const alive = (from: AutocompletePhase): Row[] => [
  [from, 'tooLong', 'none', 'error', STOP],
  [from, 'short', 'none', 'idle', STOP],
  [from, 'known', 'learned', 'success', STOP],
  [from, 'held', 'learned', 'error', STOP], // failed lately: the error again, nothing asked
  [from, 'fresh', 'learned', 'debouncing', ['cancel', 'abort', 'wait']],
  [from, 'rate', 'none', from, []],
  [from, 'selected', 'none', 'idle', STOP],
  [from, 'clear', 'none', 'idle', STOP],
  [from, 'destroy', 'none', 'destroyed', [...STOP, 'unwatch']],
]

/** Debouncing and loading: a request may be in flight. */
const pending = (from: 'debouncing' | 'loading'): Row[] => [
  ...alive(from),
  [from, 'fresh', 'asking', 'debouncing', ['cancel', 'wait']], // it extends the one in flight: that goes on
  [from, 'answered', 'asking', 'success', STOP],
  [from, 'answeredStale', 'asking', from, []],
  [from, 'failed', 'asking', 'error', []],
  [from, 'failedStale', 'asking', from, []],
]

const ROWS: Row[] = [
  ...alive('idle'),
  ...pending('debouncing'),
  ['debouncing', 'due', 'none', 'loading', ['ask']],
  ['debouncing', 'due', 'askingPrefix', 'loading', []], // its answer comes first, then this input is served or asked
  ['debouncing', 'due', 'knownQuery', 'success', STOP],
  ['debouncing', 'answered', 'askingPrefix', 'debouncing', []], // an answer that cannot tell: the debounce goes on
  ...pending('loading'),
  ['loading', 'answered', 'askingPrefixDue', 'loading', ['ask']], // then the current input is asked
  ...alive('success'),
  ...alive('error'),
  // A request failed during the debounce of an input extending it: the debounce still ends, held back.
  ['error', 'due', 'heldQuery', 'error', STOP],
  ['error', 'due', 'none', 'loading', ['ask']],
  ['destroyed', 'clear', 'none', 'destroyed', STOP],
]

function at(phase: AutocompletePhase, context: keyof typeof C): AutocompleteState {
  const { query, ...rest } = C[context]
  const s = initialAutocompleteState(config)
  const status = phase === 'destroyed' ? 'idle' : phase
  return { ...s, ...rest, destroyed: phase === 'destroyed', snapshot: { ...s.snapshot, status, query } }
}

/** "Mount" asked again (in flight, loading). */
const askingMount = (s: AutocompleteState): AutocompleteState => ({
  ...s,
  asking: 'Mount',
  snapshot: { ...s.snapshot, status: 'loading' },
})

describe('the autocomplete machine', () => {
  itWalksTheTable({
    TABLE,
    transition,
    events: E,
    at: (phase, context) => at(phase, context),
    phaseOf: phaseOf,
    rows: ROWS,
    anyContext: 'asking',
  })

  it('keeps failures per input with the one backoff: doubling from baseMs, an answer starts it again', () => {
    let s = at('loading', 'asking')
    s = transition(s, { ...E.failed, now: 0 }).state
    expect(s.memory.failures.get(key('Mount'))).toMatchObject({ attempt: 0, until: 1_000, error: down })
    // Held back, with every input that extends it, until it lapses.
    expect(phaseOf(transition(s, { type: 'typed', text: 'Mountain', now: 999 }).state)).toBe('error')
    const lapsed = transition(s, { type: 'typed', text: 'Mountain', now: 1_000 })
    expect(lapsed.effects).toContainEqual({ type: 'wait', ms: 200 })
    s = transition(transition(lapsed.state, { type: 'due', now: 1_200 }).state, { ...E.failed, now: 1_300 }).state
    expect(s.asking).toBe('Mountain') // "Mountain" was asked, not "Mount": a failure of another input is not its
    const again = transition(at('loading', 'asking'), E.failed).state
    const twice = transition(askingMount(again), { ...E.failed, now: 5_000 }).state
    expect(twice.memory.failures.get(key('Mount'))).toMatchObject({ attempt: 1, until: 7_000 })
    const answered = transition(askingMount(twice), { ...E.answered, now: 8_000 }).state
    expect(answered.memory.failures.size).toBe(0)
  })

  it('waits longer when the quota says so, and keeps the snapshot object when nothing changes', () => {
    const paused = {
      type: 'rate',
      state: { service: 'maps', queued: 0, waitMs: 0, remaining: 1, limit: 100, bucket: 'app' },
    } satisfies AutocompleteEvent
    const s = transition(at('idle', 'none'), paused).state
    expect(s.snapshot.degraded).toEqual({ reason: 'budget', mode: 'paused' })
    expect(transition(s, paused).state).toBe(s)
    expect(transition(s, { type: 'rate', state: { ...paused.state, service: 'support' } }).state).toBe(s)
    expect(transition(s, E.fresh).effects).toContainEqual({ type: 'wait', ms: 1_000 })
    expect(transition(s, E.clear).state.snapshot).toEqual({
      ...initialAutocompleteState(config).snapshot,
      degraded: s.snapshot.degraded,
    })
    expect(transition(s, E.selected).state.snapshot).toMatchObject({ status: 'idle', query: 'Mountain View, CA, USA' })
  })
})
