import { CHANNEL_NAME_RULE, isChannelName } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { createBackoff } from './core.js'
import { createChannel, type ChannelImpl, type Hub } from './channel.js'
import { channelInfo } from './channel-info.js'
import { createConnection } from './connection.js'
import {
  ValidationError,
  clampDelay,
  createEmitter,
  createTokenProvider,
  fullJitter,
  type RealtimeError,
} from './core.js'
import {
  BACKOFF,
  HANDSHAKE_TIMEOUT_MS,
  HEARTBEAT,
  HELD,
  MAX_GRACE_MS,
  MAX_INBOUND_CHARS,
  MAX_MESSAGE_BYTES,
  MAX_QUEUED,
  PUBLISH_TIMEOUT_MS,
  QUEUE_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
} from './defaults.js'
import { frameTaps, type FrameTap } from './frame-tap.js'
import { createHeldBudget } from './held.js'
import { DEBUG_LOG, silent, type DebugLog } from './log.js'
import type { Saved } from './positions.js'
import { isSince, parseFrame, rtError, toError, type ClientFrame } from './protocol.js'
import { createRequests } from './requests.js'
import { createSubscriptions } from './subscriptions.js'
import { createTokenRefresh } from './token-refresh.js'
import type { RealtimeOptions, Realtime, RealtimeSource } from './realtime-options.js'
import type { Position, RealtimeEvents } from './types.js'
import { toWsUrl } from './url.js'
import { createWatchdog } from './watchdog.js'

export type {
  Realtime,
  RealtimeOptions,
  RealtimeSource,
  TabsContext,
  TabsFactory,
  TabsLink,
} from './realtime-options.js'

/**
 * What a `positions` factory left, by channel: a Map, or the plain object a factory written before
 * `Saved.channels` became one may still hand back. Only well-formed positions count.
 */
const toMap = (channels: unknown): Map<string, Position> => {
  const entries: [unknown, unknown][] =
    channels instanceof Map ? [...(channels as Map<unknown, unknown>)] : Object.entries(channels ?? {})
  return new Map(entries.filter((e): e is [string, Position] => typeof e[0] === 'string' && isSince(e[1])))
}

/**
 * @example
 * ```ts
 * const rt = createRealtime({ client }) // shares client.auth: one token provider for REST and realtime
 * const off = rt.channel('chat:lobby').subscribe('message', (m) => console.log(m.data))
 * await rt.channel('chat:lobby').publish('message', { text: 'hi' })
 * ```
 */
export function createRealtime(source: RealtimeSource, options: RealtimeOptions = {}): Realtime {
  const fromClient = 'client' in source
  const url = toWsUrl(fromClient ? source.client.baseUrls.realtime : source.url)
  // A shared connection swaps the socket (a tab socket to the leader's hub) and the tokens (the leader's).
  const own = fromClient ? source.client.auth : createTokenProvider(source.auth)
  const shared = options.tabs?.({ url, auth: own, WebSocket: options.WebSocket })
  const auth = shared?.auth ?? own
  const events = createEmitter<RealtimeEvents>()
  // Set by watchFrames (@tandem/realtime/debug) only: no public event hands out a raw frame.
  let tap: FrameTap | undefined
  const backoffOptions = { ...BACKOFF, ...options.backoff }
  const channels = new Map<string, ChannelImpl>()
  const held = createHeldBudget(options.maxHeld ?? HELD.max, options.maxHeldBytes ?? HELD.maxBytes)
  /** The client's backoff, for a request retried (`attempt` 0, 1, …): a gap's history read, a request's floor. */
  const retryDelay = (attempt: number) =>
    fullJitter(attempt, backoffOptions.baseMs, backoffOptions.capMs, options.random)
  /** What the service told us of this session (`connected`); the id outlives attempts, for resume. */
  const session = {
    connectionId: undefined as string | undefined,
    maxBytes: MAX_MESSAGE_BYTES as number,
    graceMs: 0,
    resumed: false,
  }
  let syncQueued = false
  // Positions a reloaded page left: a channel made later resumes from its own; unused ones are kept.
  const positions = options.positions?.(url, (): Saved => {
    const channelsNow = new Map(seeds)
    for (const ch of channels.values()) if (ch.position) channelsNow.set(ch.name, ch.position)
    return { connectionId: session.connectionId, channels: channelsNow }
  })
  // A Map, as every table keyed by channel names: `__proto__` and `constructor` are channel names too.
  const seeds = toMap(positions?.saved.channels)
  session.connectionId = positions?.saved.connectionId

  const { debug } = options
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
    WebSocket: shared ? shared.WebSocket : options.WebSocket,
    backoff: createBackoff(backoffOptions, options.random),
    events,
    log,
    opened: handshake,
    message,
    lost() {
      watchdog.stop()
      refresher.stop()
      requests.lost()
      subscriptions.lost()
      for (const ch of channels.values()) ch.suspend()
    },
    resync: () => subscriptions.sync(),
    flush: () => requests.flush(),
    probe,
    failed: (e) => requests.clear(e),
  })
  const requests = createRequests({
    write(text) {
      const sent = conn.send(text)
      if (sent) tap?.('out', text)
      return sent
    },
    dead: (reason) => conn.dispatch({ type: 'drop', reason }),
    // App requests wait for the handshake and the resubscribe (the machine's `resyncing`).
    ready: () => conn.machine.name === 'connected',
    error,
    seq: () => conn.machine.context.attempt?.n ?? 0,
    maxBytes: () => session.maxBytes,
    maxQueued: options.maxQueued ?? MAX_QUEUED,
    timeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    queueTimeoutMs: options.queueTimeoutMs ?? QUEUE_TIMEOUT_MS,
    retryFloor: (n) => retryDelay(n - 1),
    serverMaxMs: backoffOptions.serverMaxMs,
    // What a request that times out was waiting on, for its error.
    reason: () => (conn.state === 'connected' ? undefined : conn.machine.context.lastError),
  })
  const call: typeof requests.call = (frame, ...rest) => {
    log(`-> ${frame.type}`) // the type only: frames carry tokens and app data
    return requests.call(frame, ...rest)
  }
  const subscriptions = createSubscriptions({
    channels,
    call,
    maxBytes: () => session.maxBytes,
    resumed: () => session.resumed,
    done: () => conn.dispatch({ type: 'synced' }),
    error,
  })
  const watchdog = createWatchdog(() => conn.dispatch({ type: 'drop', reason: 'heartbeat_timeout' }))
  const refresher = createTokenRefresh({
    auth,
    current: () => conn.machine.context.attempt?.token,
    send: (token, onReply) =>
      call({ type: 'auth', token }, (reply) => {
        if (reply.type === 'authed') conn.dispatch({ type: 'authed', token })
        onReply(reply)
      }),
    error,
    backoff: createBackoff(backoffOptions, options.random),
  })

  /** The socket is open: `connect` with the attempt's token (and our last connection id, to resume). */
  function handshake(token: string) {
    const { connectionId } = session
    // A first connection has no `resume`: JSON leaves an undefined field out.
    const frame: ClientFrame = {
      type: 'connect',
      token,
      resume: connectionId ? { connectionId } : undefined,
    }
    call(
      frame,
      (reply) => {
        if (reply.type !== 'connected') return error(toError(reply.type === 'error' ? reply.error : undefined)) // the close that follows decides
        session.connectionId = reply.connectionId
        session.maxBytes = reply.maxMessageBytes
        // Clamped: a server's 0 would make every watchdog tick a dead link, 1e12 none ever.
        const heartbeatMs = clampDelay(reply.heartbeatMs, HEARTBEAT.minMs, HEARTBEAT.maxMs) ?? HEARTBEAT.defaultMs
        session.graceMs = Math.min(MAX_GRACE_MS, heartbeatMs)
        session.resumed = reply.resumed === true
        watchdog.start(heartbeatMs, session.graceMs)
        refresher.schedule(reply.expiresIn)
        conn.dispatch({ type: 'connected', resumed: session.resumed }) // then the machine resyncs
      },
      HANDSHAKE_TIMEOUT_MS,
      'handshake_timeout',
    )
  }

  function message(data: unknown) {
    watchdog.seen()
    const frame = parseFrame(data, MAX_INBOUND_CHARS)
    tap?.('in', data, frame instanceof Error)
    if (frame instanceof Error) return error(frame)
    log(`<- ${frame.type}`)
    if (frame.id !== undefined && requests.reply(frame)) return
    // An error nothing waits for is the app's; a reply nothing waits for is dropped.
    if (frame.type === 'error') error(toError(frame.error))
    else if (frame.type === 'message' || frame.type === 'presence.event')
      channels.get(frame.channel)?.message(frame, (data as string).length)
  }

  /** The page came back (visible, online): is the link still alive? No pong within grace means no. */
  function probe() {
    if (conn.state === 'connected') call({ type: 'ping' }, undefined, session.graceMs, 'ping_timeout')
  }

  /** The app used the client: connect unless told not to. */
  function autoConnect() {
    if (conn.state === 'idle' && options.autoConnect !== false) conn.connect()
  }

  function changed() {
    autoConnect()
    if (syncQueued) return
    syncQueued = true
    // Channels (un)subscribed in the same tick share one frame.
    queueMicrotask(() => {
      syncQueued = false
      if (conn.state === 'connected') subscriptions.sync()
    })
  }

  /**
   * An app request. Connect first: a client that cannot work (no WebSocket, a refused token)
   * fails now, and the request is refused with that reason, not queued behind it to time out.
   */
  const request: typeof requests.request = (...args) => {
    autoConnect()
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
  }
  // With a durable outbox, each publish is stored first and sent through `request` (again after a
  // reload); created now, so what an earlier page stored goes as soon as this client exists.
  const stored = options.outbox?.realtime((p) => request({ type: 'publish', ...p }, { timeoutMs: PUBLISH_TIMEOUT_MS }))
  const publish: Hub['publish'] = stored ?? request

  const rt: Realtime = {
    get state() {
      return conn.state
    },
    get connectionId() {
      return session.connectionId
    },
    get lastError() {
      return conn.machine.context.lastError
    },
    channel(name, since) {
      if (!isChannelName(name))
        throw new ValidationError('channel', DEV && process.env.NODE_ENV !== 'production' && CHANNEL_NAME_RULE)
      let ch = channels.get(name)
      if (!ch) {
        channels.set(
          name,
          (ch = createChannel(
            name,
            { request, publish, changed, error, held, retryDelay },
            isSince(since) ? since : seeds.get(name),
          )),
        )
        seeds.delete(name)
      }
      return ch
    },
    channels: () => [...channels.values()].map(channelInfo),
    connect() {
      positions?.attach()
      conn.connect()
    },
    close() {
      positions?.detach()
      // Leave presence at once rather than after the service's grace.
      if (conn.state === 'connected')
        for (const ch of channels.values()) if (ch.attached?.entered) call({ type: 'presence.leave', channel: ch.name })
      conn.dispatch({ type: 'close' })
      requests.clear(rtError('closed', 'Client closed'))
    },
    on: events.on,
  }
  frameTaps.set(rt, (t) => (tap = t))
  return rt
}
