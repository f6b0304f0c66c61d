import { DEV } from '@tandem/contract/dev'
import type { RealtimeError } from '@tandem/core'
import { MAX_TIMER_MS, ValidationError } from '../core.js'
import { rtError, type ClientFrame, type Reply } from '../connection/protocol.js'

/** How long a request may take: waiting for a connection, then waiting for its reply. */
export interface Timing {
  /** The reply's deadline, counted from each send (a resend after a reconnect starts it again). */
  timeoutMs: number
  /** How long it may wait to be sent, counted from the call (the app's "queued until the connection is back"). */
  queueTimeoutMs: number
}

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
  /** Epoch ms by which it must have been sent (set by `add`). */
  sendBy?: number
  timing?: Timing
  /** The queue deadline while it waits, the reply deadline once sent. */
  timer?: ReturnType<typeof setTimeout>
  /** Wakes the send queue once `notBefore` has passed. */
  retry?: ReturnType<typeof setTimeout>
  /** Settled and out of the send queue. */
  done?: boolean
  /** Written to a socket at least once: it may have been stored, so it is never said to be "not sent". */
  sent?: boolean
  /** The service's last refusal (rate_limited), what it fails with if its queue deadline passes. */
  refusal?: RealtimeError
}

export interface SendQueue {
  /** Queues `op`; the oldest waiting op is dropped past the bound. */
  add: (op: Op, timing: Timing) => void
  /** Sends, in call order, what can go on the current connection; `send` is false when the socket refused. */
  flush: (send: (op: Op) => boolean) => void
  /**
   * A sent op waits again (its socket is gone, or the service refused it for now: `refusal`): the
   * queue deadline applies again, and says what happened to it.
   */
  requeue: (op: Op, refusal?: RealtimeError) => void
  /** The socket is gone: every sent op waits again. */
  lost: () => void
  remove: (op: Op) => void
  /** Rejects everything (closed, failed). */
  clear: (error: RealtimeError) => void
}

/** A deadline option: a number of ms above 0 (`Infinity`: as long as a timer can wait, about 24 days). */
export function checkMs(name: string, value: unknown): ValidationError | undefined {
  return value === undefined || (typeof value === 'number' && value > 0)
    ? undefined
    : new ValidationError(name, DEV && process.env.NODE_ENV !== 'production' && 'must be a number of ms above 0')
}

/** setTimeout fires at once past 2^31 - 1 ms. */
const later = (fn: () => void, ms: number) => setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS))

/** A request sent that got no reply by its deadline. */
const timedOut = (op: Op, ms: number) => rtError('timeout', `No reply to ${op.frame.type} within ${ms} ms`, true)

/** A request sent whose socket dropped before the reply, and that could not go again in time. */
const unanswered = (op: Op, _ms: number, why: RealtimeError | undefined) =>
  rtError(
    'timeout',
    `No reply to ${op.frame.type}: ${DEV && process.env.NODE_ENV !== 'production' ? 'its connection dropped after the send; it may be stored' : 'connection dropped'}`,
    true,
    why,
  )

/** A request never sent: it says what it was waiting on (a reconnect's reason) and has it as its cause. */
const notSent = (op: Op, ms: number, why: RealtimeError | undefined) =>
  rtError('queue_timeout', `${op.frame.type} not sent within ${ms} ms${why ? `: ${why.message}` : ''}`, true, why)

/** `seq()` is the current connection: ops not sent on it count as waiting. */
export function createSendQueue(
  max: number,
  seq: () => number,
  onDrop: (error: RealtimeError) => void,
  reason: () => RealtimeError | undefined = () => undefined,
): SendQueue {
  let ops: Op[] = []
  const remove = (op: Op) => {
    op.done = true
    clearTimeout(op.timer)
    clearTimeout(op.retry)
    ops = ops.filter((o) => o !== op)
  }
  const drop = (op: Op, error: RealtimeError) => {
    remove(op)
    op.reject(error)
  }
  /** Arms the queue deadline for what remains of it. */
  const wait = (op: Op) => {
    clearTimeout(op.timer)
    const ms = op.timing!.queueTimeoutMs
    const failure = () => op.refusal ?? (op.sent ? unanswered : notSent)(op, ms, reason())
    op.timer = later(() => drop(op, failure()), op.sendBy! - Date.now())
  }
  const requeue = (op: Op, refusal?: RealtimeError) => {
    op.sentOn = undefined
    op.refusal = refusal
    wait(op)
  }
  return {
    add(op, timing) {
      const waiting = ops.filter((o) => o.sentOn !== seq())
      const oldest = waiting[0]
      if (oldest && waiting.length >= max) {
        const error = rtError('queue_overflow', 'Queue full: oldest dropped', true)
        drop(oldest, error)
        onDrop(error)
      }
      op.timing = timing
      op.sendBy = Date.now() + timing.queueTimeoutMs
      wait(op)
      ops.push(op)
    },
    flush(send) {
      const now = Date.now()
      const current = seq()
      for (const op of ops) {
        if (op.sentOn === current || (op.notBefore ?? 0) > now || (op.ready && !op.ready())) continue
        if (!send(op)) return
        op.sentOn = current
        if (op.done) continue // send() settled it (refused locally)
        op.sent = true
        const ms = op.timing!.timeoutMs
        clearTimeout(op.timer)
        op.timer = later(() => drop(op, timedOut(op, ms)), ms)
      }
    },
    requeue,
    lost() {
      for (const op of ops) if (op.sentOn !== undefined) requeue(op)
    },
    remove,
    clear(error) {
      for (const op of ops) drop(op, error) // drop() replaces `ops`: this goes through the old array
    },
  }
}
