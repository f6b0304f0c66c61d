import type { CustomerConversation } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { TandemError } from '../errors.js'
import {
  INITIAL_TABLE,
  TABLE,
  transition,
  type TableEffectType,
  type TableEvent,
  type TablePhase,
  type TableState,
} from '../messenger/conversation-table-machine.js'
import { itWalksTheTable } from '../../../../test/utils/machine-table.js'

// Every edge of the conversation table's machine (the list and the unread counts), walked:
// (phase, event) → (next phase, effect types, in order). The rows must name exactly the machine's
// edges, so adding, removing or changing one fails here until this table says the same.

const failure = new TandemError('Service unavailable', { code: 'unavailable' })
const shutDown = new TandemError('messenger: shut_down', { code: 'shut_down' })

const row = (id: string, modifiedAt: string, unreadCount = 0): CustomerConversation => ({
  id,
  subject: 'Help',
  status: 'active',
  preview: '',
  messageCount: 0,
  unreadCount,
  createdAt: '2026-01-01T00:00:00Z',
  modifiedAt,
  closedAt: null,
})

const a = row('cnv_a', '2026-01-01T00:00:01Z')
const b = row('cnv_b', '2026-01-01T00:00:02Z')

/** One event of each kind, as the runner sends them. */
const E = {
  start: { type: 'start' },
  stop: { type: 'stop' },
  refresh: { type: 'refresh' },
  resync: { type: 'resync' },
  loaded: { type: 'loaded', since: 0, conversations: [a, b], error: null },
  /** One page came, the next failed. */
  loadFailed: { type: 'loaded', since: 0, conversations: [a], error: failure },
  push: { type: 'conversation', conversation: row('cnv_a', '2026-01-01T00:00:05Z', 1), pushed: true },
  own: { type: 'conversation', conversation: row('cnv_a', '2026-01-01T00:00:05Z'), pushed: false },
  close: { type: 'close', error: shutDown },
} satisfies Record<string, TableEvent>

const C = {
  none: {},
  running: { running: true },
} satisfies Record<string, Partial<TableState>>

type Row = [
  from: TablePhase,
  event: keyof typeof E,
  context: keyof typeof C,
  to: TablePhase,
  effects: TableEffectType[],
]

/** loading, ready and error show what they have: the same edges, ready stays ready while it fetches. */
const shown = (from: 'loading' | 'ready' | 'error'): Row[] => {
  const fetching = from === 'ready' ? 'ready' : 'loading'
  return [
    [from, 'start', 'none', fetching, ['hold', 'fetch']],
    [from, 'stop', 'running', from, ['release']],
    [from, 'refresh', 'none', fetching, ['fetch']],
    [from, 'resync', 'running', fetching, ['fetch']],
    [from, 'resync', 'none', from, []], // not watched: the next subscriber fetches
    [from, 'loaded', 'running', 'ready', []],
    [from, 'loadFailed', 'running', 'error', ['report']],
    [from, 'push', 'running', from, []],
    [from, 'own', 'running', from, []],
    [from, 'close', 'running', 'closed', []],
  ]
}

const ROWS: Row[] = [
  ['idle', 'start', 'none', 'loading', ['hold', 'fetch']],
  ['idle', 'refresh', 'none', 'loading', ['fetch']],
  ['idle', 'close', 'none', 'closed', []],
  ...shown('loading'),
  ...shown('ready'),
  ...shown('error'),
  // Shut down while watched: the last subscriber still lets the channel go.
  ['closed', 'stop', 'running', 'closed', ['release']],
  ['closed', 'stop', 'none', 'closed', []],
]

const at = (phase: TablePhase, context: keyof typeof C, rest: Partial<TableState> = {}): TableState => ({
  ...INITIAL_TABLE,
  phase,
  ...C[context],
  ...rest,
})

const ids = (s: TableState) => s.conversations.map((c) => c.id)

describe('the conversation table machine', () => {
  itWalksTheTable({
    TABLE,
    transition,
    events: E,
    at: (phase, context) => at(phase, context),
    phaseOf: (s) => s.phase,
    rows: ROWS,
    anyContext: 'running',
  })

  it('keeps the service’s order, most recently modified first, and a row object that did not change', () => {
    const loaded = transition(at('loading', 'running'), E.loaded).state
    expect(ids(loaded)).toEqual(['cnv_b', 'cnv_a'])
    // The same values again (a refetch): the same array, so the list snapshot stays the same object.
    expect(transition(loaded, { ...E.loaded, conversations: [{ ...a }, { ...b }] }).state.conversations).toBe(
      loaded.conversations,
    )
    const pushed = transition(loaded, E.push).state
    expect(ids(pushed)).toEqual(['cnv_a', 'cnv_b'])
    expect(pushed.conversations[0]?.unreadCount).toBe(1)
    // An older state of a row never replaces a newer one.
    expect(transition(pushed, { ...E.own, conversation: a }).state.conversations).toBe(pushed.conversations)
  })

  it('a load merges into what pushes brought meanwhile; a push since it started wins a tie', () => {
    // The load starts at push clock 0 (its fetch effect comes with the state's clock)...
    const loading = transition(at('idle', 'none'), E.start).state
    expect(loading.clock).toBe(0)
    // ...a push of cnv_a (read in another tab: unread 0) arrives before its answer...
    const read = row('cnv_a', '2026-01-01T00:00:05Z', 0)
    const pushed = transition(loading, { type: 'conversation', conversation: read, pushed: true }).state
    expect(pushed.clock).toBe(1)
    // ...and the answer, read before the push, says unread 1 at the same modifiedAt: the push stays.
    const stale = row('cnv_a', '2026-01-01T00:00:05Z', 1)
    const answered = transition(pushed, { type: 'loaded', since: 0, conversations: [stale, b], error: null }).state
    expect(answered.conversations.find((c) => c.id === 'cnv_a')).toBe(read)
    expect(ids(answered)).toEqual(['cnv_a', 'cnv_b'])
    // A load that started after the push reads the service's word for it.
    const later = transition(answered, { type: 'loaded', since: 1, conversations: [stale], error: null }).state
    expect(later.conversations.find((c) => c.id === 'cnv_a')).toBe(stale)
    // The customer's own write counts no push.
    expect(transition(answered, E.own).state.clock).toBe(1)
  })

  it('shows what did load beside a failure; close forgets everything and later answers change nothing', () => {
    const failed = transition(at('loading', 'running'), E.loadFailed)
    expect(failed.state).toMatchObject({ phase: 'error', error: failure })
    expect(ids(failed.state)).toEqual(['cnv_a'])
    expect(failed.effects).toEqual([{ type: 'report', error: failure }])
    const closed = transition(failed.state, E.close).state
    expect(closed).toMatchObject({ phase: 'closed', running: true, conversations: [], clock: 0, error: shutDown })
    expect(closed.pushedAt.size).toBe(0)
    for (const event of Object.values(E).filter((e) => e.type !== 'stop'))
      expect(transition(closed, event).state).toBe(closed)
  })
})
