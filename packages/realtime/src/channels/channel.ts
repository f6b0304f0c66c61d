import { HISTORY_MAX, IDEMPOTENCY_KEY_RULE, MAX_EVENT_NAME, isIdempotencyKey } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { POSITION_FIELDS, hasFields } from '@tandem/contract/frame-fields'
import type { RealtimeError, Unsubscribe } from '@tandem/core'
import { ValidationError, createEmitter } from '../core.js'
import { FILL_ATTEMPTS, PUBLISH_TIMEOUT_MS } from '../defaults.js'
import type { ChannelImpl, ChannelClient } from './channel-internals.js'
import { bad, isMessage, toError } from '../connection/protocol.js'
import type { ChannelEvents, Discontinuity, ChannelState, Listener, Message, Position } from '../types.js'

export type { ChannelImpl, ChannelClient } from './channel-internals.js'

const isPosition = (r: unknown): r is Position => hasFields(r, POSITION_FIELDS)

/** 128 random bits as printable ASCII (`getRandomValues`: `randomUUID` needs a secure context). */
const randomKey = (): string => crypto.getRandomValues(new Uint32Array(4)).join('-')

/** `since`: where a reloaded page's channel resumes from (the `positions` option). */
export function createChannel(name: string, client: ChannelClient, since?: Position): ChannelImpl {
  const events = createEmitter<ChannelEvents>()
  // One emit per message: a listener of one event (`subscribe(event, …)`) is wrapped in its filter.
  const listeners = createEmitter<{ m: Listener }>()
  let state: ChannelState = 'unsubscribed'
  let leases = 0
  let subscribers = 0
  let pos: Position | undefined = since
  // Live messages held while (re)subscribing or filling a gap, delivered in order afterwards.
  // Bounded (client.held): past it the rest are dropped (`dropped`: the last), and history is read
  // from the last one delivered, as for any gap. What is held stays a run with no hole.
  type Held = { m: Message; bytes: number }
  let held: Held[] | undefined = []
  let heldBytes = 0
  let dropped: Message | undefined
  let fillSeq = 0
  // A failed read is tried again after the client's backoff (`retry`: its one timer); past
  // FILL_ATTEMPTS reads, what the fill held back is reported lost. No tight loop, never silence.
  let failures = 0
  let retry: ReturnType<typeof setTimeout> | undefined
  /** A read succeeded, or the fill is over or dropped. */
  const retried = () => {
    clearTimeout(retry)
    failures = 0
  }
  let why: Discontinuity['reason'] = 'history_expired'

  /** Starts holding anew (`[]`, or the message that opened a gap) or stops (`undefined`). */
  const setHeld = (next: Held[] | undefined) => {
    if (held) client.held.give(held.length, heldBytes)
    heldBytes = 0
    dropped = undefined
    const into: Held[] | undefined = (held = next && [])
    for (const h of next ?? []) keep(h.m, h.bytes, into!)
  }
  const keep = (m: Message, bytes: number, into: Held[]) => {
    if (dropped !== undefined || !client.held.take(bytes)) return void (dropped = m)
    into.push({ m, bytes })
    heldBytes += bytes
  }

  const setState = (current: ChannelState, error?: RealtimeError) => {
    if (current === state) return
    const previous = state
    state = current
    events.emit('state', error ? { previous, current, error } : { previous, current })
  }

  /** Epochs this channel has left: the service never goes back to one, so a frame that does is refused. */
  const retired = new Set<string>()

  /** Messages were lost between `since` and `resumedAt`; within one epoch, because history expired. */
  const gap = (since: Position, resumedAt: Position) => {
    if (resumedAt.epoch !== since.epoch) {
      retired.add(since.epoch)
      // Bounded: epochs change rarely, and a hostile peer must not grow this without end.
      if (retired.size > 100) retired.delete(retired.values().next().value!)
    }
    pos = resumedAt
    events.emit('discontinuity', {
      channel: name,
      reason: resumedAt.epoch === since.epoch ? why : 'epoch_changed',
      since,
      resumedAt,
    })
  }

  /**
   * A message checked against the contract (a live frame by parseFrame, a resume's by resume()).
   * `canFill`: a gap may be filled from history (not again right after a fill: no loop).
   */
  function deliver(msg: Message, canFill = true, bytes = 0) {
    if (retired.has(msg.epoch)) return client.error(bad())
    const { epoch, offset } = msg
    if (!pos) return
    const sameEpoch = epoch === pos.epoch
    if (sameEpoch && offset <= pos.offset) return // seen already (a resume replays from the last offset)
    if (!sameEpoch || offset > pos.offset + 1) {
      if (sameEpoch && canFill) return fill([{ m: msg, bytes }])
      gap(pos, { epoch, offset: offset - 1 })
    }
    pos = { epoch, offset }
    listeners.emit('m', msg)
  }

  /** A message past the last one delivered (its position, copied field by field). */
  const past = (m: Message | undefined): Position | undefined =>
    pos && m && (m.epoch !== pos.epoch || m.offset > pos.offset) ? { epoch: m.epoch, offset: m.offset } : undefined

  /**
   * History cannot give what was held back: what is held goes out (`last` omitted), and a
   * discontinuity covers the rest up to the last one dropped (or `last`). Never silence.
   */
  const unavailable = (last?: Message) => {
    why = 'history_unavailable'
    const to = past(last)
    if (last === undefined) release(false, false)
    else if (to) gap(pos!, to)
    why = 'history_expired'
  }

  /** `refill`: read from history what was dropped; without it, what was dropped is reported lost. */
  function release(canFill = true, refill = true) {
    const h = held ?? []
    const lost = dropped
    setHeld(undefined)
    for (const { m, bytes } of h) {
      const again = held // deliver() may start a fill, which holds again
      if (again) keep(m, bytes, again)
      else deliver(m, canFill, bytes)
    }
    // Some were dropped past the budget: history has them, after the last one delivered.
    const to = past(lost)
    if (held) dropped = lost ?? dropped
    else if (to && refill) fill([], lost)
    else if (to) gap(pos!, to)
  }

  /**
   * Applies a resume answer: reports the gap (if any) before the first message after it, which is
   * the first missed one or, when none came, the first live one held meanwhile (never dropped).
   */
  function resume(since: Position | undefined, to: Position, recovered: boolean, missed: unknown[]) {
    const first = missed[0] ?? held?.[0]?.m
    // Positions are copied field by field: frames carry more.
    if (!since) pos = { epoch: to.epoch, offset: to.offset }
    else if (!recovered)
      gap(since, {
        epoch: to.epoch,
        offset:
          to.epoch === since.epoch && isMessage(first) && first.epoch === to.epoch
            ? Math.min(to.offset, first.offset - 1)
            : to.offset,
      })
    for (const m of missed)
      if (isMessage(m)) deliver(m, false)
      else client.error(bad())
  }

  /**
   * A live message skipped offsets (or some were dropped, up to `lost`, kept in case history
   * fails): ask history for what is missing, page after page, and hold the live ones meanwhile.
   */
  function fill(first: Held[], lost?: Message) {
    retried()
    setHeld(first)
    dropped ??= lost
    read()
  }
  function read() {
    const since = pos!
    const mine = ++fillSeq
    client.request({ type: 'history', channel: name, since, limit: HISTORY_MAX }).then(
      (page) => {
        if (mine !== fillSeq) return
        retried()
        resume(since, { epoch: page.epoch, offset: page.offset }, page.complete, page.messages)
        // A full page: history has more. Each page moves `pos` on (or this stops): no loop.
        const now = pos!
        const moved = now.epoch !== since.epoch || now.offset > since.offset
        if (moved && page.messages.length >= HISTORY_MAX && now.epoch === page.epoch && now.offset < page.offset)
          return read()
        release(false)
      },
      (error: RealtimeError) => {
        if (mine !== fillSeq) return
        client.error(error)
        // Still holding, from the same position; past the bound, what is held goes out, gaps reported.
        if (++failures < FILL_ATTEMPTS) retry = setTimeout(read, client.retryDelay(failures - 1))
        else unavailable()
      },
    )
  }

  /** Drops a fill under way and holds live messages until the next subscribe answers. */
  function hold() {
    fillSeq++
    retried()
    setHeld([])
  }

  function lease(): Unsubscribe {
    if (leases++ === 0 || state === 'failed') {
      setHeld([])
      setState('subscribing')
      client.changed()
    }
    let done = false
    return () => {
      if (done) return
      done = true
      if (--leases > 0) return
      // A fill under way will not finish: what it held back is lost.
      if (state === 'subscribed' && held) unavailable(dropped ?? held.at(-1)?.m)
      pos = undefined
      hold()
      setState('unsubscribed')
      client.changed()
    }
  }

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
    get subscribers() {
      return subscribers
    },
    host: { name, lease, ready: () => leases === 0 || state === 'subscribed', request: client.request },
    subscribe<T>(a: string | Listener<T>, b?: Listener<T>): Unsubscribe {
      const listener = (typeof a === 'function' ? a : b) as Listener
      if (typeof listener !== 'function')
        throw new ValidationError('listener', DEV && process.env.NODE_ENV !== 'production' && 'must be a function')
      const off = listeners.on('m', typeof a === 'string' ? (m) => m.event === a && listener(m) : listener)
      const done = lease()
      subscribers++
      let live = true
      return () => {
        if (live) subscribers--
        live = false
        off()
        done()
      }
    },
    on: events.on,
    async publish(event, data, options = {}) {
      // One key per publish, reused on every resend: the service stores it once.
      const { idempotencyKey = randomKey(), ...timing } = options
      if (!(typeof event === 'string' && event !== '' && event.length <= MAX_EVENT_NAME))
        throw new ValidationError(
          'event',
          DEV && process.env.NODE_ENV !== 'production' && `must be 1 to ${MAX_EVENT_NAME} characters`,
        )
      if (!isIdempotencyKey(idempotencyKey))
        throw new ValidationError(
          'idempotencyKey',
          DEV && process.env.NODE_ENV !== 'production' && IDEMPOTENCY_KEY_RULE,
        )
      const frame = { type: 'publish' as const, channel: name, event, data: data ?? null, idempotencyKey }
      const r = await client.publish(frame, { ...timing, timeoutMs: timing.timeoutMs ?? PUBLISH_TIMEOUT_MS })
      return { offset: r.offset, epoch: r.epoch, messageId: r.messageId, duplicate: r.duplicate === true }
    },
    suspend() {
      hold()
      if (leases) setState('subscribing')
    },
    subscribed(result) {
      if (!leases) return
      if ('error' in result || !isPosition(result)) {
        const e = 'error' in result ? toError(result.error) : bad()
        setState('failed', e)
        events.emit('error', e)
        return client.error(e)
      }
      resume(pos, result, result.recovered === true, Array.isArray(result.missed) ? result.missed : [])
      setState('subscribed')
      release()
    },
    message(frame, bytes = 0) {
      if (!leases) return
      // Before `presence(channel)` nobody listens for presence: the event is nobody's (its store
      // reads the members from the service when it starts).
      if (frame.type === 'presence.event') return channel.attached?.event(frame)
      if (held) keep(frame, bytes, held)
      else deliver(frame, true, bytes)
    },
  }
  return channel
}
