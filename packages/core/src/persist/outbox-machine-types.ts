import type { TandemError } from '../errors.js'
import type { ReadOutbox } from './outbox-entries.js'
import type { TabMessage } from './tab-channel.js'
import type { LogoutSource, OutboxEntry, OutboxEvents } from './types.js'

// The durable outbox's machine, as data: its phases, the phases of each held write, the events
// that come in and the effects that go out (outbox-machine.ts decides, durable-outbox.ts acts).

export type Kind = OutboxEntry['kind']

/**
 * The outbox in this tab. `loading`: the stored writes are being read; `follower`: another tab sends
 * (this one stores, shows and hears outcomes); `drainer`: elected to send the key's writes (of the
 * kinds in `drains`); `stopped`: `stop()`, what is stored stays; `loggedOut`: the key's session
 * ended (here or in another tab): nothing is stored, sent or heard any more.
 */
export type OutboxPhase = 'loading' | 'follower' | 'drainer' | 'stopped' | 'loggedOut'

/**
 * A held write. `announced`: made (here, or in a tab that said so) and not yet read back from
 * storage: shown, never sent; `stored`: in storage, may go; `sending`: this tab sends it;
 * `blocked`: failed for now, goes again at `until` (or once online); `settled`: applied (or
 * removed), its drop on its way to storage; `refused`: the service refused it, its drop likewise.
 */
export type EntryPhase = 'announced' | 'stored' | 'sending' | 'blocked' | 'settled' | 'refused'

export type Outcome = { result: unknown; error?: undefined } | { error: TandemError; result?: undefined }

export interface Held {
  readonly entry: OutboxEntry
  readonly phase: EntryPhase
  /** `blocked`: it may go again from then (ms since epoch). */
  readonly until?: number
  /** This tab made it (its caller waits here). */
  readonly own?: boolean
  /** `settled`, `refused`: what its caller hears once the drop is stored. */
  readonly outcome?: Outcome
  /** Refused as a read found it: said only by the tab whose drop found it still stored. */
  readonly found?: true
}

export interface OutboxState {
  readonly phase: OutboxPhase
  /** Every write held, oldest first: the stored ones, then what was announced and is not stored yet. */
  readonly held: readonly Held[]
  /** The kinds this tab can send (a client gave its sender). */
  readonly senders: readonly Kind[]
  /** The kinds this tab was elected to send. */
  readonly drains: readonly Kind[]
  readonly online: boolean
  /** A read of the stored writes (another tab changed them): `again` once one more change came meanwhile. */
  readonly reading: 'no' | 'yes' | 'again'
  readonly loggedOut?: LogoutSource
  readonly retry: { readonly baseMs: number; readonly maxMs: number }
  /** When this outbox started: a write made before it is a replay. */
  readonly startedAt: number
}

/**
 * A change of one held write in storage, in one transaction on what storage holds then: `put` its
 * entry (`add`: a new write, stored unless it is there already; else only while it is still
 * there), or `remove` its record.
 */
export type StoreOp = { type: 'put'; entry: OutboxEntry; add?: true } | { type: 'remove'; id: string }

export type OutboxEvent =
  /** The first read of the stored writes (the key's session joined). */
  | { type: 'loaded'; read: ReadOutbox }
  /** The stored writes as read again. */
  | { type: 'read'; read: ReadOutbox }
  /** `op` is stored; `found`: the write's record was there before it. */
  | { type: 'stored'; op: StoreOp; found: boolean }
  /** Another tab changed the stored writes. */
  | { type: 'changed' }
  /** A client gave its sender for `kind`. */
  | { type: 'sender'; kind: Kind }
  /** This tab got the drainer's lock for `kind` (or no tab shares one). */
  | { type: 'elected'; kind: Kind }
  /** A write made here, admitted (checked, measured, fits). */
  | { type: 'submit'; entry: OutboxEntry }
  /** Another tab made a write and is storing it. */
  | { type: 'announced'; entry: OutboxEntry }
  | { type: 'sent'; id: string; result: unknown }
  /** The send failed: `now` and `random` pick the backoff when it may go again. */
  | { type: 'failed'; id: string; error: TandemError; now: number; random: number }
  /** The timer of a `wait` went off. */
  | { type: 'tick'; now: number }
  | { type: 'online' }
  | { type: 'offline' }
  /** Another tab settled a write. */
  | { type: 'outcome'; id: string; outcome: Outcome }
  /** `remove(id)`, or its caller's signal aborted: `error` is what the caller hears. */
  | { type: 'remove'; id: string; error: TandemError; aborted?: boolean }
  | { type: 'logout'; by: LogoutSource }
  | { type: 'stop' }

export type EventType = OutboxEvent['type']

/** One of OutboxEvents, as data. */
export type Emit = {
  [K in keyof OutboxEvents]: { type: 'emit'; name: K; value: Parameters<OutboxEvents[K]>[0] }
}[keyof OutboxEvents]

export type OutboxEffect =
  /** Store the change (then `stored`). */
  | StoreOp
  /** Read the stored writes again (then `read`). */
  | { type: 'reload' }
  | { type: 'send'; entry: OutboxEntry }
  /** Tick at `until` (the earliest a blocked write may go again). */
  | { type: 'wait'; until: number }
  /** Queue for the drainer's lock of `kind`. */
  | { type: 'elect'; kind: Kind }
  /** Its caller here hears `outcome`; `tell`: the other tabs too. */
  | { type: 'settle'; id: string; outcome: Outcome; tell: boolean }
  | { type: 'post'; message: TabMessage }
  | Emit
  /** Let go of everything (the channel, the election, the timer); callers still waiting hear `why`. */
  | { type: 'end'; why: 'outbox_cleared' | 'outbox_stopped' }

export type EffectType = OutboxEffect['type']

export interface Result {
  state: OutboxState
  effects: OutboxEffect[]
}
