// The handshake (docs/protocol.md, "Handshake"): a `connect` frame's token, an optional resume,
// then `connected`. The frame already matched ConnectFrame (spec/frame-inputs.ts).
import { CLOSE, type ClientFrame } from '@tandem/contract'
import type { Connection } from './connection.js'
import type { RequestId } from './frames.js'
import type { RequestHub } from './request-hub.js'

export async function handshake(
  hub: RequestHub,
  conn: Connection,
  frame: Extract<ClientFrame, { type: 'connect' }>,
  id: RequestId,
): Promise<void> {
  conn.state = 'verifying'
  const identity = await hub.gate.verify(frame.token)
  if (conn.state !== 'verifying') return // closed while we verified
  if (typeof identity === 'string') return hub.close(conn, CLOSE[identity])

  const previous = frame.resume?.connectionId
  let resumed = false
  if (previous !== undefined) {
    // The server may not have noticed the old socket die yet (half-open): it is replaced.
    const live = hub.open.get(previous)
    if (live?.identity?.app === identity.app && live.identity.subject === identity.subject) hub.terminate(live)
    const held = hub.presence.takeOver(previous, identity.app, identity.subject)
    if (held) {
      conn.id = previous
      for (const name of held) conn.presence.add(name)
      if (held.size > 0) hub.presence.confirmLater(conn)
      resumed = true
    }
  }
  hub.open.set(conn.id, conn)
  conn.opened(identity)
  const { heartbeatMs, maxMessageBytes } = hub.options
  conn.push({
    type: 'connected',
    id,
    connectionId: conn.id,
    heartbeatMs,
    maxMessageBytes,
    expiresIn: conn.expiresIn(),
    resumed,
  })
  hub.emit({ type: 'open', connectionId: conn.id, subject: identity.subject, app: identity.app })
}
