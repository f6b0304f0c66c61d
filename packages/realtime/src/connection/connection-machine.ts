import { DEV } from '@tandem/contract/dev'
import { closeAction, rtError, type CloseAction } from './protocol.js'
import { clampDelay, type RealtimeError } from '../core.js'
import { OPEN_TIMEOUT_MS, UNREACHABLE_AFTER } from '../defaults.js'
import type { ConnectionEvent, Context, Effect, EventType, MachineState, Phase, Result } from './connection-types.js'
import type { ConnectionState, StateChange } from '../types.js'

// The connection as a pure machine: `transition(state, event)` looks the pair up in one table
// (TABLE below) and returns the next state and the effects to carry out, as data. No clock, no
// randomness, no I/O: connection.ts runs the effects and feeds the events in.

type Handler<E extends EventType> = (s: MachineState, e: Extract<ConnectionEvent, { type: E }>) => Result
type Edges = { readonly [E in EventType]?: Handler<E> }

/** What the app sees: `resyncing` is `connected` (the handshake is done; requests wait a moment). */
export const publicState = (name: Phase): ConnectionState => (name === 'resyncing' ? 'connected' : name)

export const initialState = (where: string, serverMaxMs: number): MachineState => ({
  name: 'idle',
  context: { where, serverMaxMs, attempts: 0, failures: 0, everUp: false, openedAt: 0 },
})

const STOP: Effect = { type: 'stop' }
/** The same state with its context changed: no public change, no effect. */
const update = (s: MachineState, patch: Partial<Context>): Result => ({
  state: { name: s.name, context: { ...s.context, ...patch } },
  effects: [],
})

/**
 * Moves to `name`, between the effects `before` and `after`, with the context changed by `patch`.
 * The public `state` event comes with it when the public state changes, and on every
 * `reconnecting` (each says when the next attempt is).
 */
function move(
  s: MachineState,
  name: Phase,
  reason: string,
  before: Effect[] = [],
  after: Effect[] = [],
  patch?: Partial<Context>,
  extra?: Pick<StateChange, 'retryInMs' | 'error'>,
): Result {
  const state = { name, context: { ...s.context, ...patch } }
  const previous = publicState(s.name)
  const current = publicState(name)
  const change = { previous, current, reason, ...extra, lastError: state.context.lastError }
  const said: Effect[] = previous !== current || current === 'reconnecting' ? [{ type: 'state', change }] : []
  return { state, effects: [...before, ...said, ...after] }
}

/** The client cannot work: it stops, says why, and what waits is rejected. */
const failure = (s: MachineState, error: RealtimeError, reason: string, before?: Effect[]): Result =>
  move(
    s,
    'failed',
    reason,
    before,
    [
      { type: 'error', error },
      { type: 'failed', error },
    ],
    { lastError: error, attempt: undefined },
    { error },
  )

/**
 * The wait before the next attempt after a close. A close that comes right after connecting (or
 * before) counts as a failure, whatever it asks: `token_expired` means "at once" only for a token
 * that ran out during a stable session, and a `retryAfterMs` is never less than our own next
 * delay then, nor when it is 0; it is capped at `serverMaxMs`, and Infinity, NaN or a negative
 * value mean "use our backoff".
 */
function delayAfter(action: CloseAction, stable: boolean, own: number, serverMaxMs: number): number {
  if (action.atOnce) return stable ? 0 : own
  const asked = clampDelay(action.retryAfterMs, 0, serverMaxMs)
  if (asked === undefined) return own
  return asked === 0 || !stable ? Math.max(asked, own) : asked
}

/** The reason a socket closed, as an error that names where it went (never a token: none is in the URL). */
function closeError(where: string, code: number, name: string, wasUp: boolean): RealtimeError {
  const what =
    name === 'open_timeout'
      ? `no answer from ${where} within ${OPEN_TIMEOUT_MS} ms`
      : wasUp
        ? `connection to ${where} lost (close ${code}, ${name})`
        : `socket to ${where} closed before the handshake (close ${code}, ${name})`
  return rtError(name, what.charAt(0).toUpperCase() + what.slice(1), true)
}

/**
 * Attempts keep failing and none ever succeeded: said once (a wrong URL, a service down); retries
 * go on. The hint is development's (`false` in production builds).
 */
const unreachable = (what: string, n: number, last: RealtimeError, hint: string | false): Effect => ({
  type: 'error',
  error: rtError(
    'unreachable',
    `Could not ${what} in ${n} attempts (last: ${last.message})${DEV && process.env.NODE_ENV !== 'production' && hint ? `; still retrying. Is ${hint}?` : ''}`,
    true,
    last,
  ),
})

function socketClosed(s: MachineState, e: Extract<ConnectionEvent, { type: 'socket_closed' }>): Result {
  const c = s.context
  const closed = c.attempt
  const wasUp = closed?.up === true
  const why = closed?.droppedFor ?? (e.code === 1000 && e.reason === 'timeout' ? 'open_timeout' : undefined)
  const action = closeAction(e.code, e.reason)
  const effects: Effect[] = [{ type: 'lost' }, { type: 'log', message: `closed ${e.code} ${e.reason}` }]
  if (why === undefined && action.kind === 'fatal') {
    const error = rtError(action.name, `Service closed: ${action.name}`)
    return failure(s, error, action.name, [...effects, STOP])
  }
  if (action.kind === 'reauth' && closed) effects.push({ type: 'invalidate', token: closed.token })
  const delay = delayAfter(action, wasUp && e.stable, e.delay, c.serverMaxMs)
  const failures = wasUp ? c.failures : c.failures + 1
  const lastError = closeError(c.where, e.code, why ?? action.name, wasUp)
  // Attempts keep failing and none ever succeeded: likely a wrong URL or a service down. Said once; retries go on.
  if (!wasUp && failures === UNREACHABLE_AFTER && !c.everUp)
    effects.push(
      unreachable(
        `connect to ${c.where}`,
        failures,
        lastError,
        DEV && process.env.NODE_ENV !== 'production' && 'the realtime URL right, the service up',
      ),
    )
  const patch = { attempt: undefined, failures, lastError }
  const wait: Effect[] = [{ type: 'wait', ms: delay }]
  return e.offline
    ? move(s, 'disconnected', 'offline', effects, wait, patch)
    : move(s, 'reconnecting', why ?? action.name, effects, wait, patch, { retryInMs: delay })
}

/** Closing: from a state with a run (a socket, a gate), the run stops first. */
const close = (s: MachineState): Result => move(s, 'closed', 'close')
const closeRun = (s: MachineState): Result => move(s, 'closed', 'close', [STOP], [], { attempt: undefined })

const connect: Handler<'connect'> = (s, e) =>
  e.webSocket
    ? move(s, 'connecting', 'connect', [{ type: 'backoff', op: 'reset' }], [{ type: 'open' }], {
        failures: 0,
        everUp: false,
        lastError: undefined,
      })
    : failure(
        s,
        rtError(
          'no_websocket',
          DEV && process.env.NODE_ENV !== 'production'
            ? "No WebSocket in this runtime: pass options.WebSocket (on Node before 22: import WebSocket from 'ws')"
            : 'No WebSocket',
        ),
        'no_websocket',
      )

/** A dead link: with a socket (or one being opened), drop it; before any token there is none. */
const drop: Handler<'drop'> = (s, e) => {
  const { attempt } = s.context
  if (!attempt) return { state: s, effects: [] }
  const r = update(s, { attempt: { ...attempt, droppedFor: e.reason } })
  return { state: r.state, effects: [{ type: 'reconnect', reason: e.reason }] }
}

/** In every state with a run. */
const RUN: Edges = { close: closeRun, drop, socket_closed: socketClosed }

/** Connecting, reconnecting, disconnected: the gate waits, gets a token, a socket opens, the handshake. */
const ATTEMPT: Edges = {
  ...RUN,
  // The gate waits until woken (online, close).
  offline: (s) => move(s, 'disconnected', 'offline', [], [{ type: 'wait', ms: Infinity }]),
  token: (s, e) => {
    const n = s.context.attempts + 1
    return update(s, { attempts: n, attempt: { n, token: e.token, up: false }, openedAt: e.at })
  },
  // Only a refusal is final: an endpoint answering a page or a 404 during a deploy, or behind a
  // captive portal, recovers. The provider's same failure again (its cool-down) is said once.
  token_failed: (s, e) => {
    if (!e.error.temporary) return failure(s, e.error, 'auth_failed', [STOP])
    const c = s.context
    // Only a failure fetched anew counts: five retries inside one cool-down are one request.
    const failures = e.fresh ? c.failures + 1 : c.failures
    // The same failure again (the provider's cool-down, a follower tab asking its leader again) is
    // said once: the same code and message, whatever object carries it.
    const same = e.error.code === c.lastError?.code && e.error.message === c.lastError.message
    const said: Effect[] = same ? [] : [{ type: 'error', error: e.error }]
    // A wrong auth.url answers 404 for ever: like a wrong realtime URL, said once, retries go on.
    if (e.fresh && failures === UNREACHABLE_AFTER && !c.everUp)
      said.push(
        unreachable(
          'get a token',
          failures,
          e.error,
          DEV && process.env.NODE_ENV !== 'production' && 'auth.url right, the token endpoint up',
        ),
      )
    return move(
      s,
      'reconnecting',
      'token_unavailable',
      said,
      [{ type: 'wait', ms: e.delay }],
      { lastError: e.error, failures },
      { retryInMs: e.delay, error: e.error },
    )
  },
  opened: (s) => {
    const { attempt } = s.context
    return { state: s, effects: attempt ? [{ type: 'handshake', token: attempt.token }] : [] }
  },
  connected: (s, e) => {
    const { attempt } = s.context
    const patch = { attempt: attempt && { ...attempt, up: true }, lastError: undefined, failures: 0, everUp: true }
    return move(
      s,
      'resyncing',
      e.resumed ? 'resumed' : 'connected',
      [{ type: 'backoff', op: 'up' }],
      [{ type: 'resync' }],
      patch,
    )
  },
}

/** Resyncing, connected: the handshake is done. */
const UP: Edges = {
  ...RUN,
  // Each subscribe round that completes lets waiting requests go (a presence call waits for its channel).
  synced: (s) => move(s, 'connected', 'synced', [], [{ type: 'flush' }]),
  authed: (s, e) => {
    const { attempt } = s.context
    return update(s, { attempt: attempt && { ...attempt, token: e.token } })
  },
}

/** Every legal (state, event) pair. A pair not here is ignored: no change, no effect but a debug line. */
export const TABLE: { readonly [P in Phase]: Edges } = {
  idle: { connect, close },
  connecting: ATTEMPT,
  reconnecting: ATTEMPT,
  disconnected: ATTEMPT,
  resyncing: UP,
  connected: UP,
  closed: { connect },
  failed: { connect, close },
}

export function transition(s: MachineState, e: ConnectionEvent): Result {
  const handler = TABLE[s.name][e.type] as Handler<EventType> | undefined
  return handler ? handler(s, e) : { state: s, effects: [{ type: 'log', message: `ignored ${e.type} in ${s.name}` }] }
}
