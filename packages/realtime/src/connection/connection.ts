import type { TokenProvider } from '@tandem/core'
import type { SafeEmitter } from '@tandem/core/internal'
import ReconnectingWebSocket from 'partysocket/ws'
import type { Backoff } from '../core.js'
import { initialState, publicState, transition } from './connection-machine.js'
import type { ConnectionEvent, Effect, EffectType, MachineState } from './connection-types.js'
import { OPEN_TIMEOUT_MS } from '../defaults.js'
import type { Log } from '../debug/log.js'
import { isOffline, watchPage } from './page-signals.js'
import { RealtimeError, isTokenRefusal } from '../core.js'
import { asError, closeAction, closeOf } from './protocol.js'
import type { ConnectionState, RealtimeEvents } from '../types.js'
import { createWaiter } from './waiter.js'
import { createWatchdog } from './watchdog.js'

// The runner of the connection machine (connection-machine.ts): it feeds events in and carries
// the effects out, over partysocket's ReconnectingWebSocket, which opens every socket. It owns the
// socket and its timers (the gate's wait, the heartbeat watchdog); the rest of an effect is the
// link's (link.ts: requests, the handshake, the channels). partysocket's own
// delays are neutralised: before each attempt it calls our URL provider (the gate), which waits
// what the machine asked, the network and the token.

/** One `connect()` … `close()`: its own socket, so nothing of a stopped run can act on a new one. */
interface Run {
  readonly rws: ReconnectingWebSocket
  stopped: boolean
  unwatch: () => void
}

export interface ConnectionOptions {
  url: string
  auth: TokenProvider
  WebSocket: unknown
  backoff: Backoff
  events: SafeEmitter<RealtimeEvents>
  log: Log
  /** What the runner does not carry out itself: the link's part (link.ts). */
  link: LinkSide
}

/** The effects the link carries out (requests, the handshake, the channels), and each frame received. */
export interface LinkSide {
  /** The socket opened: send the handshake with this token. */
  opened: (token: string) => void
  message: (data: unknown) => void
  /** The socket is gone: replies will not come, channels must resume. */
  lost: () => void
  /** The handshake is done: resubscribe the channels, then dispatch `synced`. */
  resync: () => void
  /** App requests may go. */
  flush: () => void
  /** A probe of the link (page visible or online again). */
  probe: () => void
  /** The client failed (fatal close, refused token): what waits must be rejected. */
  failed: (error: RealtimeError) => void
  /** Logged, then told to the app (`error` events). */
  error: (error: RealtimeError) => void
}

export interface Connection {
  /** The public state (`resyncing` reads as `connected`). */
  readonly state: ConnectionState
  /** The machine's own state and its context (the attempt under way, the last error, …). */
  readonly machine: MachineState
  connect: () => void
  /** The handshake is done: no frame for `heartbeatMs + graceMs` means a dead link (the watchdog). */
  watch: (heartbeatMs: number, graceMs: number) => void
  /** Every other change goes through here. */
  dispatch: (event: ConnectionEvent) => void
  send: (text: string) => boolean
}

export function createConnection(o: ConnectionOptions): Connection {
  const { link } = o
  const waiter = createWaiter()
  const watchdog = createWatchdog(() => dispatch({ type: 'drop', reason: 'heartbeat_timeout' }))
  let machine = initialState(o.url.split(/[?#]/)[0] ?? '', o.backoff.options.serverMaxMs)
  let run: Run | undefined
  /** The wait the machine last asked the gate for. */
  let pause: Promise<void> | undefined

  /** How each effect is carried out. */
  const perform: { [T in EffectType]: (effect: Extract<Effect, { type: T }>) => void } = {
    open() {
      pause = undefined
      run = open()
    },
    stop,
    lost,
    wait(e) {
      pause = waiter.wait(e.ms)
    },
    backoff: (e) => o.backoff[e.op](),
    // partysocket closes the socket and reports the close at once (a half-open link cannot keep us waiting).
    reconnect: (e) => run?.rws.reconnect(1000, e.reason),
    invalidate: (e) => o.auth.invalidate(e.token),
    handshake: (e) => link.opened(e.token),
    resync: link.resync,
    flush: link.flush,
    state({ change }) {
      o.log(`${change.previous} -> ${change.current} ${change.reason}`)
      o.events.emit('state', change)
    },
    error: (e) => link.error(e.error),
    failed: (e) => link.failed(e.error),
    log: (e) => o.log(e.message),
  }

  function dispatch(event: ConnectionEvent): void {
    const { state, effects } = transition(machine, event)
    machine = state // before the effects: one may dispatch again (a drop closes the socket at once)
    for (const effect of effects) (perform[effect.type] as (effect: Effect) => void)(effect)
  }

  function stop() {
    if (!run) return
    run.stopped = true
    run.unwatch()
    run.rws.close(1000, 'client_close') // its close event finds the run stopped: no transition
    run = undefined
    waiter.wake() // a gate waiting out a delay returns, and partysocket opens nothing for a closed socket
    lost()
  }

  function lost() {
    watchdog.stop()
    link.lost()
  }

  /** What the token provider last threw. */
  let thrown: unknown
  /** partysocket's URL provider, once per attempt: the machine's wait, the network, a token. Never throws. */
  async function gate(mine: { readonly stopped: boolean }): Promise<string> {
    for (;;) {
      await pause
      if (mine.stopped) return o.url
      if (isOffline()) {
        dispatch({ type: 'offline' }) // the machine asks to wait until woken (online, close)
        continue
      }
      try {
        const token = await o.auth.getToken()
        thrown = undefined
        if (mine.stopped) return o.url
        dispatch({ type: 'token', token, at: Date.now() })
        if (!isOffline()) return o.url
      } catch (e) {
        if (mine.stopped) return o.url
        // The machine retries anything but a refusal (401/403), or a RealtimeError that says it is
        // final (a tab that left the shared connection).
        const final = isTokenRefusal(e) || (e instanceof RealtimeError && !e.temporary)
        const error = asError(e, 'token_unavailable', !final)
        // Core's provider hands back the very same error during its cool-down: nothing was fetched.
        const fresh = e !== thrown
        thrown = e
        dispatch({ type: 'token_failed', error, delay: o.backoff.next(), fresh })
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
    rws.addEventListener('open', () => dispatch({ type: 'opened' }))
    rws.addEventListener('message', (e) => {
      watchdog.seen()
      link.message(e.data)
    })
    rws.addEventListener('close', (e) => {
      if (flags.stopped) return
      const [code, reason] = closeOf(e, machine.context.openedAt)
      // Asked before next(), which forgets it.
      const stable = o.backoff.stable()
      dispatch({ type: 'socket_closed', code, reason, offline: isOffline(), stable, delay: o.backoff.next() })
    })
    const unwatch = watchPage({
      // Not the machine's: no state changes, the gate's wait is cut short and the backoff starts over.
      online() {
        o.backoff.reset()
        waiter.wake()
        link.probe()
      },
      offline: () => dispatch({ type: 'drop', reason: 'offline' }),
      visible: link.probe,
    })
    rws.reconnect() // startClosed: this is the first attempt
    return Object.assign(flags, { rws, unwatch }) // the same object the gate reads
  }

  return {
    get state() {
      return publicState(machine.name)
    },
    get machine() {
      return machine
    },
    connect() {
      dispatch({ type: 'connect', webSocket: !!(o.WebSocket ?? (globalThis as { WebSocket?: unknown }).WebSocket) })
    },
    watch: watchdog.start,
    dispatch,
    send(text) {
      if (run?.rws.readyState !== 1) return false
      run.rws.send(text)
      return true
    },
  }
}
