import { ValidationError, type RealtimeError, type Unsubscribe, createEmitter } from '@tandem/core'
import { DEFAULTS } from './defaults.js'
import { createPresence, type PresenceImpl } from './presence.js'
import { isMessage, matches, rtError, toError, type Frame } from './protocol.js'
import type { Channel, ChannelEvents, ChannelState, Discontinuity, HistoryOptions, Listener, Message, Position } from './types.js'

/** What a channel needs from the connection. */
export interface Hub {
  /** Sends when connected (and `ready`), again on each new connection, until a reply or `timeoutMs`. */
  request(frame: Frame, timeoutMs?: number, ready?: () => boolean): Promise<Frame>
  /** The channel's lease count went from 0 to 1 or back: (un)subscribe in the next batch. */
  changed(): void
  error(error: RealtimeError): void
}

export interface ChannelImpl extends Channel {
  readonly leases: number
  readonly presence: PresenceImpl
  /** The connection is gone: hold messages until the resubscribe answers. */
  suspend(): void
  /** This channel's result in a `subscribed` reply (or `{ error }`). */
  subscribed(result: Record<string, unknown>): void
  message(frame: Frame): void
}

const randomKey = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')

/** History options as the service takes them (docs/protocol.md): refused locally, never sent malformed. */
function checkHistory(options: HistoryOptions | null | undefined): HistoryOptions {
  const o = options ?? {}
  if (typeof o !== 'object') throw new ValidationError('options', 'must be an object')
  const { since, limit } = o
  if (since !== undefined && since !== null && (typeof since !== 'object' || typeof since.epoch !== 'string' || since.epoch === '' || since.epoch.length > 200
    || !Number.isSafeInteger(since.offset) || since.offset < 0)) {
    throw new ValidationError('since', 'must be { epoch: string, offset: integer ≥ 0 }')
  }
  if (limit !== undefined && limit !== null && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) {
    throw new ValidationError('limit', 'must be an integer from 1 to 1000')
  }
  return { ...(since ? { since } : {}), ...(limit ? { limit } : {}), ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}) }
}

export function createChannel(name: string, hub: Hub): ChannelImpl {
  const events = createEmitter<ChannelEvents>()
  const listeners = createEmitter<Record<string, Listener>>()
  let state: ChannelState = 'unsubscribed'
  let leases = 0
  let pos: Position | undefined
  // Live messages held while (re)subscribing or filling a gap, delivered in order afterwards.
  let held: Frame[] | undefined = []
  let fillSeq = 0

  const setState = (current: ChannelState, error?: RealtimeError) => {
    if (current === state) return
    const previous = state
    state = current
    events.emit('state', { previous, current, ...(error ? { error } : {}) })
  }

  const gap = (reason: Discontinuity['reason'], since: Position, resumedAt: Position) => {
    pos = resumedAt
    events.emit('discontinuity', { channel: name, reason, since, resumedAt })
  }

  /** `canFill`: a gap may be filled from history (not again right after a fill: no loop). */
  function deliver(m: Frame, canFill = true) {
    if (!isMessage(m)) return hub.error(rtError('bad_frame', 'Malformed message'))
    const msg = m as unknown as Message
    if (!pos) return
    if (msg.epoch !== pos.epoch) gap('epoch_changed', pos, { epoch: msg.epoch, offset: msg.offset - 1 })
    else if (msg.offset <= pos.offset) return // seen already (a resume replays from the last offset)
    else if (msg.offset > pos.offset + 1) {
      if (canFill) return fill(m)
      gap('history_expired', pos, { epoch: msg.epoch, offset: msg.offset - 1 })
    }
    pos = { epoch: msg.epoch, offset: msg.offset }
    listeners.emit('*', msg)
    listeners.emit(`:${msg.event}`, msg)
  }

  function release(canFill = true) {
    const h = held ?? []
    held = undefined
    for (const m of h) {
      const again = held as Frame[] | undefined // deliver() may start a fill, which holds again
      if (again) again.push(m)
      else deliver(m, canFill)
    }
  }

  /** Applies a resume answer: reports the gap (if any) before the first message after it. */
  function resume(since: Position | undefined, at: Position, recovered: boolean, missed: unknown[]) {
    const first = missed[0] as Message | undefined
    if (!since) pos = { epoch: at.epoch, offset: at.offset }
    else if (!recovered) {
      const sameEpoch = at.epoch === since.epoch
      gap(sameEpoch ? 'history_expired' : 'epoch_changed', since,
        sameEpoch && first && isMessage(first) ? { epoch: at.epoch, offset: first.offset - 1 } : { epoch: at.epoch, offset: at.offset })
    }
    for (const m of missed) deliver(m as Frame, false)
  }

  /** A live message skipped offsets: ask history for what is missing, hold the rest meanwhile. */
  function fill(m: Frame) {
    held = [m]
    const since = pos!
    const mine = ++fillSeq
    hub.request({ type: 'history', channel: name, since, limit: 1000 }).then(
      (page) => {
        if (mine !== fillSeq) return
        resume(since, page as unknown as Position, page.complete === true, page.messages as unknown[])
        release(false)
      },
      (error: RealtimeError) => {
        if (mine !== fillSeq) return
        hub.error(error)
        release(false)
      },
    )
  }

  function lease(): Unsubscribe {
    if (leases++ === 0 || state === 'failed') {
      held = []
      setState('subscribing')
      hub.changed()
    }
    let done = false
    return () => {
      if (done) return
      done = true
      if (--leases > 0) return
      pos = undefined
      held = []
      fillSeq++
      setState('unsubscribed')
      hub.changed()
    }
  }

  const presence = createPresence({
    name,
    lease,
    ready: () => leases === 0 || state === 'subscribed',
    request: (frame, timeoutMs, ready) => hub.request(frame, timeoutMs, ready),
  })

  const channel: ChannelImpl = {
    name,
    get state() {
      return state
    },
    get position() {
      return pos
    },
    get leases() {
      return leases
    },
    presence,
    subscribe<T>(a: string | Listener<T>, b?: Listener<T>): Unsubscribe {
      const listener = (typeof a === 'function' ? a : b) as Listener
      if (typeof listener !== 'function') throw new ValidationError('listener', 'must be a function')
      const off = listeners.on(typeof a === 'string' ? `:${a}` : '*', listener)
      const done = lease()
      return () => {
        off()
        done()
      }
    },
    on: (event, callback) => events.on(event, callback),
    publish(event, data, options = {}) {
      if (typeof event !== 'string' || event === '' || event.length > 200) {
        return Promise.reject(new ValidationError('event', 'must be a string of 1 to 200 characters'))
      }
      // One key per publish, reused on every resend: the service stores it once.
      const frame = { type: 'publish', channel: name, event, data: data ?? null, idempotencyKey: randomKey() }
      return hub.request(frame, options.timeoutMs ?? DEFAULTS.publishTimeoutMs).then((r) => ({
        offset: r.offset as number, epoch: r.epoch as string, messageId: r.messageId as string, duplicate: r.duplicate === true,
      }))
    },
    async history(options = {}) {
      const { since, limit, timeoutMs } = checkHistory(options)
      const r = await hub.request({ type: 'history', channel: name, ...(since ? { since } : {}), ...(limit ? { limit } : {}) }, timeoutMs)
      return {
        epoch: r.epoch as string, offset: r.offset as number, complete: r.complete === true,
        messages: (r.messages as unknown[]).filter(isMessage) as Message[],
      }
    },
    suspend() {
      fillSeq++
      held = []
      if (leases) setState('subscribing')
    },
    subscribed(result) {
      if (!leases) return
      const error = 'error' in result ? toError(result.error) : undefined
      if (error || !matches(result, 'epoch:s offset:n')) {
        const e = error ?? rtError('bad_frame', 'Malformed subscribe result')
        setState('failed', e)
        events.emit('error', e)
        hub.error(e)
        return
      }
      const r = result
      resume(pos, r as unknown as Position, r.recovered === true, Array.isArray(r.missed) ? r.missed : [])
      setState('subscribed')
      release()
    },
    message(frame) {
      if (!leases) return
      if (frame.type === 'presence.event') return presence.event(frame)
      if (held) held.push(frame)
      else deliver(frame)
    },
  }
  return channel
}
