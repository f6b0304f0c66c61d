import { RealtimeError } from '@tandem/core'
import { describe, expect, it } from 'vitest'
import { TABLE, initialState, transition } from '../../connection/connection-machine.js'
import type { ConnectionEvent, Context, EffectType, Phase } from '../../connection/connection-types.js'
import { itWalksTheTable } from '../../../../../test/utils/machine-table.js'

// Every edge of the connection machine, walked: (state, event) → (next state, effect types, in
// order). The rows must name exactly the machine's edges, so adding, removing or changing one
// fails here until this table says the same.

/** What the runner makes of a token provider's failures: only a refusal (401/403) is not temporary. */
const down = new RealtimeError('Token endpoint down', { code: 'token_endpoint_unavailable', temporary: true })
const page = new RealtimeError('Token endpoint answered 200 text/html', {
  code: 'invalid_token_response',
  temporary: true,
})
const missing = new RealtimeError('Token endpoint answered 404', { code: 'token_endpoint_error', temporary: true })
const refused = new RealtimeError('Token endpoint refused (401)', { code: 'token_refused', temporary: false })
/** The provider's cool-down hands out its last failure again; a follower tab gets a new object for it each time. */
const cause = new Error('Token endpoint answered 404')
const first = new RealtimeError(missing.message, { code: missing.code, temporary: true, cause })
const again = new RealtimeError(missing.message, { code: missing.code, temporary: true, cause })

/** One event of each type, as the runner sends them. */
const E = {
  connect: { type: 'connect', webSocket: true },
  noWebSocket: { type: 'connect', webSocket: false },
  close: { type: 'close' },
  offline: { type: 'offline' },
  token: { type: 'token', token: 't2', at: 5 },
  tokenDown: { type: 'token_failed', error: down, delay: 300, fresh: true },
  tokenPage: { type: 'token_failed', error: page, delay: 300, fresh: true },
  tokenMissing: { type: 'token_failed', error: missing, delay: 300, fresh: true },
  tokenRefused: { type: 'token_failed', error: refused, delay: 300, fresh: true },
  /** Within the provider's cool-down: nothing fetched, its last failure handed back. */
  tokenAgain: { type: 'token_failed', error: again, delay: 300, fresh: false },
  opened: { type: 'opened' },
  connected: { type: 'connected', resumed: false },
  synced: { type: 'synced' },
  authed: { type: 'authed', token: 't3' },
  drop: { type: 'drop', reason: 'heartbeat_timeout' },
  lost: { type: 'socket_closed', code: 1006, reason: '', offline: false, stable: false, delay: 300 },
  lostOffline: { type: 'socket_closed', code: 1006, reason: '', offline: true, stable: false, delay: 300 },
  fatal: { type: 'socket_closed', code: 4003, reason: '', offline: false, stable: false, delay: 300 },
  expired: { type: 'socket_closed', code: 4100, reason: '', offline: false, stable: false, delay: 300 },
} satisfies Record<string, ConnectionEvent>

/** Contexts the guards read: an attempt with a token (up or not), a fifth failure in a row. */
const C = {
  none: {},
  attempt: { attempts: 1, attempt: { n: 1, token: 't1', up: false } },
  up: { attempts: 1, attempt: { n: 1, token: 't1', up: true }, everUp: true },
  fifth: { attempts: 5, attempt: { n: 5, token: 't1', up: false }, failures: 4 },
  noToken: { lastError: first },
  fifthToken: { lastError: first, failures: 4 },
  fifthTokenOnceUp: { lastError: first, failures: 4, everUp: true },
} satisfies Record<string, Partial<Context>>

type Row = [from: Phase, event: keyof typeof E, context: keyof typeof C, to: Phase, effects: EffectType[]]

const closeRun: EffectType[] = ['stop', 'state']
const failRun: EffectType[] = ['stop', 'state', 'error', 'failed']
const connect: EffectType[] = ['backoff', 'state', 'open']
const noWebSocket: EffectType[] = ['state', 'error', 'failed']
const retry: EffectType[] = ['lost', 'log', 'state', 'wait']
const fatal: EffectType[] = ['lost', 'log', 'stop', 'state', 'error', 'failed']
const reauth: EffectType[] = ['lost', 'log', 'invalidate', 'state', 'wait']
const connected: EffectType[] = ['backoff', 'state', 'resync']

/** The three states of an attempt (connecting, reconnecting, disconnected) share their edges. */
const attempting = (from: 'connecting' | 'reconnecting' | 'disconnected'): Row[] => [
  [from, 'close', 'attempt', 'closed', closeRun],
  [from, 'offline', 'none', 'disconnected', from === 'disconnected' ? ['wait'] : ['state', 'wait']],
  [from, 'token', 'none', from, []],
  // No token: an HTML page, a 404, a 5xx are waited out; a refusal (401/403) stops the run.
  [from, 'tokenDown', 'none', 'reconnecting', ['error', 'state', 'wait']],
  [from, 'tokenPage', 'none', 'reconnecting', ['error', 'state', 'wait']],
  [from, 'tokenMissing', 'none', 'reconnecting', ['error', 'state', 'wait']],
  [from, 'tokenRefused', 'none', 'failed', failRun],
  [from, 'tokenAgain', 'noToken', 'reconnecting', ['state', 'wait']], // said once: no second 'error'
  [from, 'tokenMissing', 'noToken', 'reconnecting', ['state', 'wait']], // the same failure, another object: said once
  [from, 'tokenPage', 'noToken', 'reconnecting', ['error', 'state', 'wait']], // another failure: said
  // The fifth token failure in a row, never connected: one `unreachable` error too (retries go on).
  [from, 'tokenMissing', 'fifthToken', 'reconnecting', ['error', 'state', 'wait']],
  [from, 'tokenAgain', 'fifthToken', 'reconnecting', ['state', 'wait']], // a cool-down retry fetched nothing: not counted
  [from, 'tokenPage', 'fifthTokenOnceUp', 'reconnecting', ['error', 'state', 'wait']], // once up: no unreachable
  [from, 'opened', 'attempt', from, ['handshake']],
  [from, 'opened', 'none', from, []],
  [from, 'connected', 'attempt', 'resyncing', connected],
  [from, 'drop', 'attempt', from, ['reconnect']],
  [from, 'drop', 'none', from, []],
  [from, 'lost', 'attempt', 'reconnecting', retry],
  [from, 'lost', 'fifth', 'reconnecting', ['lost', 'log', 'error', 'state', 'wait']],
  [from, 'lostOffline', 'attempt', 'disconnected', from === 'disconnected' ? ['lost', 'log', 'wait'] : retry],
  [from, 'fatal', 'attempt', 'failed', fatal],
  [from, 'expired', 'attempt', 'reconnecting', reauth],
]

/** Resyncing and connected: the handshake is done. */
const up = (from: 'resyncing' | 'connected'): Row[] => [
  [from, 'close', 'up', 'closed', closeRun],
  [from, 'synced', 'up', 'connected', ['flush']],
  [from, 'authed', 'up', from, []],
  [from, 'drop', 'up', from, ['reconnect']],
  [from, 'drop', 'none', from, []],
  [from, 'lost', 'up', 'reconnecting', retry],
  [from, 'lostOffline', 'up', 'disconnected', retry],
  [from, 'fatal', 'up', 'failed', fatal],
  [from, 'expired', 'up', 'reconnecting', reauth],
]

const ROWS: Row[] = [
  ['idle', 'connect', 'none', 'connecting', connect],
  ['idle', 'noWebSocket', 'none', 'failed', noWebSocket],
  ['idle', 'close', 'none', 'closed', ['state']],
  ...attempting('connecting'),
  ...attempting('reconnecting'),
  ...attempting('disconnected'),
  ...up('resyncing'),
  ...up('connected'),
  ['closed', 'connect', 'none', 'connecting', connect],
  ['closed', 'noWebSocket', 'none', 'failed', noWebSocket],
  ['failed', 'connect', 'none', 'connecting', connect],
  ['failed', 'noWebSocket', 'none', 'failed', ['error', 'failed']],
  ['failed', 'close', 'none', 'closed', ['state']],
]

const at = (name: Phase, context: keyof typeof C) => {
  const initial = initialState('ws://127.0.0.1:1/v1/ws', 300_000)
  return { name, context: { ...initial.context, ...C[context] } }
}

describe('the connection machine', () => {
  itWalksTheTable({
    TABLE,
    transition,
    events: E,
    at,
    phaseOf: (s) => s.name,
    rows: ROWS,
    anyContext: 'attempt',
    // An ignored pair is written to the debug log.
    ignored: (phase, type) => [{ type: 'log', message: `ignored ${type} in ${phase}` }],
  })

  it('carries what the runner needs in its effects and the public state change', () => {
    // A close right after connecting counts as a failure: the backoff's draw is waited, and said.
    const r = transition(at('connecting', 'attempt'), E.lost)
    expect(r.state.context).toMatchObject({ attempt: undefined, failures: 1 })
    expect(r.effects).toContainEqual({ type: 'wait', ms: 300 })
    expect(r.effects).toContainEqual({
      type: 'state',
      change: expect.objectContaining({ previous: 'connecting', current: 'reconnecting', retryInMs: 300 }),
    })
    // resyncing is `connected` to the app: entering it is the public change; leaving it is none.
    const handshake = transition(at('reconnecting', 'attempt'), { type: 'connected', resumed: true })
    expect(handshake.effects).toContainEqual({
      type: 'state',
      change: { previous: 'reconnecting', current: 'connected', reason: 'resumed', lastError: undefined },
    })
    expect(handshake.state.context).toMatchObject({ attempt: { up: true }, failures: 0, everUp: true })
    // A token expired on a stable session: at once, with a fresh token (the old one is invalidated).
    const expired = transition(at('connected', 'up'), { ...E.expired, stable: true })
    expect(expired.effects).toContainEqual({ type: 'invalidate', token: 't1' })
    expect(expired.effects).toContainEqual({ type: 'wait', ms: 0 })
    // No token yet: the reason is in the state change and in lastError until `connected`.
    const page404 = transition(at('connecting', 'none'), E.tokenMissing)
    expect(page404.state.context.lastError).toBe(missing)
    expect(page404.effects).toContainEqual({
      type: 'state',
      change: expect.objectContaining({
        current: 'reconnecting',
        reason: 'token_unavailable',
        error: missing,
        retryInMs: 300,
      }),
    })
    expect(page404.state.context.failures).toBe(1)
    // The fifth in a row, never connected (a wrong auth.url): `unreachable`, naming the last answer.
    expect(transition(at('connecting', 'noToken'), E.tokenAgain).state.context.failures).toBe(0)
    const fifth = transition(at('reconnecting', 'fifthToken'), E.tokenMissing)
    expect(fifth.effects).toContainEqual({
      type: 'error',
      error: expect.objectContaining({
        code: 'unreachable',
        temporary: true,
        cause: missing,
        message: expect.stringMatching(/^Could not get a token in 5 attempts \(last: Token endpoint answered 404\)/),
      }),
    })
    const refusal = transition(at('reconnecting', 'none'), E.tokenRefused)
    expect(refusal.effects).toContainEqual({ type: 'failed', error: refused })
    expect(refusal.effects).toContainEqual({
      type: 'state',
      change: expect.objectContaining({ current: 'failed', reason: 'auth_failed', error: refused }),
    })
    // Dropped by us: the close is named for why we dropped it, not for its code.
    const dropped = transition(transition(at('connected', 'up'), E.drop).state, E.lost)
    expect(dropped.effects).toContainEqual({
      type: 'state',
      change: expect.objectContaining({ current: 'reconnecting', reason: 'heartbeat_timeout' }),
    })
  })
})
