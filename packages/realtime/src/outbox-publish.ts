// Publishes through a durable outbox (the `outbox` option): checked at the call as any publish is,
// so nothing that could never go is kept across reloads, then stored before they are sent.
import type { OutboxLink, RealtimeError } from '@tandem/core'
import type { Hub } from './channel-hub.js'
import { PUBLISH_TIMEOUT_MS } from './defaults.js'
import { rtError, toAck, type Ack } from './protocol.js'
import type { Requests } from './requests.js'

export function viaOutbox(outbox: OutboxLink, request: Requests['request'], check: Requests['check']): Hub['publish'] {
  // Now, once: what an earlier page stored goes as soon as this client exists.
  const stored = outbox.realtime(({ channel, event, data, idempotencyKey }) =>
    // Field by field: a stored publish may carry more (another version wrote it).
    request({ type: 'publish', channel, event, data, idempotencyKey }, { timeoutMs: PUBLISH_TIMEOUT_MS }).then(
      toAck,
      (e: RealtimeError) => {
        // The app closing the client is no refusal of the service: the publish stays, for a later connect().
        throw e.code === 'closed' ? rtError('closed', e.message, true, e) : e
      },
    ),
  )
  return ({ type, ...publish }, timing) => {
    const bad = check({ type, ...publish }, timing)
    return bad ? Promise.reject(bad) : (stored(publish) as Promise<Ack>)
  }
}
