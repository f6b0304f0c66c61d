import type { TokenProvider } from '@tandem/core'
import type { SafeEmitter } from '@tandem/core/internal'
import ReconnectingWebSocket from 'partysocket/ws'
import type { Backoff } from './backoff.js'
import { OPEN_TIMEOUT_MS, UNREACHABLE_AFTER } from './defaults.js'
import type { Log } from './log.js'
import { isOffline, watchPage } from './page-signals.js'
import { clampDelay, type RealtimeError } from './core.js'
import { asError, closeAction, closeOf, rtError, type CloseAction } from './protocol.js'
import type { ConnectionState, RealtimeEvents, StateChange } from './types.js'
import { createWaiter } from './waiter.js'

// The connection as an explicit state machine over partysocket's ReconnectingWebSocket, which
// opens every socket. Its own delays are neutralised: before each attempt it calls our URL
// provider (the gate), which waits out Tandem's full-jitter backoff, the network and the token.

/** One connection attempt: a token, then (maybe) a socket, then (maybe) `connected`. */
export interface Attempt {
  /** 1, 2, …: a request sent on an older attempt goes again on a newer one. */
  readonly n: number
  /** The token the connection runs on (replaced by an in-band refresh). */
  token: string
  /** Why we dropped its socket ourselves (dead link, offline): its close is ours, not the server's. */
  droppedFor?: string
  /** It reached `connected`. */
  up: boolean
}

/** One `connect()` … `close()`: its own socket, so nothing of a stopped run can act on a new one. */
interface Run {
  readonly rws: ReconnectingWebSocket
  stopped: boolean
  unwatch: () => void
}

/** Everything that moves the connection from one state to another. */
export type ConnectionEvent =
  | { type: 'connect' }
  | { type: 'close' }
  | { type: 'token_unavailable'; error: RealtimeError }
  | { type: 'fail'; error: RealtimeError; reason: string }
  | { type: 'offline' }
  | { type: 'connected'; resumed: boolean }
  | { type: 'socket_closed'; code: number; reason: string }

export interface ConnectionOptions {
  url: string
  auth: TokenProvider
  WebSocket: unknown
  backoff: Backoff
  events: SafeEmitter<RealtimeEvents>
  log: Log
  /** The socket opened: send the handshake. */
  opened: (attempt: Attempt) => void
  message: (data: unknown) => void
  /** The socket is gone: replies will not come, channels must resume. */
  lost: () => void
  /** A probe of the link (page visible or online again). */
  probe: () => void
  /** The client failed (fatal close, refused token): what waits must be rejected. */
  failed: (error: RealtimeError) => void
}

export interface Connection {
  readonly state: ConnectionState
  /** The attempt under way or connected, if any. */
  readonly attempt: Attempt | undefined
  /** Why the client is not connected (the last failure), until the next `connected`. */
  readonly lastError: RealtimeError | undefined
  /** Every state change goes through here. */
  transition: (event: ConnectionEvent) => void
  /** Drops the socket (a dead link): a new attempt follows, after backoff. */
  drop: (reason: string) => void
  send: (text: string) => boolean
}

export function createConnection(o: ConnectionOptions): Connection {
  const waiter = createWaiter()
  let state: ConnectionState = 'idle'
  let run: Run | undefined
  let attempt: Attempt | undefined
  let attempts = 0
  /** The wait before the next attempt (set by a close or a failed token fetch, taken by the gate). */
  let nextDelay = 0
  let lastError: RealtimeError | undefined
  /** Attempts in a row that never reached `connected`, and whether one ever did in this run. */
  let failures = 0
  let everUp = false
  /** When the current socket was asked for (a browser's copy of partysocket's close loses why it closed). */
  let openedAt = 0
  /** Where we connect, for messages: no query string, whatever the URL carries. */
  const where = o.url.split(/[?#]/)[0]

  function setState(current: ConnectionState, reason: string, extra?: Pick<StateChange, 'retryInMs' | 'error'>) {
    if (current === state && current !== 'reconnecting') return
    const previous = state
    state = current
    o.log(`${previous} -> ${current} ${reason}`)
    o.events.emit('state', { previous, current, reason, ...extra, lastError })
  }

  function stop() {
    if (!run) return
    run.stopped = true
    run.unwatch()
    run.rws.close(1000, 'client_close') // its close event finds the run stopped: no transition
    run = undefined
    attempt = undefined
    waiter.wake() // a gate waiting out a delay returns, and partysocket opens nothing for a closed socket
    o.lost()
  }

  /** Nothing to wait out before the next attempt (a new start, the network is back). */
  function rewind() {
    o.backoff.reset()
    nextDelay = 0
  }

  /** partysocket's URL provider, once per attempt: our delay, the network, a token. Never throws. */
  async function gate(mine: { readonly stopped: boolean }): Promise<string> {
    for (;;) {
      if (nextDelay > 0) await waiter.wait(nextDelay)
      nextDelay = 0
      if (mine.stopped) return o.url
      if (isOffline()) {
        transition({ type: 'offline' })
        await waiter.wait(Infinity)
        continue
      }
      try {
        const token = await o.auth.getToken()
        if (mine.stopped) return o.url
        attempt = { n: ++attempts, token, up: false }
        openedAt = Date.now()
        if (!isOffline()) return o.url
      } catch (e) {
        if (mine.stopped) return o.url
        const temporary = (e as { code?: string }).code === 'token_endpoint_unavailable'
        const error = asError(e, 'token_unavailable', temporary)
        transition(temporary ? { type: 'token_unavailable', error } : { type: 'fail', error, reason: 'auth_failed' })
      }
    }
  }

  function open(): Run {
    const flags = { stopped: false }
    const rws = new ReconnectingWebSocket(() => gate(flags), undefined, {
      WebSocket: o.WebSocket,
      startClosed: true,
      // Its own backoff is neutralised (the gate waits ours); nothing is queued before our handshake.
      minReconnectionDelay: 0,
      maxReconnectionDelay: 0,
      reconnectionDelayGrowFactor: 1,
      maxEnqueuedMessages: 0,
      connectionTimeout: OPEN_TIMEOUT_MS,
      shouldReconnectOnClose: (e) => !flags.stopped && closeAction(e.code, e.reason).kind !== 'fatal',
    })
    // Listeners, not `on*` properties: an EventTarget that also calls `on<type>` on dispatch
    // (happy-dom's) would run a property handler twice, since partysocket calls it as well.
    rws.addEventListener('open', () => {
      if (attempt) o.opened(attempt)
    })
    rws.addEventListener('message', (e) => o.message(e.data))
    rws.addEventListener('close', (e) => {
      if (flags.stopped) return
      const [code, reason] = closeOf(e, openedAt)
      transition({ type: 'socket_closed', code, reason })
    })
    const unwatch = watchPage({
      online() {
        rewind()
        waiter.wake()
        o.probe()
      },
      offline: () => drop('offline'),
      visible: o.probe,
    })
    rws.reconnect() // startClosed: this is the first attempt
    return Object.assign(flags, { rws, unwatch }) // the same object the gate reads
  }

  /**
   * The wait before the next attempt after a close. A close that comes right after connecting (or
   * before) counts as a failure, whatever it asks: `token_expired` means "at once" only for a
   * token that ran out during a stable session, and a `retryAfterMs` is never less than our own
   * next delay then, nor when it is 0; it is capped at `serverMaxMs`, and Infinity, NaN or a
   * negative value mean "use our backoff".
   */
  function delayAfter(action: CloseAction, wasUp: boolean): number {
    const stable = wasUp && o.backoff.stable()
    const own = o.backoff.next()
    if (action.atOnce) return stable ? 0 : own
    const asked = clampDelay(action.retryAfterMs, 0, o.backoff.options.serverMaxMs)
    if (asked === undefined) return own
    return asked === 0 || !stable ? Math.max(asked, own) : asked
  }

  /** The reason a socket closed, as an error that names where it went (never a token: none is in the URL). */
  function closeError(code: number, name: string, wasUp: boolean): RealtimeError {
    const what =
      name === 'open_timeout'
        ? `no answer from ${where} within ${OPEN_TIMEOUT_MS} ms`
        : wasUp
          ? `connection to ${where} lost (close ${code}, ${name})`
          : `socket to ${where} closed before the handshake (close ${code}, ${name})`
    return rtError(name, what.charAt(0).toUpperCase() + what.slice(1), true)
  }

  /** Attempts keep failing and none ever succeeded: likely a wrong URL or a service down. Said once; retries go on. */
  function unreachable() {
    const error = rtError(
      'unreachable',
      `Could not connect to ${where} in ${failures} attempts (last: ${lastError?.message}); still retrying. Is the realtime URL right, the service up?`,
      true,
      lastError,
    )
    o.log(`error ${error.code}`)
    o.events.emit('error', error)
  }

  function drop(reason: string) {
    if (!run || !attempt) return
    attempt.droppedFor = reason
    // partysocket closes the socket and reports the close at once (a half-open link cannot keep us waiting).
    run.rws.reconnect(1000, reason)
  }

  function transition(event: ConnectionEvent): void {
    switch (event.type) {
      case 'connect': {
        if (run) return
        const WS = o.WebSocket ?? (globalThis as { WebSocket?: unknown }).WebSocket
        if (!WS)
          return transition({
            type: 'fail',
            error: rtError(
              'no_websocket',
              "No WebSocket in this runtime: pass options.WebSocket (on Node before 22: import WebSocket from 'ws')",
            ),
            reason: 'no_websocket',
          })
        rewind()
        failures = 0
        everUp = false
        lastError = undefined
        setState('connecting', 'connect')
        run = open()
        return
      }
      case 'close':
        stop()
        return setState('closed', 'close')
      case 'fail':
        lastError = event.error
        stop()
        setState('failed', event.reason, { error: event.error })
        o.events.emit('error', event.error)
        return o.failed(event.error)
      case 'token_unavailable':
        lastError = event.error
        o.events.emit('error', event.error)
        nextDelay = o.backoff.next()
        return setState('reconnecting', 'token_unavailable', { retryInMs: nextDelay, error: event.error })
      case 'offline':
        return setState('disconnected', 'offline')
      case 'connected':
        if (attempt) attempt.up = true
        lastError = undefined
        failures = 0
        everUp = true
        o.backoff.up()
        return setState('connected', event.resumed ? 'resumed' : 'connected')
      case 'socket_closed': {
        const closed = attempt
        const why =
          closed?.droppedFor ?? (event.code === 1000 && event.reason === 'timeout' ? 'open_timeout' : undefined)
        o.lost()
        o.log(`closed ${event.code} ${event.reason}`)
        const action = closeAction(event.code, event.reason)
        if (why === undefined && action.kind === 'fatal') {
          return transition({
            type: 'fail',
            error: rtError(action.name, `Service closed: ${action.name}`),
            reason: action.name,
          })
        }
        if (action.kind === 'reauth' && closed) o.auth.invalidate(closed.token)
        nextDelay = delayAfter(action, closed?.up === true)
        attempt = undefined
        lastError = closeError(event.code, why ?? action.name, closed?.up === true)
        if (!closed?.up && ++failures === UNREACHABLE_AFTER && !everUp) unreachable()
        if (isOffline()) return setState('disconnected', 'offline')
        return setState('reconnecting', why ?? action.name, { retryInMs: nextDelay })
      }
    }
  }

  return {
    get state() {
      return state
    },
    get attempt() {
      return attempt
    },
    get lastError() {
      return lastError
    },
    transition,
    drop,
    send(text) {
      if (run?.rws.readyState !== 1) return false
      run.rws.send(text)
      return true
    },
  }
}
