// Public types of the realtime hub: its options, its test controls and the frames it stores.

export interface RealtimeOptions {
  /**
   * Server heartbeat period (announced in `connected`).
   * @default 15_000
   */
  heartbeatMs?: number
  /**
   * Messages retained per channel.
   * @default 1000
   */
  historySize?: number
  /**
   * How long a message is retained, in ms.
   * @default 120_000
   */
  historyTtlMs?: number
  /**
   * Largest frame accepted (close 4009 beyond it).
   * @default 65_536
   */
  maxMessageBytes?: number
  /**
   * Per-connection publish bucket: `limit` per `intervalMs`, holding up to `burst` (2 × limit when not given).
   * @default PUBLISH_RATE of @tandem/contract: { limit: 100, intervalMs: 1000, burst: 200 }
   */
  publishRate?: { limit: number; intervalMs: number; burst?: number }
  /**
   * Per-connection presence bucket (`presence.enter`, `presence.update`), apart from the publish
   * bucket: `limit` per `intervalMs`, holding up to `burst` (2 × limit when not given).
   * @default PRESENCE_RATE of @tandem/contract: { limit: 10, intervalMs: 1000, burst: 20 }
   */
  presenceRate?: { limit: number; intervalMs: number; burst?: number }
  /**
   * How long a dead socket's presence is kept for a resume, in ms.
   * @default 3000
   */
  presenceGraceMs?: number
  /**
   * Time from opening to `connect` (close 4203 after), in ms.
   * @default 10_000
   */
  handshakeTimeoutMs?: number
}

export interface Member {
  clientId: string
  connectionId: string
  data: unknown
}

export interface StoredMessage {
  channel: string
  event: string
  data: unknown
  offset: number
  epoch: string
  messageId: string
  clientId: string
  ts: number
}

export interface RealtimeStats {
  connections: { open: number; total: number }
  /** Frames received by `type` (`invalid` for frames that could not be read). */
  framesIn: Record<string, number>
  /** Frames sent by `type`. */
  framesOut: Record<string, number>
  publishes: number
  subscribes: number
}

/** What the hub reports to `on()` listeners and `waitFor()` (every event re-checks the predicate). */
export type RealtimeEvent =
  | { type: 'open'; connectionId: string; subject: string; app: string }
  | { type: 'close'; connectionId: string | undefined; code: number }
  | { type: 'in'; connectionId: string | undefined; frame: Record<string, unknown> }
  | { type: 'out'; connectionId: string | undefined; frame: Record<string, unknown> }
  | { type: 'presence'; app: string; channel: string; action: 'enter' | 'update' | 'leave'; member: Member }

export interface DropOptions {
  /** Only this subject's sockets; all when omitted. */
  subject?: string
  /** Close code; default 4201 `connection_dropped`. */
  code?: number
  /** Destroy the TCP socket without a close frame (an abnormal 1006 for the client). */
  raw?: boolean
}

/** Test controls of the hub (`emu.realtime`). Channel names apply across apps. */
export interface RealtimeControls {
  /** Closes matching sockets; returns how many. */
  dropConnections(options?: DropOptions): number
  pauseHeartbeats(): void
  resumeHeartbeats(): void
  /** A half-open link: matching sockets get nothing more and their input is ignored, but stay open. Returns how many. */
  blackhole(subject?: string): number
  /**
   * New epoch and no history for `channel` (or every channel). `dropConnections` (default:
   * true when no channel is given) also closes every socket with 4200 `server_restart`.
   */
  restart(options?: { channel?: string; dropConnections?: boolean }): void
  /** Delay every outgoing frame by `ms` (0 to stop); order is kept. */
  delayFrames(ms: number): void
  /** Keep only the newest `keepLast` retained messages of `channel`. */
  trimHistory(channel: string, keepLast: number): void
  /** Close the subject's sockets with 4102 and refuse every token it holds now (new tokens work). */
  revoke(subject: string): number
  /**
   * Publishes as the service would on a client's behalf: stored, sequenced and fanned out like
   * any publish, with no token and no publish bucket (a dev server's "flood" button, a bench's
   * feed). `app` defaults to the first app; `clientId` to `server`.
   */
  publish(
    channel: string,
    event: string,
    data: unknown,
    options?: { app?: string; clientId?: string },
  ): { offset: number; epoch: string; messageId: string }
  /** Live counters (mutated in place). */
  readonly stats: RealtimeStats
  /** Listen to hub events; returns an unsubscribe function. */
  on(listener: (event: RealtimeEvent) => void): () => void
  /** Resolves once `predicate` holds (checked now and after every hub event); rejects after `timeoutMs` (default 5000). */
  waitFor(predicate: (event: RealtimeEvent | undefined) => boolean, options?: { timeoutMs?: number }): Promise<void>
}
