// The service's session as the hub shares it: each tab is told the `connected` it would have had,
// and the token is refreshed in-band once for all tabs.
import type { AuthFrame, ConnectFrame, Link, Outgoing, Pending, Session } from './hub-link.js'
import type { Peer } from './hub-peers.js'

/** What is left of the connection's token lifetime, in the service's seconds. */
const remaining = ({ frame, at }: Session) => Math.max(0, frame.expiresIn - Math.floor((Date.now() - at) / 1000))

/** The service's `connected`, for one tab: its presence was kept if it last ran on this very connection. */
export const connectedFor = (session: Session, f: ConnectFrame, gaveUp: boolean) => ({
  ...session.frame,
  id: f.id,
  expiresIn: remaining(session),
  resumed: !gaveUp && f.resume?.connectionId === session.frame.connectionId,
})

export interface RefreshHub {
  send(frame: Outgoing, to: Pending): void
  reply(peer: Peer, frame: object): void
  /** The peer is still open. */
  alive(peer: Peer): boolean
}

/**
 * One in-band refresh per token for all tabs: a tab that brings the token the connection already
 * runs on (another tab refreshed first) is answered here; one that brings the token being
 * refreshed waits for that answer.
 */
export function refresh(l: Link | undefined, p: Peer, f: AuthFrame, hub: RefreshHub): void {
  if (!l?.session) return
  if (f.token === l.token) return hub.reply(p, { type: 'authed', id: f.id, expiresIn: remaining(l.session) })
  const under = l.authing
  if (under && under.token === f.token) return void under.waiting.push([p, f.id])
  const authing: NonNullable<Link['authing']> = { token: f.token, waiting: [[p, f.id]] }
  l.authing = authing
  hub.send(f, {
    then(answer) {
      if (l.authing === authing) l.authing = undefined
      if (answer.type === 'authed') l.token = f.token
      for (const [q, id] of authing.waiting) if (hub.alive(q)) hub.reply(q, { ...answer, id })
    },
  })
}
