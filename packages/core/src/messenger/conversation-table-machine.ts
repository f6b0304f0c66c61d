import type { CustomerConversation } from '@tandem/contract'
import type { TandemError } from '../errors.js'
import { notOlder, sameFields } from './record-compare.js'
import {
  fetch,
  resync,
  same,
  settle,
  start,
  step,
  stop,
  type PhaseEffect,
  type PhaseState,
  type StorePhase,
  type Step,
  storeTable,
} from './store-phase.js'

// The customer's conversations as a pure machine: each (phase, event) pair it answers is an edge
// of TABLE, which returns the next state and the effects to carry out, as data. Each push replaces
// its row (a read in one tab reaches every tab); a load merges into what pushes brought meanwhile
// instead of erasing it. conversation-table.ts fetches, holds the channel and feeds events in.

export type TablePhase = StorePhase

/** `running`: a subscriber holds the list or the unread counts. */
export interface TableState extends PhaseState {
  readonly phase: TablePhase
  /** Most recently modified first. */
  readonly conversations: readonly CustomerConversation[]
  /** Per id, the push clock when a push last set it: a load that started before it loses a tie to it. */
  readonly pushedAt: ReadonlyMap<string, number>
  /** Counts pushes: a `fetch` effect's load started at the clock of the state it came with. */
  readonly clock: number
}

export type TableEvent =
  /** The first subscriber (the pool's hold). */
  | { type: 'start' }
  /** The last subscriber let go, a lease delay ago. */
  | { type: 'stop' }
  /** `refresh()`: fetch again. */
  | { type: 'refresh' }
  /** The channel may have missed pushes: fetch again if running. */
  | { type: 'resync' }
  /** A fetch that started at push clock `since` ended: the pages read, and its failure. */
  | { type: 'loaded'; since: number; conversations: readonly CustomerConversation[]; error: TandemError | null }
  /** A conversation's new state: a push (`pushed`), or the answer of the customer's own write. */
  | { type: 'conversation'; conversation: CustomerConversation; pushed: boolean }
  /** The messenger was shut down: forget everything, say `error` from now on. */
  | { type: 'close'; error: TandemError }
export type TableEventType = TableEvent['type']

export type TableEffect = PhaseEffect
export type TableEffectType = TableEffect['type']

export type TableResult = Step<TableState, TableEffect>

type Handler<E extends TableEventType> = (s: TableState, e: Extract<TableEvent, { type: E }>) => TableResult
type Edges = { readonly [E in TableEventType]?: Handler<E> }

export const INITIAL_TABLE: TableState = {
  phase: 'idle',
  running: false,
  conversations: [],
  pushedAt: new Map(),
  clock: 0,
  error: null,
}

/** Most recently modified first, ties by id in the same direction (the service's order). */
const byModified = (a: CustomerConversation, b: CustomerConversation) =>
  Date.parse(b.modifiedAt) - Date.parse(a.modifiedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

const rowsOf = (list: readonly CustomerConversation[]) => new Map(list.map((c) => [c.id, c]))

/** `list` with `items` in their rows (a row that holds the same values is kept); the same array when none changed. */
function put(list: readonly CustomerConversation[], items: readonly CustomerConversation[]) {
  const rows = rowsOf(list)
  let changed = false
  for (const c of items) {
    const current = rows.get(c.id)
    if (current && sameFields(current, c)) continue
    rows.set(c.id, c)
    changed = true
  }
  return changed ? [...rows.values()].sort(byModified) : list
}

const close: Handler<'close'> = (s, e) =>
  same({ ...INITIAL_TABLE, running: s.running, phase: 'closed', error: e.error })

/** The edges of every phase that shows something (or is on its way to). */
const SHOWN: Edges = {
  start,
  stop,
  refresh: fetch,
  resync,
  loaded(s, e) {
    // A row a push set since this load started keeps its place against an answer of the same
    // `modifiedAt` (the push may be the newer).
    const rows = rowsOf(s.conversations)
    const fresh = e.conversations.filter((c) => {
      const current = rows.get(c.id)
      const pushedSince = (s.pushedAt.get(c.id) ?? -1) > e.since
      return !current || (notOlder(c, current) && !(pushedSince && c.modifiedAt === current.modifiedAt))
    })
    return settle({ ...s, conversations: put(s.conversations, fresh) }, e.error)
  },
  conversation(s, { conversation: c, pushed }) {
    const current = s.conversations.find((x) => x.id === c.id)
    const conversations = current && !notOlder(c, current) ? s.conversations : put(s.conversations, [c])
    if (!pushed) return same(conversations === s.conversations ? s : { ...s, conversations })
    const clock = s.clock + 1
    return same({ ...s, conversations, clock, pushedAt: new Map(s.pushedAt).set(c.id, clock) })
  },
  close,
}

export const TABLE = storeTable<Edges>({ start, refresh: fetch, close }, SHOWN, { stop })

/** The state after `e`, and what to do; `s` itself and no effect for a pair TABLE has no edge for. */
export const transition = (s: TableState, e: TableEvent): TableResult => step(TABLE, s, e)
