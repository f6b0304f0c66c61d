// A channel's messages as a paged store for chat-like UIs: the newest `initial` from history on
// join, every live message after them (each once), and earlier pages on demand, bounded by `max`.
// Listeners are told at most once per `schedule` tick, so a flood costs a frame's worth of renders.
import type { RealtimeError, Unsubscribe } from '@tandem/core'
import { ValidationError, createEmitter } from './core.js'
import { MESSAGE_LOG } from './defaults.js'
import { leaseChannel } from './lease.js'
import type { Realtime } from './realtime.js'
import { nextFrame, type Schedule, type Store } from './stores.js'
import type { Message } from './types.js'

export interface MessageLogOptions {
  /** Only this event's messages. */
  event?: string
  /**
   * How many of the newest messages to load from history when the channel is first subscribed.
   * @default 50
   */
  initial?: number
  /**
   * The most messages held; live ones push the oldest out (`loadEarlier` can bring them back).
   * @default 10_000
   */
  max?: number
  /**
   * When listeners are told of changes.
   * @default `nextFrame` (once per animation frame)
   */
  schedule?: Schedule
}

export interface MessageLogSnapshot<T> {
  /** Oldest first, each once. */
  readonly messages: readonly Message<T>[]
  /** History is being read (the first page, or an earlier one). */
  readonly loading: boolean
  /** The service may hold messages older than the first one here, and `max` leaves room for them. */
  readonly hasEarlier: boolean
  /** Why the last history read failed, or the channel did (cleared by the next read that succeeds). */
  readonly error?: RealtimeError
}

export interface MessageLog<T> extends Store<MessageLogSnapshot<T>> {
  /** Reads up to `count` (default `initial`) messages older than the first one here; never throws (see `error`). */
  loadEarlier: (count?: number) => Promise<void>
}

const checkCount = (field: string, n: number, max = Number.MAX_SAFE_INTEGER) => {
  if (!(Number.isSafeInteger(n) && n >= 0 && n <= max))
    throw new ValidationError(field, `must be an integer from 0 to ${max}`)
  return n
}

/**
 * The paged message store behind `useMessages`. It holds the channel (a lease) while it has
 * listeners; when the last one goes, it forgets its messages, and the next listener starts over
 * from history (nothing seen in between could be missed silently).
 */
export function createMessageLog<T = unknown>(
  rt: Realtime,
  name: string,
  options: MessageLogOptions = {},
): MessageLog<T> {
  const { event, schedule = nextFrame } = options
  const initial = checkCount('initial', options.initial ?? MESSAGE_LOG.initial, MESSAGE_LOG.maxPage)
  const max = checkCount('max', options.max ?? MESSAGE_LOG.max)
  const channel = rt.channel(name)
  const emitter = createEmitter<{ change: () => void }>()
  let items: Message<T>[] = []
  let snapshot: MessageLogSnapshot<T> = { messages: items, loading: false, hasEarlier: false }
  let loading = 0
  let hasEarlier = false
  let error: RealtimeError | undefined
  let cancel: (() => void) | undefined
  let listeners = 0
  let generation = 0 // bumped on reset: a history answer for a forgotten log is dropped
  let joined = false
  let offs: Unsubscribe[] = []

  const flush = () => {
    cancel = undefined
    snapshot = { messages: items.slice(), loading: loading > 0, hasEarlier: hasEarlier && items.length < max, error }
    emitter.emit('change')
  }
  const changed = () => {
    if (!cancel && listeners > 0) cancel = schedule(flush)
  }
  const wanted = (m: Message) => event === undefined || m.event === event

  const append = (m: Message<T>) => {
    const last = items[items.length - 1]
    if (last && last.epoch === m.epoch && m.offset <= last.offset) return // history brought it already
    items.push(m)
    if (items.length > max) {
      items.splice(0, items.length - max)
      hasEarlier = true
    }
    changed()
  }

  /** One history read; `apply` merges its page. Failures land in `error`. */
  const read = async (run: () => Promise<void>) => {
    const mine = generation
    loading++
    changed()
    try {
      await run()
      if (mine === generation) error = undefined
    } catch (e) {
      if (mine === generation) error = e as RealtimeError
    } finally {
      if (mine === generation) {
        loading--
        changed()
      }
    }
  }

  const join = () => {
    if (joined) return
    joined = true
    if (initial === 0) return
    const mine = generation
    void read(async () => {
      const page = await channel.history({ limit: initial })
      if (mine !== generation) return
      const first = items[0]
      const older = (page.messages as Message<T>[]).filter(
        (m) => wanted(m) && !(first && m.epoch === first.epoch && m.offset >= first.offset),
      )
      items = [...older, ...items].slice(-max)
      const oldest = page.messages[0]
      hasEarlier = page.messages.length === initial && oldest !== undefined && oldest.offset > 1
    })
  }

  const reset = () => {
    generation++
    items = []
    loading = 0
    hasEarlier = false
    error = undefined
    joined = false
    snapshot = { messages: items, loading: false, hasEarlier: false }
  }

  return {
    subscribe(listener) {
      const off = emitter.on('change', listener)
      if (listeners++ === 0) {
        const lease = leaseChannel(rt, name)
        const push = (m: Message<T>) => append(m)
        offs = [
          event === undefined ? channel.subscribe<T>(push) : channel.subscribe<T>(event, push),
          channel.on('state', ({ current, error: why }) => {
            if (current === 'subscribed') join()
            // A channel the service refused says why here too: a list must never just stay empty.
            else if (current === 'failed' && why) {
              error = why
              changed()
            }
          }),
          lease,
        ]
        if (channel.state === 'subscribed') join() // otherwise the state change will
      }
      return () => {
        off()
        if (--listeners > 0) return
        offs.forEach((o) => o())
        offs = []
        cancel?.()
        cancel = undefined
        reset()
      }
    },
    getSnapshot: () => snapshot,
    async loadEarlier(count = initial || MESSAGE_LOG.initial) {
      checkCount('count', count, MESSAGE_LOG.maxPage)
      const oldest = items[0]
      const room = Math.min(count, max - items.length)
      if (!oldest || !hasEarlier || room <= 0 || loading > 0) return
      const since = { epoch: oldest.epoch, offset: Math.max(0, oldest.offset - 1 - room) }
      const mine = generation
      await read(async () => {
        const page = await channel.history({ since, limit: oldest.offset - 1 - since.offset })
        if (mine !== generation) return
        const first = items[0]
        const older = (page.messages as Message<T>[]).filter(
          (m) => wanted(m) && m.epoch === oldest.epoch && first !== undefined && m.offset < first.offset,
        )
        items = [...older, ...items]
        // Incomplete: history no longer reaches back (or the epoch moved on), so nothing earlier can come.
        hasEarlier = page.complete && page.epoch === oldest.epoch && since.offset > 0
      })
    },
  }
}
