import { DEV } from '@tandem/contract/dev'
import type { RealtimeError } from '@tandem/core'
import { MAX_TIMER_MS, ValidationError, clampDelay } from '../core.js'
import { checkMs, createSendQueue, type Op, type Timing } from './send-queue.js'
import { rtError, toError, type ClientFrame, type FrameOf, type Reply } from '../connection/protocol.js'

export interface RequestsOptions {
  /** Writes a frame to the socket; false when there is no open socket. */
  write: (text: string) => boolean
  /** No reply to a session request: the link is dead. */
  dead: (reason: string) => void
  error: (error: RealtimeError) => void
  /** The current connection, and the server's frame limit. */
  seq: () => number
  maxBytes: () => number
  maxQueued: number
  /** A reply's deadline from the send (session requests; app requests unless they give their own). */
  timeoutMs: number
  /** How long an app request may wait to be sent, from the call. */
  queueTimeoutMs: number
  /** The least wait before resending a request the service refused for its rate limit the `n`th time. */
  retryFloor: (n: number) => number
  /** The longest wait a server may ask for. */
  serverMaxMs: number
  /** Why the client is not connected, if it is not: a request that times out says so. */
  reason?: () => RealtimeError | undefined
  /** App requests may go: connected, and the channels resubscribed (the connection machine says). */
  ready: () => boolean
}

export interface Requests {
  /** A request of the session itself (connect, subscribe, auth, ping); only on the open socket. */
  call: (frame: ClientFrame, onReply?: (reply: Reply) => void, timeoutMs?: number, why?: string) => boolean
  /**
   * A request of the app: queued, sent when `o.ready()`, resent on each new connection until a
   * reply. It fails with `queue_timeout` if it could not be sent within `queueTimeoutMs` of the
   * call, with `timeout` if a reply did not come within `timeoutMs` of a send.
   */
  request: <T extends AppRequest>(
    frame: ClientFrame & { type: T },
    timing?: Partial<Timing>,
    ready?: () => boolean,
  ) => Promise<ReplyTo<T>>
  /** Routes a reply by its id; false when nothing waits for it. */
  reply: (frame: Reply) => boolean
  /** Sends what the send queue may send now (after the handshake and the resubscribe). */
  flush: () => void
  /** The socket is gone: replies will not come; app requests stay queued. */
  lost: () => void
  clear: (error: RealtimeError) => void
}

/**
 * The reply each app request is answered with (docs/protocol.md, Requests); `error` aside, anything else is unreadable.
 * Every app request (publish, history, presence) has its entry.
 */
const REPLY = {
  publish: 'ack',
  history: 'history',
  'presence.enter': 'ok',
  'presence.update': 'ok',
  'presence.leave': 'ok',
  'presence.get': 'presence.members',
} as const

export type AppRequest = keyof typeof REPLY
export type ReplyTo<T extends AppRequest> = FrameOf<(typeof REPLY)[T]>

export function createRequests(o: RequestsOptions): Requests {
  // What waits for a reply, by id: its handler and, for a session request, its deadline.
  const pending = new Map<unknown, [onReply: (reply: Reply) => void, timer?: ReturnType<typeof setTimeout>]>()
  const bad = checkMs('requestTimeoutMs', o.timeoutMs) ?? checkMs('queueTimeoutMs', o.queueTimeoutMs)
  if (bad) throw bad
  const queue = createSendQueue(o.maxQueued, o.seq, o.error, o.reason)
  let nextId = 1

  const tooBig = (text: string) => {
    const max = o.maxBytes()
    // Cheap first: a string cannot take more than 3 bytes per UTF-16 unit.
    return text.length * 3 > max && new TextEncoder().encode(text).length > max
      ? rtError('message_too_large', `Over ${max} bytes`)
      : undefined
  }

  /**
   * Flushes once `op.notBefore` has passed. A timer can fire a little before `Date.now()` says
   * the time is up (libuv's cached loop time), and flush() would then skip the op with nothing
   * left to wake it: check again until it is really due. Clamped: past 2^31 ms a timer fires at once.
   */
  function flushAt(op: Op) {
    const wait = (op.notBefore ?? 0) - Date.now()
    clearTimeout(op.retry)
    op.retry = wait <= 0 ? setTimeout(self.flush, 0) : setTimeout(() => flushAt(op), Math.min(wait, MAX_TIMER_MS))
  }

  function settle(op: Op, reply: Reply) {
    const error = reply.type === 'error' ? toError(reply.error) : undefined
    const after = (error?.details as { retryAfterMs?: unknown } | undefined)?.retryAfterMs
    if (error?.temporary && after !== undefined) {
      // rate_limited: the same frame (same idempotency key) goes again once the bucket refills;
      // never sooner than a backoff that grows with each refusal, nor later than `serverMaxMs`.
      const floor = o.retryFloor((op.refusals = (op.refusals ?? 0) + 1))
      op.notBefore = Date.now() + Math.max(clampDelay(after, 0, o.serverMaxMs) ?? floor, floor)
      queue.requeue(op, error)
      return flushAt(op)
    }
    queue.remove(op)
    if (error) op.reject(error)
    // A reply of another type under our id (a confused or hostile service) must not reach callers as if it were theirs.
    else if (reply.type !== REPLY[op.frame.type as AppRequest])
      op.reject(rtError('bad_frame', `Reply ${reply.type} to ${op.frame.type}`))
    else op.resolve(reply)
  }

  const self: Requests = {
    call(frame, onReply = () => {}, timeoutMs = o.timeoutMs, why = 'request_timeout') {
      const id = nextId++
      // A frame the socket did not take has no reply to wait for.
      if (!o.write(JSON.stringify({ ...frame, id }))) return false
      pending.set(id, [onReply, setTimeout(() => o.dead(why), timeoutMs)])
      return true
    },
    request(frame, timing = {}, ready) {
      return new Promise((resolve, reject) => {
        let text: string
        try {
          text = JSON.stringify(frame)
        } catch {
          return reject(
            new ValidationError('data', DEV && process.env.NODE_ENV !== 'production' && 'must be JSON-serialisable'),
          )
        }
        const big =
          checkMs('timeoutMs', timing.timeoutMs) ?? checkMs('queueTimeoutMs', timing.queueTimeoutMs) ?? tooBig(text)
        if (big) return reject(big)
        // settle() resolves only with the reply type REPLY names for this request.
        queue.add(
          { frame, resolve: resolve as (reply: Reply) => void, reject, ready },
          { timeoutMs: timing.timeoutMs ?? o.timeoutMs, queueTimeoutMs: timing.queueTimeoutMs ?? o.queueTimeoutMs },
        )
        self.flush()
      })
    },
    reply(frame) {
      const entry = pending.get(frame.id)
      pending.delete(frame.id)
      clearTimeout(entry?.[1])
      entry?.[0](frame)
      return entry !== undefined
    },
    flush() {
      if (!o.ready()) return
      queue.flush((op) => {
        const id = nextId++
        const text = JSON.stringify({ ...op.frame, id })
        const big = tooBig(text) // the limit the server announced may be lower than the default
        if (big) {
          queue.remove(op)
          op.reject(big)
          return true
        }
        pending.set(id, [(reply) => settle(op, reply)])
        return o.write(text)
      })
    },
    lost() {
      for (const [, timer] of pending.values()) clearTimeout(timer)
      pending.clear()
      queue.lost()
    },
    clear: (error) => queue.clear(error),
  }
  return self
}
