import type { RealtimeError } from '@tandem/core'
import { rtError, type ClientFrame, type Reply } from './protocol.js'

/** A request the app made (publish, history, presence): sent when it can be, retried on every new connection. */
export interface Op {
  frame: ClientFrame
  resolve: (reply: Reply) => void
  reject: (error: RealtimeError) => void
  /** Presence needs the channel subscribed on this connection first. */
  ready?: () => boolean
  /** Connection seq it was last sent on: an op sent on an older connection goes again, same frame, same idempotency key. */
  sentOn?: number
  notBefore?: number
  /** Times the service refused it for its rate limit. */
  refusals?: number
  timer?: ReturnType<typeof setTimeout>
  /** Wakes the outbox once `notBefore` has passed. */
  retry?: ReturnType<typeof setTimeout>
}

export interface Outbox {
  /** Queues `op` (deadline `timeoutMs` from now); the oldest waiting op is dropped past the bound. */
  add: (op: Op, timeoutMs: number) => void
  /** Sends, in call order, what can go on the current connection; `send` is false when the socket refused. */
  flush: (send: (op: Op) => boolean) => void
  remove: (op: Op) => void
  /** Rejects everything (closed, failed). */
  clear: (error: RealtimeError) => void
}

/** A request that got no reply by its deadline, with what it was waiting on (a reconnect's reason) as its cause. */
const timedOut = (op: Op, ms: number, why: RealtimeError | undefined) =>
  rtError('timeout', `No reply to ${op.frame.type} within ${ms} ms${why ? `: ${why.message}` : ''}`, true, why)

/** `seq()` is the current connection: ops not sent on it count as waiting. */
export function createOutbox(
  max: number,
  seq: () => number,
  onDrop: (error: RealtimeError) => void,
  reason: () => RealtimeError | undefined = () => undefined,
): Outbox {
  let ops: Op[] = []
  const remove = (op: Op) => {
    clearTimeout(op.timer)
    clearTimeout(op.retry)
    ops = ops.filter((o) => o !== op)
  }
  const drop = (op: Op, error: RealtimeError) => {
    remove(op)
    op.reject(error)
  }
  return {
    add(op, timeoutMs) {
      const waiting = ops.filter((o) => o.sentOn !== seq())
      const oldest = waiting[0]
      if (oldest && waiting.length >= max) {
        const error = rtError('queue_overflow', 'Queue full: oldest dropped', true)
        drop(oldest, error)
        onDrop(error)
      }
      op.timer = setTimeout(() => drop(op, timedOut(op, timeoutMs, reason())), timeoutMs)
      ops.push(op)
    },
    flush(send) {
      const now = Date.now()
      const current = seq()
      for (const op of ops) {
        if (op.sentOn === current || (op.notBefore ?? 0) > now || (op.ready && !op.ready())) continue
        if (!send(op)) return
        op.sentOn = current
      }
    },
    remove,
    clear(error) {
      for (const op of ops) drop(op, error) // drop() replaces `ops`: this goes through the old array
    },
  }
}
