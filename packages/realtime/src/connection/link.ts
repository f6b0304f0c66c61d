import { DEV } from '@tandem/contract/dev'
import type { RealtimeError } from '@tandem/core'
import type { SafeEmitter } from '@tandem/core/internal'
import type { ChannelImpl } from '../channels/channel.js'
import { createSubscriptions } from '../channels/subscriptions.js'
import { ValidationError, clampDelay, createBackoff, fullJitter } from '../core.js'
import { DEBUG_LOG, silent, type DebugLog } from '../debug/log.js'
import type { FrameTap } from '../parts.js'
import {
  BACKOFF,
  HANDSHAKE_TIMEOUT_MS,
  HEARTBEAT,
  MAX_GRACE_MS,
  MAX_INBOUND_CHARS,
  MAX_MESSAGE_BYTES,
  MAX_QUEUED,
  QUEUE_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
} from '../defaults.js'
import type { RealtimeOptions, TabsLink } from '../realtime-options.js'
import { createRequests, type Requests } from '../requests/requests.js'
import type { RealtimeEvents } from '../types.js'
import { createConnection, type Connection } from './connection.js'
import type { ConnectionEvent } from './connection-types.js'
import { parseFrame, rtError, toError, type ClientFrame } from './protocol.js'
import { createTokenRefresh } from './token-refresh.js'

// The connection as the client's channels use it: the runner (connection.ts, the socket and its
// timers), the requests over it, the handshake, the in-band token refresh, and the channels'
// subscriptions on each connection. realtime.ts gives it the channel table and wires the rest.

export interface Link {
  /** The runner: the public state, the machine's own (its context: the attempt, the last error). */
  readonly conn: Connection
  /** What the service told us of this session (`connected`); the id outlives attempts, for resume. */
  readonly session: { connectionId: string | undefined; maxBytes: number; resumed: boolean }
  /** An app request: connects first, refused at once by a closed or failed client. */
  request: Requests['request']
  /** A channel's lease count went from 0 to 1 or back: connect unless told not to, and (un)subscribe in the next batch. */
  changed: () => void
  /** Leaves presence where this client entered it, closes the socket and rejects what waits. */
  close: () => void
  /** Logged, then told to the app (`error` events). */
  error: (error: RealtimeError) => void
  /** The client's backoff for retry `attempt` (0, 1, …): a gap's history read, a rate-limited request. */
  retryDelay: (attempt: number) => number
  /** Sets the frame tap (watchFrames): undefined, none, and nothing is done per frame. */
  tap: (tap: FrameTap | undefined) => void
}

/**
 * The link to `url`, on `on` (the page's own token provider and WebSocket, or a shared tab's),
 * for the channels of `channels`; it tells the app through `events`.
 */
export function createLink(
  url: string,
  on: TabsLink,
  options: RealtimeOptions,
  events: SafeEmitter<RealtimeEvents>,
  channels: Map<string, ChannelImpl>,
): Link {
  const { auth } = on
  const { debug, random } = options
  const backoff = { ...BACKOFF, ...options.backoff }
  const session = {
    connectionId: undefined as string | undefined,
    maxBytes: MAX_MESSAGE_BYTES as number,
    resumed: false,
  }
  let graceMs = 0
  let tap: FrameTap | undefined
  const dispatch = (event: ConnectionEvent) => conn.dispatch(event)
  const retryDelay = (attempt: number) => fullJitter(attempt, backoff.baseMs, backoff.capMs, random)

  // A JavaScript app may still pass `true`, a logger or `debugLog` uncalled: refused by name, not silently ignored.
  if (debug && !(debug as Partial<DebugLog>)[DEBUG_LOG])
    throw new ValidationError(
      'debug',
      DEV && process.env.NODE_ENV !== 'production' && 'takes debugLog() from @tandem/realtime/debug',
    )
  const log = debug ? debug(() => session.connectionId) : silent
  const error = (e: RealtimeError) => {
    log(`error ${e.code} ${e.message}`)
    events.emit('error', e)
  }

  const conn = createConnection({
    url,
    auth,
    WebSocket: on.WebSocket,
    backoff: createBackoff(backoff, random),
    events,
    log,
    link: {
      opened: handshake,
      message,
      lost() {
        refresher.stop()
        requests.lost()
        subscriptions.lost()
        for (const ch of channels.values()) ch.suspend()
      },
      resync: () => subscriptions.sync(),
      flush: () => requests.flush(),
      probe,
      failed: (e) => requests.clear(e),
      error,
    },
  })
  const requests = createRequests({
    write(text) {
      const sent = conn.send(text)
      if (sent) tap?.('out', text)
      return sent
    },
    dead: (reason) => dispatch({ type: 'drop', reason }),
    // App requests wait for the handshake and the resubscribe (the machine's `resyncing`).
    ready: () => conn.machine.name === 'connected',
    error,
    seq: () => conn.machine.context.attempt?.n ?? 0,
    maxBytes: () => session.maxBytes,
    maxQueued: options.maxQueued ?? MAX_QUEUED,
    timeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    queueTimeoutMs: options.queueTimeoutMs ?? QUEUE_TIMEOUT_MS,
    // A request refused for the rate limit the `n`th time.
    retryFloor: (n) => retryDelay(n - 1),
    serverMaxMs: backoff.serverMaxMs,
    // What a request that times out was waiting on, for its error.
    reason: () => (conn.state === 'connected' ? undefined : conn.machine.context.lastError),
  })
  const call: Requests['call'] = (frame, ...rest) => {
    log(`-> ${frame.type}`) // the type only: frames carry tokens and app data
    return requests.call(frame, ...rest)
  }
  const subscriptions = createSubscriptions({
    channels,
    call,
    maxBytes: () => session.maxBytes,
    resumed: () => session.resumed,
    done: () => dispatch({ type: 'synced' }),
    error,
  })
  const refresher = createTokenRefresh({
    auth,
    current: () => conn.machine.context.attempt?.token,
    send: (token, onReply) =>
      call({ type: 'auth', token }, (reply) => {
        if (reply.type === 'authed') dispatch({ type: 'authed', token })
        onReply(reply)
      }),
    error,
    backoff: createBackoff(backoff, random),
  })

  /** The socket is open: `connect` with the attempt's token (and our last connection id, to resume). */
  function handshake(token: string) {
    const { connectionId } = session
    // A first connection has no `resume`: JSON leaves an undefined field out.
    const frame: ClientFrame = { type: 'connect', token, resume: connectionId ? { connectionId } : undefined }
    call(
      frame,
      (reply) => {
        if (reply.type !== 'connected') return error(toError(reply.type === 'error' ? reply.error : undefined)) // the close that follows decides
        session.connectionId = reply.connectionId
        session.maxBytes = reply.maxMessageBytes
        // Clamped: a server's 0 would make every watchdog tick a dead link, 1e12 none ever.
        const heartbeatMs = clampDelay(reply.heartbeatMs, HEARTBEAT.minMs, HEARTBEAT.maxMs) ?? HEARTBEAT.defaultMs
        graceMs = Math.min(MAX_GRACE_MS, heartbeatMs)
        session.resumed = reply.resumed === true
        conn.watch(heartbeatMs, graceMs)
        refresher.schedule(reply.expiresIn)
        dispatch({ type: 'connected', resumed: session.resumed }) // then the machine resyncs
      },
      HANDSHAKE_TIMEOUT_MS,
      'handshake_timeout',
    )
  }

  function message(data: unknown) {
    const frame = parseFrame(data, MAX_INBOUND_CHARS)
    tap?.('in', data, frame instanceof Error)
    if (frame instanceof Error) return error(frame)
    if (debug) log(`<- ${frame.type}`) // not built per frame for nobody
    if (frame.id !== undefined && requests.reply(frame)) return
    // An error nothing waits for is the app's; a reply nothing waits for is dropped.
    if (frame.type === 'error') error(toError(frame.error))
    else if (frame.type === 'message' || frame.type === 'presence.event')
      channels.get(frame.channel)?.message(frame, (data as string).length)
  }

  /** The page came back (visible, online): is the link still alive? No pong within grace means no. */
  function probe() {
    if (conn.state === 'connected') call({ type: 'ping' }, undefined, graceMs, 'ping_timeout')
  }

  /** The app used the client: connect unless told not to. */
  function use() {
    if (conn.state === 'idle' && options.autoConnect !== false) conn.connect()
  }

  let syncQueued = false

  return {
    conn,
    session,
    /**
     * Connect first: a client that cannot work (no WebSocket, a refused token) fails now, and the
     * request is refused with that reason, not queued behind it to time out.
     */
    request(...args) {
      use()
      const { state } = conn
      const { lastError } = conn.machine.context
      if (state === 'closed')
        return Promise.reject(
          rtError(
            'closed',
            DEV && process.env.NODE_ENV !== 'production' ? 'Client closed: connect() opens it again' : 'Client closed',
          ),
        )
      if (state === 'failed')
        return Promise.reject(
          rtError(
            lastError?.code ?? 'failed',
            `Client failed: ${lastError?.message ?? 'no reason given'}`,
            false,
            lastError,
          ),
        )
      return requests.request(...args)
    },
    changed() {
      use()
      if (syncQueued) return
      syncQueued = true
      // Channels (un)subscribed in the same tick share one frame.
      queueMicrotask(() => {
        syncQueued = false
        if (conn.state === 'connected') subscriptions.sync()
      })
    },
    close() {
      // Leave presence at once rather than after the service's grace.
      if (conn.state === 'connected')
        for (const ch of channels.values()) if (ch.attached?.entered) call({ type: 'presence.leave', channel: ch.name })
      dispatch({ type: 'close' })
      requests.clear(rtError('closed', 'Client closed'))
    },
    error,
    retryDelay,
    tap(t) {
      tap = t
    },
  }
}
