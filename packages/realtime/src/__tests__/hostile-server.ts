// A hand-written realtime server on 127.0.0.1 that misbehaves on purpose (the emulator cannot):
// each test scripts what it answers. It speaks just enough of docs/protocol.md to get that far.
import type { AddressInfo } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'
import { createRealtime, type Realtime, type RealtimeOptions } from '../index.js'

export type Frame = { type: string; id?: number; [field: string]: unknown }

export interface Peer {
  /** 1, 2, …: which connection this is. */
  n: number
  send: (frame: Record<string, unknown>) => void
  /** A string reason is sent as it is (`{"retryAfterMs":1e400}` is JSON for Infinity); anything else as JSON. */
  close: (code: number, reason?: unknown) => void
}

export interface Script {
  /** The client's `connect`; answer `connected` with `connected(peer, frame)`. */
  connect?: (peer: Peer, frame: Frame) => void
  /** Any other request (subscribe, history, auth, …). */
  request?: (peer: Peer, frame: Frame) => void
}

export interface HostileServer {
  url: string
  /** Connections accepted so far, with their time (performance.now()). */
  connections: number[]
  /** Frames received, by type. */
  frames: Frame[]
}

const servers: WebSocketServer[] = []
const clients: Realtime[] = []
/** Closes the servers and clients made here; after each test (setup.ts). */
export async function closeHostile(): Promise<void> {
  for (const rt of clients.splice(0)) rt.close()
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
}

/** `connected` as the service sends it, with these fields overridden. */
export function connected(peer: Peer, frame: Frame, fields: Record<string, unknown> = {}): void {
  peer.send({
    type: 'connected',
    id: frame.id,
    connectionId: `conn_${peer.n}`,
    heartbeatMs: 60_000,
    maxMessageBytes: 65_536,
    expiresIn: 600,
    resumed: false,
    ...fields,
  })
}

/** `subscribed` for every channel of a subscribe frame, each at epoch e1, offset 0, nothing missed. */
export function subscribedAll(peer: Peer, frame: Frame): void {
  const channels = frame.channels as { channel: string }[]
  peer.send({
    type: 'subscribed',
    id: frame.id,
    channels: channels.map(({ channel }) => ({ channel, epoch: 'e1', offset: 0, recovered: true, missed: [] })),
  })
}

export async function hostileServer(script: Script): Promise<HostileServer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  servers.push(wss)
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const server: HostileServer = {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}/realtime`,
    connections: [],
    frames: [],
  }
  wss.on('connection', (socket) => {
    server.connections.push(performance.now())
    const peer: Peer = {
      n: server.connections.length,
      send: (frame) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(frame)),
      close: (code, reason) =>
        socket.close(code, reason === undefined || typeof reason === 'string' ? reason : JSON.stringify(reason)),
    }
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame
      server.frames.push(frame)
      if (frame.type === 'connect') (script.connect ?? ((p, f) => connected(p, f)))(peer, frame)
      else script.request?.(peer, frame)
    })
  })
  return server
}

/** A client of the hostile server on `ws`, closed after the test; counts its token fetches. */
export function hostileClient(server: HostileServer, options: RealtimeOptions = {}, expiresIn = 600) {
  const stats = { tokens: 0 }
  const rt = createRealtime(
    {
      auth: {
        fetchToken: async () => {
          stats.tokens++
          return { token: `tok_${stats.tokens}`, expiresIn }
        },
      },
      url: server.url,
    },
    { WebSocket, ...options },
  )
  clients.push(rt)
  return Object.assign(rt, { stats })
}

/** Real time passes (bounded): for tests that count what a client does in a window. */
