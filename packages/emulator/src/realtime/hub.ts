// The hub: sockets on `/realtime/v1/ws`, the handshake, channels per app, and publishing (shared with REST).
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type Server as WsServer } from 'ws'
import type { WebhookModule } from '../webhooks/module.js'
import type { EmulatorApp } from '../shared-types.js'
import { hasCredentialParam, isBrowser, keyFromBrowser, keyInUrl } from '../auth.js'
import type { Ack, Channel } from './channel-state.js'
import { ChannelTable } from './channel-table.js'
import { Connection, type ConnectionEnv } from './connection.js'
import { CLOSE } from '@tandem/contract'
import { DEFAULTS } from './defaults.js'
import { frameChecks } from '../spec/frame-inputs.js'
import { memberChecks } from '../spec/member-inputs.js'
import { parseFrame, RtError, type Parsed } from './frames.js'
import { handshake } from './handshake.js'
import type { MemberPolicy } from './member-policy.js'
import type { ResolvedOptions } from './options.js'
import { Presence, type PresenceEnv } from './presence.js'
import type { RequestHub } from './request-hub.js'
import { handleRequest } from './requests.js'
import { SizedSocket } from './sized-socket.js'
import { TokenGate } from './token-auth.js'
import type { RealtimeEvent, RealtimeStats, StoredMessage } from './types.js'

export const emptyStats = (): RealtimeStats => ({
  connections: { open: 0, total: 0 },
  framesIn: {},
  framesOut: {},
  publishes: 0,
  subscribes: 0,
})

export class Hub implements ConnectionEnv, PresenceEnv, RequestHub {
  readonly stats = emptyStats()
  readonly presence = new Presence(this)
  readonly gate: TokenGate
  /** Every socket, from upgrade to close (handshaking ones too). */
  readonly sockets = new Set<Connection>()
  /** Handshaken connections by id. */
  readonly open = new Map<string, Connection>()
  /** By channel name: what the service owning a channel does with its member data (member-policy.ts). */
  readonly policies = new Map<string, MemberPolicy>()
  paused = false
  delayMs = 0
  private channels: ChannelTable
  private listeners = new Set<(event: RealtimeEvent) => void>()
  private wss: WsServer<typeof SizedSocket>
  private detachers: (() => void)[] = []
  private sweeper: NodeJS.Timeout

  constructor(
    readonly options: ResolvedOptions,
    apps: ReadonlyMap<string, EmulatorApp>,
    private readonly webhooks: WebhookModule,
  ) {
    this.gate = new TokenGate(apps)
    // The AsyncAPI frame and member schemas, compiled now rather than on the first frame.
    frameChecks()
    memberChecks()
    const { historySize, historyTtlMs } = options
    const dedupeMs = Math.max(historyTtlMs, DEFAULTS.minDedupeMs)
    const limits = { historySize, historyTtlMs, dedupeMs, maxDedupeKeys: DEFAULTS.maxDedupeKeys }
    this.channels = new ChannelTable(limits, DEFAULTS.maxTombstones)
    // Channels whose last message left the dedupe window are forgotten; the sweep never holds the process open.
    this.sweeper = setInterval(() => this.channels.sweep(), DEFAULTS.sweepMs)
    this.sweeper.unref()
    // ws refuses a bigger frame from its header alone; SizedSocket makes that close 4009.
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxMessageBytes,
      clientTracking: false,
      WebSocket: SizedSocket,
    })
  }

  /** Takes the server's upgrades for our path only: other paths (Vite's HMR) belong to others. */
  attach(server: Server): void {
    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '/').split('?')[0]
      if (path !== DEFAULTS.path) {
        // Alone on this server (startEmulator), nobody else will answer: say so rather than hang.
        if (server.listenerCount('upgrade') === 1)
          socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return
      }
      socket.on('error', () => socket.destroy())
      // The socket takes only tokens (in its `connect` frame). A key in its URL gets the same clear
      // refusal as over REST (403 from a page, 401 `key_in_url` from a server), not an upgrade.
      if (hasCredentialParam(new URLSearchParams((req.url ?? '').split('?')[1]))) {
        const { status, code, message } = isBrowser(req.headers) ? keyFromBrowser() : keyInUrl()
        const body = JSON.stringify({ error: { code, message, status } })
        return void socket.end(
          `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        )
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws))
    }
    server.on('upgrade', onUpgrade)
    this.detachers.push(() => server.off('upgrade', onUpgrade))
  }

  shutdown(): void {
    clearInterval(this.sweeper)
    for (const detach of this.detachers.splice(0)) detach()
    this.dropAll()
    this.presence.clear()
    this.wss.close()
  }

  /** Back to nothing: sockets closed (4200), channels, revocations and counters gone. */
  reset(): void {
    for (const conn of [...this.sockets]) this.close(conn, CLOSE.server_restart)
    this.presence.clear()
    this.channels.clear()
    this.gate.reset()
    this.paused = false
    this.delayMs = 0
    Object.assign(this.stats, emptyStats())
  }

  // ---- ConnectionEnv / PresenceEnv ----

  emit(event: RealtimeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch (err) {
        console.error('[tandem-emulator] realtime listener threw:', err)
      }
    }
  }

  on(listener: (event: RealtimeEvent) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  heartbeatsPaused = (): boolean => this.paused
  frameDelayMs = (): number => this.delayMs
  graceMs = (): number => this.options.presenceGraceMs

  /** Server-side close: the close frame, then the same cleanup as when the peer goes. */
  close(conn: Connection, code: number, retryAfterMs?: number): void {
    conn.close(code, retryAfterMs)
    this.release(conn, code)
  }

  terminate(conn: Connection): void {
    conn.terminate()
    this.release(conn, 1006)
  }

  // ---- channels ----

  channel = (app: string, name: string): Channel | undefined => this.channels.get(app, name)
  ensureChannel = (app: string, name: string): Channel => this.channels.ensure(app, name)
  channelsOf = (app: string): Channel[] => this.channels.of(app)
  /** A channel name across every app (test controls), or all channels. */
  channelsNamed = (name?: string): Channel[] => this.channels.named(name)
  /** Forgets `channel` if nobody is on it and it holds nothing anyone could ask about (channel-table.ts). */
  dropIfIdle = (channel: Channel): void => void this.channels.release(channel)
  /** A restart of `name` (or all): forgotten channels of that name start a new epoch too. */
  forgetPositions = (name?: string): void => this.channels.forget(name)

  subscribe(conn: Connection, channel: Channel): void {
    conn.subscriptions.add(channel.name)
    if (channel.subscribers.has(conn)) return
    channel.subscribers.add(conn)
    if (channel.subscribers.size === 1)
      this.webhooks.dispatch(channel.app, { type: 'channel.occupied', data: { channel: channel.name } })
  }

  unsubscribe(conn: Connection, channel: Channel): void {
    conn.subscriptions.delete(channel.name)
    if (conn.presence.delete(channel.name)) this.presence.leave(conn.id, channel)
    if (channel.subscribers.delete(conn) && channel.subscribers.size === 0) {
      this.webhooks.dispatch(channel.app, { type: 'channel.vacated', data: { channel: channel.name } })
    }
    this.dropIfIdle(channel)
  }

  /**
   * Stores and fans out one message (WebSocket and REST alike). `onAck` runs before the
   * broadcast, so a publisher hears its ack before its own copy of the message.
   */
  publish(
    app: string,
    name: string,
    event: string,
    data: unknown,
    clientId: string,
    key: string | undefined,
    onAck?: (ack: Ack) => void,
  ): Ack {
    const value = data === undefined ? null : data
    if (Buffer.byteLength(JSON.stringify(value)) > this.options.maxMessageBytes) {
      throw new RtError('message_too_large', `"data" must serialise to at most ${this.options.maxMessageBytes} bytes.`)
    }
    const channel = this.ensureChannel(app, name)
    const { ack, message } = channel.append(event, value, clientId, key)
    onAck?.(ack)
    if (message) {
      this.stats.publishes++
      channel.broadcast({ type: 'message', ...message })
      this.webhooks.dispatch(app, { type: 'message.published', data: message satisfies StoredMessage })
    }
    return ack
  }

  // ---- sockets ----

  dropAll(): void {
    for (const conn of [...this.sockets]) this.terminate(conn)
  }

  private onConnection(ws: SizedSocket): void {
    const conn = new Connection(ws, this)
    this.sockets.add(conn)
    this.stats.connections.open++
    this.stats.connections.total++
    ws.on('message', (data, isBinary) => this.onFrame(conn, data, isBinary))
    ws.on('close', (code) => this.release(conn, code))
    ws.on('error', () => {}) // 'close' follows and cleans up; without a listener 'error' would throw
  }

  private onFrame(conn: Connection, data: RawData, isBinary: boolean): void {
    conn.seen()
    if (conn.blackholed || conn.state === 'closed') return
    // Size: ws closed anything over maxMessageBytes already (sized-socket.ts).
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
    const parsed: Parsed = isBinary
      ? {
          error: new RtError('bad_request', 'Frames are JSON text, not binary.'),
          id: undefined,
          kind: 'invalid',
          value: undefined,
        }
      : parseFrame(bytes.toString('utf8'))
    this.stats.framesIn[parsed.kind] = (this.stats.framesIn[parsed.kind] ?? 0) + 1
    this.emit({
      type: 'in',
      connectionId: conn.identity ? conn.id : undefined,
      frame: parsed.value ?? { type: 'invalid' },
    })

    if (conn.state !== 'open') {
      // Until `connected`, the only acceptable frame is one valid `connect`.
      if (conn.state === 'handshake' && 'frame' in parsed && parsed.frame.type === 'connect')
        return void handshake(this, conn, parsed.frame, parsed.id)
      return this.close(conn, CLOSE.protocol_error)
    }
    if ('error' in parsed)
      return conn.push({
        type: 'error',
        ...(parsed.id !== undefined ? { id: parsed.id } : {}),
        error: parsed.error.toBody(),
      })
    const { frame, id } = parsed
    const fail = (err: unknown) => {
      if (conn.state !== 'open') return
      if (!(err instanceof RtError)) console.error('[tandem-emulator] realtime request failed:', err)
      const error =
        err instanceof RtError ? err : new RtError('internal', 'The emulator failed to handle this request.')
      conn.push({ type: 'error', id, error: error.toBody() })
    }
    try {
      handleRequest(this, conn, frame, id)?.catch(fail)
    } catch (err) {
      fail(err)
    }
  }

  /** Once per socket, whoever closed it: subscriptions end now, presence waits out its grace. */
  private release(conn: Connection, code: number): void {
    if (!this.sockets.delete(conn)) return
    conn.stop()
    this.stats.connections.open--
    if (this.open.get(conn.id) === conn) this.open.delete(conn.id)
    const identity = conn.identity
    if (identity) {
      for (const name of conn.subscriptions) {
        const channel = this.channel(identity.app, name)
        if (!channel) continue
        if (channel.subscribers.delete(conn) && channel.subscribers.size === 0) {
          this.webhooks.dispatch(identity.app, { type: 'channel.vacated', data: { channel: name } })
        }
        this.dropIfIdle(channel) // a member held for a resume keeps it
      }
      this.presence.hold(conn)
    }
    this.emit({ type: 'close', connectionId: identity ? conn.id : undefined, code })
  }
}
