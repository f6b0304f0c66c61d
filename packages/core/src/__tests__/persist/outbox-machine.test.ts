import { describe, expect, it } from 'vitest'
import { ApiError, NetworkError, TandemError, ValidationError } from '../../errors.js'
import {
  TABLE,
  initialState,
  snapshotOf,
  transition,
  type EffectType,
  type Held,
  type OutboxEvent,
  type OutboxPhase,
  type OutboxState,
} from '../../persist/outbox-machine.js'
import type { ReadOutbox } from '../../persist/outbox-entries.js'
import type { OutboxEntry } from '../../persist/types.js'
import { itWalksTheTable } from '../../../../../test/utils/machine-table.js'

// Every edge of the durable outbox's machine, walked: (phase, event, context) → (next phase,
// effect types, in order). The rows must name exactly the machine's edges, so adding, removing or
// changing one fails here until this table says the same.

const entry = (id: string, attempts = 0): OutboxEntry => ({
  id,
  lane: 'support /v1/conversations/c_1',
  idempotencyKey: `key-${id}`,
  createdAt: 200, // made after the outbox started (100): no replay
  attempts,
  bytes: 40,
  kind: 'rest',
  request: { service: 'support', method: 'POST', path: '/v1/conversations/c_1/reply', body: { text: id } },
})
const x = entry('x')
const y = entry('y')
const notAWrite = new ValidationError('request.path', 'not a write')
const read = (entries: OutboxEntry[], refused: OutboxEntry[] = [], unreadable: string[] = []): ReadOutbox => ({
  entries,
  refused: refused.map((e) => ({ entry: e, error: notAWrite })),
  unreadable,
})
const later = new NetworkError('fetch failed', { code: 'network_error' })
const refusal = new ApiError('Not found', { code: 'not_found', status: 404 })
const removed = new TandemError('removed', { code: 'outbox_removed' })

/** One event of each type (some twice), as the runner sends them. */
const E = {
  loaded: { type: 'loaded', read: read([]) },
  loadedHeld: { type: 'loaded', read: read([x]) },
  loadedBad: { type: 'loaded', read: read([], [y]) },
  reread: { type: 'read', read: read([x]) },
  rereadReplay: { type: 'read', read: read([entry('x', 2)]) },
  rereadBad: { type: 'read', read: read([], [y]) },
  rereadBadAgain: { type: 'read', read: read([], [x]) },
  rereadJunk: { type: 'read', read: read([], [], ['z']) },
  storedAdd: { type: 'stored', op: { type: 'put', entry: x, add: true }, found: false },
  storedFailed: { type: 'stored', op: { type: 'put', entry: entry('x', 1) }, found: true },
  storedFailedGone: { type: 'stored', op: { type: 'put', entry: entry('x', 1) }, found: false },
  storedDrop: { type: 'stored', op: { type: 'remove', id: 'x' }, found: true },
  storedDropGone: { type: 'stored', op: { type: 'remove', id: 'x' }, found: false },
  changed: { type: 'changed' },
  sender: { type: 'sender', kind: 'rest' },
  senderPublish: { type: 'sender', kind: 'publish' },
  elected: { type: 'elected', kind: 'rest' },
  electedPublish: { type: 'elected', kind: 'publish' },
  submit: { type: 'submit', entry: x },
  announced: { type: 'announced', entry: x },
  sent: { type: 'sent', id: 'x', result: { id: 'thr_1' } },
  failedForNow: { type: 'failed', id: 'x', error: later, now: 1_000, random: 0.5 },
  refusedByService: { type: 'failed', id: 'x', error: refusal, now: 1_000, random: 0.5 },
  tick: { type: 'tick', now: 5_000 },
  tickEarly: { type: 'tick', now: 50 },
  online: { type: 'online' },
  offline: { type: 'offline' },
  outcome: { type: 'outcome', id: 'x', outcome: { result: 1 } },
  remove: { type: 'remove', id: 'x', error: removed },
  abort: { type: 'remove', id: 'x', error: removed, aborted: true },
  logout: { type: 'logout', by: 'another-tab' },
  stop: { type: 'stop' },
} satisfies Record<string, OutboxEvent>

const held = (phase: Held['phase'], extra: Partial<Held> = {}): Partial<OutboxState> => ({
  held: [{ entry: x, phase, ...extra }],
})
/** Contexts the guards read. */
const C = {
  none: {},
  senders: { senders: ['rest'] },
  elected: { senders: ['rest'], drains: ['rest'] },
  again: { reading: 'again' },
  reading: { reading: 'yes' },
  stored: held('stored'),
  own: held('announced', { own: true }),
  theirs: held('announced'),
  sending: held('sending', { own: true }),
  blocked: held('blocked', { until: 100 }),
  settled: held('settled', { outcome: { result: 1 } }),
  /** Refused as a read found it, its drop on its way. */
  purging: held('refused', { outcome: { error: notAWrite }, found: true }),
} satisfies Record<string, Partial<OutboxState>>

type Row = [from: OutboxPhase, event: keyof typeof E, context: keyof typeof C, to: OutboxPhase, effects: EffectType[]]

const ended: EffectType[] = ['end', 'emit']

/** Follower and drainer share these (the drainer also sends what may go: see its own rows). */
const ready = (from: 'follower' | 'drainer'): Row[] => [
  [from, 'changed', 'none', from, ['reload']],
  [from, 'changed', 'reading', from, []], // a read is on its way: one more after it, not two
  [from, 'senderPublish', 'none', from, ['elect']],
  [from, 'announced', 'none', from, []],
  [from, 'outcome', 'theirs', from, ['settle']],
  [from, 'offline', 'none', from, []],
  [from, 'logout', 'stored', 'loggedOut', ended],
  [from, 'stop', 'stored', 'stopped', ['end']],
  [from, 'reread', 'again', from, from === 'drainer' ? ['reload', 'send'] : ['reload']],
  [from, 'rereadBad', 'none', from, ['remove']], // what must never be sent: its record dropped
  [from, 'rereadBadAgain', 'purging', from, []], // its drop is on its way already
  [from, 'rereadJunk', 'none', from, ['remove']], // a record that holds no entry: dropped, silently
  [from, 'storedDrop', 'settled', from, ['settle', 'emit', 'post']], // the drop is stored: now its caller hears
  [from, 'storedDropGone', 'settled', from, ['settle', 'emit', 'post']], // another tab dropped it too: still ours to say
  [from, 'storedDrop', 'purging', from, ['settle', 'emit', 'post']], // refused by the tab whose drop found it
  [from, 'storedDropGone', 'purging', from, ['post']], // another tab's drop found it first: said there
  [from, 'storedFailed', 'blocked', from, ['post']],
  [from, 'storedFailedGone', 'blocked', from, ['post']], // gone meanwhile: another tab sent or removed it
  [from, 'submit', 'none', from, ['post', 'put']],
  [from, 'remove', 'stored', from, ['settle', 'remove']],
  [from, 'remove', 'own', from, ['settle', 'remove']], // being stored by this tab: its drop comes after
  [from, 'remove', 'theirs', from, []], // another tab is storing it: the drop could come first
  [from, 'remove', 'sending', from, []],
  [from, 'abort', 'sending', from, ['settle']], // the caller lets go; the write goes on
]

const ROWS: Row[] = [
  ['loading', 'loaded', 'none', 'follower', []],
  ['loading', 'loadedHeld', 'none', 'follower', ['emit']],
  ['loading', 'loadedHeld', 'elected', 'drainer', ['emit', 'send']],
  ['loading', 'loadedBad', 'none', 'follower', ['remove']],
  ['loading', 'loaded', 'again', 'follower', ['reload']],
  ['loading', 'changed', 'reading', 'loading', []],
  ['loading', 'sender', 'none', 'loading', ['elect']],
  ['loading', 'sender', 'senders', 'loading', []],
  ['loading', 'elected', 'senders', 'loading', []],
  ['loading', 'announced', 'none', 'loading', []],
  ['loading', 'outcome', 'none', 'loading', ['settle']],
  ['loading', 'online', 'none', 'loading', []],
  ['loading', 'offline', 'none', 'loading', []],
  ['loading', 'logout', 'none', 'loggedOut', ended],
  ['loading', 'stop', 'none', 'stopped', ['end']],
  ...ready('follower'),
  ['follower', 'elected', 'senders', 'drainer', ['reload']], // storage is the truth: read, then send
  ['follower', 'online', 'none', 'follower', []],
  ['follower', 'reread', 'none', 'follower', []],
  ['follower', 'storedAdd', 'own', 'follower', ['emit', 'post']],
  ...ready('drainer'),
  ['drainer', 'electedPublish', 'elected', 'drainer', ['reload']],
  ['drainer', 'online', 'blocked', 'drainer', ['reload']],
  ['drainer', 'reread', 'elected', 'drainer', ['send']],
  ['drainer', 'rereadReplay', 'none', 'drainer', ['emit', 'send']], // a write stored before: `replay`
  ['drainer', 'storedAdd', 'own', 'drainer', ['emit', 'post', 'send']],
  ['drainer', 'sent', 'sending', 'drainer', ['remove']], // settled once its drop is stored
  ['drainer', 'sent', 'none', 'drainer', []],
  ['drainer', 'failedForNow', 'sending', 'drainer', ['put', 'emit', 'wait']],
  ['drainer', 'refusedByService', 'sending', 'drainer', ['remove']],
  ['drainer', 'tick', 'blocked', 'drainer', ['reload']],
  ['drainer', 'tickEarly', 'blocked', 'drainer', ['wait']],
  ['stopped', 'logout', 'none', 'loggedOut', ended],
  ['stopped', 'sent', 'sending', 'stopped', []],
  ['stopped', 'failedForNow', 'sending', 'stopped', []],
  ['stopped', 'storedAdd', 'own', 'stopped', []],
  ['stopped', 'reread', 'own', 'stopped', []],
  // The race a generation counter once guarded: a send that ends after a logout writes no list back.
  ['loggedOut', 'sent', 'sending', 'loggedOut', []],
  ['loggedOut', 'failedForNow', 'sending', 'loggedOut', []],
  ['loggedOut', 'storedDrop', 'settled', 'loggedOut', []], // a store that was on its way: nobody told
  ['loggedOut', 'reread', 'none', 'loggedOut', []], // a read that was on its way: nothing taken in
  ['loggedOut', 'logout', 'none', 'loggedOut', []], // said once
]

const at = (phase: OutboxPhase, context: keyof typeof C): OutboxState => {
  const initial = initialState({ online: true, retry: { baseMs: 1_000, maxMs: 30_000 }, startedAt: 100 })
  const drains = phase === 'drainer' ? { senders: ['rest' as const], drains: ['rest' as const] } : {}
  const reading = phase === 'loading' ? {} : { reading: 'no' as const }
  return { ...initial, ...reading, ...drains, ...C[context], phase }
}

describe('the outbox machine', () => {
  itWalksTheTable({
    TABLE,
    transition,
    events: E,
    at: (phase, context) => at(phase, context),
    phaseOf: (s) => s.phase,
    rows: ROWS,
    anyContext: 'sending',
  })

  it('a send that ends after a logout: nothing is stored, nobody is told twice', () => {
    const sending = transition(at('drainer', 'stored'), E.online).state // online, nothing blocked: sends
    expect(sending.held[0]?.phase).toBe('sending')
    const out = transition(sending, E.logout)
    expect(out.state).toMatchObject({ phase: 'loggedOut', held: [], loggedOut: 'another-tab' })
    expect(out.effects).toEqual([
      { type: 'end', why: 'outbox_cleared' },
      { type: 'emit', name: 'cleared', value: { by: 'another-tab' } },
    ])
    const late = transition(out.state, E.sent)
    expect(late.state).toBe(out.state)
    expect(late.effects.filter((e) => e.type === 'put' || e.type === 'remove')).toEqual([])
    expect(snapshotOf(late.state, 'storage')).toEqual({
      status: 'idle',
      mode: 'storage',
      entries: [],
      loggedOut: 'another-tab',
    })
  })

  it('failed for now: the one backoff (jitter over the step’s upper half) from the event’s random value and time', () => {
    const r = transition(at('drainer', 'sending'), E.failedForNow)
    // Attempt 1: uniform in [baseMs/2, baseMs); random 0.5 → 750 ms after `now`.
    expect(r.state.held[0]).toMatchObject({ phase: 'blocked', until: 1_750, entry: { attempts: 1 } })
    expect(r.effects).toContainEqual({ type: 'wait', until: 1_750 })
    expect(r.effects).toContainEqual(
      expect.objectContaining({ name: 'retry', value: expect.objectContaining({ delayMs: 750 }) }),
    )
    // One record written: this write's, with its attempts and last error (not the list).
    expect(r.effects[0]).toEqual({
      type: 'put',
      entry: { ...x, attempts: 1, lastError: { name: 'NetworkError', code: 'network_error', message: 'fetch failed' } },
    })
  })

  it('a write is settled only once its drop is stored, and then shown gone', () => {
    const settled = transition(at('drainer', 'sending'), E.sent).state
    expect(snapshotOf(settled, 'storage').entries).toEqual([]) // not shown while it is dropped
    const dropped = transition(settled, E.storedDrop)
    expect(dropped.state.held).toEqual([])
    expect(dropped.effects).toEqual([
      { type: 'settle', id: 'x', outcome: { result: { id: 'thr_1' } }, tell: true },
      { type: 'emit', name: 'applied', value: { entry: x, result: { id: 'thr_1' } } },
      { type: 'post', message: { t: 'outbox' } },
    ])
  })
})
