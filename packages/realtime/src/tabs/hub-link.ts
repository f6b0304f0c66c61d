// The hub's one socket to the service (partysocket, one attempt: the tabs' clients own the backoff
// and reconnect through the hub), and what the hub keeps of it.
import type { ClientFrame } from '@tandem/contract'
import ReconnectingWebSocket from 'partysocket/ws'
import { OPEN_TIMEOUT_MS } from '../defaults.js'
import type { FrameOf, ServerFrame } from '../connection/protocol.js'
import type { Peer } from './hub-peers.js'

export type Id = string | number
export type ConnectFrame = Extract<ClientFrame, { type: 'connect' }>
export type AuthFrame = Extract<ClientFrame, { type: 'auth' }>
/** A frame to the service, before the hub gives it an id of its own. */
type Unsent<F> = F extends unknown ? Omit<F, 'id'> : never
export type Outgoing = Unsent<ClientFrame>

/** Where the service's reply goes: back to a peer under its own id, or to the hub (`then`). */
export interface Pending {
  peer?: Peer
  id?: Id
  then?: (f: ServerFrame) => void
}

/** The service's `connected` reply, and when it came. */
export interface Session {
  frame: FrameOf<'connected'>
  at: number
}

export interface Link {
  rws: ReconnectingWebSocket
  /** When it was opened. */
  at: number
  open: boolean
  handshaking: boolean
  /** The token the service's connection runs on (the handshake's, then each in-band refresh's). */
  token?: string
  /** An in-band refresh on its way: the tabs that asked for the same token wait for its answer. */
  authing?: { token: string; waiting: [Peer, Id][] }
  /** The service's `connected` reply, and when it came. */
  session?: Session
  /** Tab sockets whose `connect` waits for the handshake. */
  waiting: [Peer, ConnectFrame][]
}

export interface LinkEvents {
  open: () => void
  message: (data: unknown) => void
  close: (event: { code: unknown; reason: unknown }) => void
}

export function openLink(url: string, WebSocket: unknown, on: LinkEvents): Link {
  const rws = new ReconnectingWebSocket(url, undefined, {
    WebSocket,
    maxRetries: 0,
    maxEnqueuedMessages: 0,
    connectionTimeout: OPEN_TIMEOUT_MS,
  })
  rws.addEventListener('open', on.open)
  rws.addEventListener('message', (e) => on.message(e.data))
  rws.addEventListener('close', on.close)
  return { rws, at: Date.now(), open: false, handshaking: false, waiting: [] }
}
