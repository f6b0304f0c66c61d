import type { RealtimeError } from '../core.js'
import type { ConnectionState, StateChange } from '../types.js'

// The connection machine's vocabulary: its states, the context they carry, the events that move
// it and the effects it asks for. Plain data only: connection-machine.ts decides, connection.ts acts.

/**
 * The public states, plus `resyncing`: the handshake is done (public `connected`), the channels
 * are being resubscribed, and app requests wait until they are.
 */
export type Phase = ConnectionState | 'resyncing'

/** One connection attempt: a token, then (maybe) a socket, then (maybe) `connected`. */
export interface Attempt {
  /** 1, 2, …: a request sent on an older attempt goes again on a newer one. */
  readonly n: number
  /** The token the connection runs on (replaced by an in-band refresh). */
  readonly token: string
  /** It reached `connected`. */
  readonly up: boolean
  /** Why we dropped its socket ourselves (dead link, offline): its close is ours, not the server's. */
  readonly droppedFor?: string
}

export interface Context {
  /** Where we connect, for messages: no query string, whatever the URL carries. */
  readonly where: string
  /** The longest wait a server may ask for (backoff's `serverMaxMs`). */
  readonly serverMaxMs: number
  /** Attempts so far, in this client's life (the last one's `n`). */
  readonly attempts: number
  /** The attempt under way or connected, if any. */
  readonly attempt?: Attempt
  /** Attempts in a row that never reached `connected`, and whether one ever did in this run. */
  readonly failures: number
  readonly everUp: boolean
  /** Why the client is not connected (the last failure), until the next `connected`. */
  readonly lastError?: RealtimeError
  /** When the current socket was asked for (a browser's copy of partysocket's close loses why it closed). */
  readonly openedAt: number
}

export interface MachineState {
  readonly name: Phase
  readonly context: Context
}

/**
 * Everything that moves the connection. Time and backoff draws come in the events (the runner
 * reads the clock and the jittered backoff): the machine stays pure, and its test needs no timers.
 */
export type ConnectionEvent =
  /** `webSocket`: the runtime has a WebSocket constructor. */
  | { type: 'connect'; webSocket: boolean }
  | { type: 'close' }
  /** The gate found the browser offline. */
  | { type: 'offline' }
  /** The gate got a token at `at` (ms): an attempt starts, its socket is asked for. */
  | { type: 'token'; token: string; at: number }
  /**
   * No token. A refusal (401/403: `error.temporary` false) fails the client; any other answer (an
   * HTML page, a 404, a 5xx, garbage, no answer) is tried again after `delay` (the backoff's next draw).
   */
  /** `fresh`: the provider fetched (or asked) again, not its cool-down handing back its last failure. */
  | { type: 'token_failed'; error: RealtimeError; delay: number; fresh: boolean }
  /** The attempt's socket is open. */
  | { type: 'opened' }
  /** The service answered the handshake. */
  | { type: 'connected'; resumed: boolean }
  /** Every channel has its subscribe reply (or none needed one). */
  | { type: 'synced' }
  /** An in-band refresh: the connection now runs on `token`. */
  | { type: 'authed'; token: string }
  /** A dead link (heartbeat, a request or a probe without reply, offline): drop the socket. */
  | { type: 'drop'; reason: string }
  /**
   * The socket closed. `offline`: the browser says so now; `stable`: the backoff says the last
   * connection lasted; `delay`: the backoff's next draw.
   */
  | { type: 'socket_closed'; code: number; reason: string; offline: boolean; stable: boolean; delay: number }

export type EventType = ConnectionEvent['type']

/** What the machine asks the runner (connection.ts) to do, in order. */
export type Effect =
  /** Start a run: a socket (its gate waits, gets a token, then opens) and the page watch. */
  | { type: 'open' }
  /** End the run: close its socket, wake its gate, and `lost`. */
  | { type: 'stop' }
  /** The socket is gone: replies will not come, channels must resume. */
  | { type: 'lost' }
  /** The gate waits this long (Infinity: until woken) before its next step. */
  | { type: 'wait'; ms: number }
  /** The backoff starts from scratch (`reset`), or counts the connection as up from now (`up`). */
  | { type: 'backoff'; op: 'reset' | 'up' }
  /** Close the socket, then a new attempt (after the backoff). */
  | { type: 'reconnect'; reason: string }
  /** The token provider must not hand out this token again. */
  | { type: 'invalidate'; token: string }
  /** Send the `connect` frame with this token. */
  | { type: 'handshake'; token: string }
  /** Resubscribe the channels; `synced` follows. */
  | { type: 'resync' }
  /** App requests may go. */
  | { type: 'flush' }
  | { type: 'state'; change: StateChange }
  | { type: 'error'; error: RealtimeError }
  /** The client failed: what waits must be rejected. */
  | { type: 'failed'; error: RealtimeError }
  /** A debug line (an event the current state has no edge for, a close). */
  | { type: 'log'; message: string }

export type EffectType = Effect['type']

export interface Result {
  readonly state: MachineState
  readonly effects: readonly Effect[]
}
