import type { AuthOptions, Logger, TokenProvider, Unsubscribe } from '@tandem/core'
import { RealtimeError, ValidationError, createEmitter, createTokenProvider } from './core.js'
import { createBackoff, type BackoffOptions } from './backoff.js'
import { createChannel, type ChannelImpl } from './channel.js'
import {
  BACKOFF,
  HANDSHAKE_TIMEOUT_MS,
  MAX_GRACE_MS,
  MAX_INBOUND_CHARS,
  MAX_MESSAGE_BYTES,
  MAX_QUEUED,
  REQUEST_TIMEOUT_MS,
} from './defaults.js'
import { createLog } from './log.js'
import { isOffline, watchPage } from './page-signals.js'
import { asError, closeAction, parseFrame, rtError, toError } from './protocol.js'
import { createRequests } from './requests.js'
import { createSubscriptions } from './subscriptions.js'
import { createTokenRefresh } from './token-refresh.js'
import { createTransport, type Transport } from './transport.js'
import type { Channel, ConnectionState, RealtimeEvents, StateChange } from './types.js'
import { toWsUrl } from './url.js'
import { createWaiter } from './waiter.js'
import { createWatchdog } from './watchdog.js'

export interface RealtimeOptions {
  /** A WebSocket constructor; default `globalThis.WebSocket` (Node 20 has none: pass `ws`'s). */
  WebSocket?: unknown
  /** Connect as soon as a channel is used. Default true. */
  autoConnect?: boolean
  /** Requests (publishes first of all) waiting for a connection. Default 100. */
  maxQueued?: number
  backoff?: Partial<BackoffOptions>
  /** history, presence. Default 15 s. */
  requestTimeoutMs?: number
  /** Debug lines (frames, states) with the connection id; tokens are redacted. */
  debug?: boolean | Logger
  random?: () => number
}

export type RealtimeSource =
  | { client: { auth: TokenProvider; baseUrls: { realtime: string } } }
  | { auth: AuthOptions | TokenProvider; url: string }

export interface Realtime {
  readonly state: ConnectionState
  readonly connectionId: string | undefined
  /** The channel of that name (one object per name); it subscribes while it has listeners. */
  channel: (name: string) => Channel
  connect: () => void
  /** Closes the socket and rejects waiting requests; `connect()` opens it again. */
  close: () => void
  on: <E extends keyof RealtimeEvents>(event: E, callback: RealtimeEvents[E]) => Unsubscribe
}

/** As the service: `[A-Za-z0-9_:.@-]{1,200}`, not `.` or `..` (unusable in a REST path). */
const CHANNEL_NAME = /^(?!\.\.?$)[A-Za-z0-9_:.@-]{1,200}$/

export function createRealtime(source: RealtimeSource, options: RealtimeOptions = {}): Realtime {
  const fromClient = 'client' in source
  const auth = fromClient ? source.client.auth : createTokenProvider(source.auth)
  const url = toWsUrl(fromClient ? source.client.baseUrls.realtime : source.url)
  const events = createEmitter<RealtimeEvents>()
  const channels = new Map<string, ChannelImpl>()
  const waiter = createWaiter()
  const backoff = createBackoff({ ...BACKOFF, ...options.backoff }, options.random)

  let state: ConnectionState = 'idle'
  let connectionId: string | undefined
  let seq = 0 // connections opened so far: a request sent on an older one goes again
  let stopped = true
  let generation = 0 // bumped by every stop: a gate loop of an older run must end quietly
  let resumed = false
  let token: string | undefined
  let nextDelay = 0
  let ours: string | undefined // why we closed the socket ourselves
  let maxBytes: number = MAX_MESSAGE_BYTES
  let grace = 0
  let transport: Transport | undefined
  let unwatch: (() => void) | undefined
  let syncQueued = false

  const log = createLog(options.debug, () => connectionId)
  const error = (e: RealtimeError) => {
    log(`error ${e.code} ${e.message}`)
    events.emit('error', e)
  }
  const requests = createRequests({
    write: (text) => transport?.send(text) ?? false,
    dead,
    error,
    seq: () => seq,
    maxBytes: () => maxBytes,
    maxQueued: options.maxQueued ?? MAX_QUEUED,
    timeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
  })
  const call: typeof requests.call = (frame, ...rest) => {
    log(`-> ${frame.type}`) // the type only: frames carry tokens and app data
    return requests.call(frame, ...rest)
  }
  const subscriptions = createSubscriptions({
    channels,
    call,
    maxBytes: () => maxBytes,
    resumed: () => resumed,
    done() {
      requests.ready = true
      requests.flush()
    },
    error,
  })
  const watchdog = createWatchdog(() => dead('heartbeat_timeout'))
  const refresher = createTokenRefresh({
    auth,
    current: () => token,
    send: (t, onReply) =>
      call({ type: 'auth', token: t }, (reply) => {
        if (reply.type === 'authed') token = t
        onReply(reply)
      }),
    error,
  })

  function setState(current: ConnectionState, reason: string, extra?: Pick<StateChange, 'retryInMs' | 'error'>) {
    if (current === state && current !== 'reconnecting') return
    const previous = state
    state = current
    log(`${previous} -> ${current} ${reason}`)
    events.emit('state', { previous, current, reason, ...extra })
  }

  function dead(reason: string) {
    if (stopped || !transport) return
    ours = reason
    transport.restart(reason)
  }

  // Called by the transport before each attempt: our jittered delay, the network, then a token.
  async function gate(): Promise<string> {
    const gen = generation
    // Every stop() bumps the generation; the transport opens nothing for a stale attempt.
    const over = () => gen !== generation
    for (;;) {
      if (nextDelay > 0) await waiter.wait(nextDelay)
      nextDelay = 0
      if (over()) return url
      if (isOffline()) {
        setState('disconnected', 'offline')
        await waiter.wait(Infinity)
        continue
      }
      try {
        const t = await auth.getToken()
        if (over()) return url
        token = t
        if (!isOffline()) return url
      } catch (e) {
        if (over()) return url
        const temporary = (e as { code?: string }).code === 'token_endpoint_unavailable'
        const err = asError(e, 'token_unavailable', temporary)
        if (!temporary) {
          fail(err, 'auth_failed')
          return url
        }
        error(err)
        nextDelay = backoff.next()
        setState('reconnecting', 'token_unavailable', { retryInMs: nextDelay, error: err })
      }
    }
  }

  function onOpen() {
    seq++
    ours = undefined
    const t = token
    if (!t) return dead('no_token')
    // A first connection has no `resume`: JSON leaves an undefined field out.
    call(
      { type: 'connect', token: t, resume: connectionId ? { connectionId } : undefined },
      (reply) => {
        if (reply.type !== 'connected') return error(toError(reply.error)) // the close that follows decides
        connectionId = reply.connectionId as string
        maxBytes = reply.maxMessageBytes as number
        grace = Math.min(MAX_GRACE_MS, reply.heartbeatMs as number)
        resumed = reply.resumed === true
        watchdog.start(reply.heartbeatMs as number, grace)
        refresher.schedule(reply.expiresIn as number)
        backoff.up()
        setState('connected', resumed ? 'resumed' : 'connected')
        subscriptions.sync()
      },
      HANDSHAKE_TIMEOUT_MS,
      'handshake_timeout',
    )
  }

  function onMessage(data: unknown) {
    watchdog.seen()
    const frame = parseFrame(data, MAX_INBOUND_CHARS)
    if (frame instanceof RealtimeError) return error(frame)
    log(`<- ${frame.type}`)
    if (frame.id !== undefined && requests.reply(frame)) return
    // An error nothing waits for is the app's; a reply nothing waits for is dropped.
    if (frame.type === 'error') error(toError(frame.error))
    else if (frame.id === undefined && frame.type !== 'heartbeat') channels.get(frame.channel as string)?.message(frame)
  }

  function onClose(code: number, reason: string) {
    const why = ours
    const wasUp = state === 'connected' // this socket reached `connected` (every close moves the state on)
    ours = undefined
    watchdog.stop()
    refresher.stop()
    requests.lost()
    subscriptions.lost()
    for (const ch of channels.values()) ch.suspend()
    log(`closed ${code} ${reason}`)
    if (stopped) return
    const action = closeAction(code, reason)
    if (why === undefined && action.kind === 'fatal')
      return fail(rtError(action.name, `Service closed: ${action.name}`))
    if (action.kind === 'reauth') auth.invalidate(token)
    token = undefined
    // 4100 means "at once, with a fresh token", but only for a token that ran out during the session:
    // refused at the handshake, the fresh token was expired already (a backend clock off), so back off.
    nextDelay = action.delayMs === 0 && !wasUp ? backoff.next() : (action.delayMs ?? backoff.next())
    if (isOffline()) setState('disconnected', 'offline')
    else setState('reconnecting', why ?? action.name, { retryInMs: nextDelay })
  }

  function stop() {
    stopped = true
    generation++
    unwatch?.()
    unwatch = undefined
    transport?.stop()
    waiter.wake()
  }

  function fail(err: RealtimeError, reason = err.code) {
    stop()
    setState('failed', reason, { error: err })
    error(err)
    requests.clear(err)
  }

  /** The app used the client: connect unless told not to. */
  function autoConnect() {
    if (state === 'idle' && options.autoConnect !== false) connect()
  }

  function changed() {
    autoConnect()
    if (syncQueued) return
    syncQueued = true
    // Channels (un)subscribed in the same tick share one frame.
    queueMicrotask(() => {
      syncQueued = false
      if (state === 'connected') subscriptions.sync()
    })
  }

  function request(...args: Parameters<typeof requests.request>) {
    if (state === 'closed' || state === 'failed') return Promise.reject(rtError(state, `Client ${state}`))
    autoConnect()
    return requests.request(...args)
  }

  /** Nothing to wait out before the next attempt (a new start, the network is back). */
  function rewind() {
    backoff.reset()
    nextDelay = 0
  }

  function connect() {
    if (!stopped) return
    const WS = options.WebSocket ?? (globalThis as { WebSocket?: unknown }).WebSocket
    if (!WS) return fail(rtError('no_websocket', 'No WebSocket: pass options.WebSocket'))
    stopped = false
    rewind()
    unwatch = watchPage({
      online() {
        rewind()
        waiter.wake()
        probe()
      },
      offline: () => dead('offline'),
      visible: probe,
    })
    // A fatal close code stops it through onClose (fail).
    transport ??= createTransport({ url: gate, WebSocket: WS, onOpen, onMessage, onClose })
    setState('connecting', 'connect')
    transport.start()
  }

  /** The page came back (visible, online): is the link still alive? No pong within grace means no. */
  function probe() {
    if (state === 'connected') call({ type: 'ping' }, undefined, grace, 'ping_timeout')
  }

  return {
    get state() {
      return state
    },
    get connectionId() {
      return connectionId
    },
    channel(name) {
      if (typeof name !== 'string' || !CHANNEL_NAME.test(name))
        throw new ValidationError('channel', `must match ${CHANNEL_NAME}`)
      let ch = channels.get(name)
      if (!ch) channels.set(name, (ch = createChannel(name, { request, changed, error })))
      return ch
    },
    connect,
    close() {
      // Leave presence at once rather than after the service's grace.
      if (state === 'connected')
        for (const ch of channels.values()) if (ch.presence.entered) call({ type: 'presence.leave', channel: ch.name })
      stop()
      setState('closed', 'close')
      requests.clear(rtError('closed', 'Client closed'))
    },
    on: events.on,
  }
}
