// A channel's messages as a paged store for chat-like UIs: the newest `initial` from history on
// join, every live message after them (each once), and earlier pages on demand, bounded by `max`.
// Listeners are told at most once per `schedule` tick, so a flood costs a frame's worth of renders.
// The messages are held in chunks (message-chunks.ts): a new snapshot shares every chunk that did
// not change, so a message appended at the bound costs what one appended below it costs.
import { DEV } from '@tandem/contract/dev'
import type { ReadableStore, RealtimeError, Unsubscribe } from '@tandem/core'
import { ValidationError, createEmitter } from '../core.js'
import { MESSAGE_LOG } from '../defaults.js'
import { history } from '../history.js'
import { leaseChannel } from '../channels/lease.js'
import { createChunkList, flatten } from './message-chunks.js'
import type { Realtime } from '../realtime.js'
import { nextFrame, type Schedule } from '../stores/feed.js'
import type { Message, Position } from '../types.js'

export interface MessageLogOptions {
  /** Only this event's messages. */
  event?: string
  /**
   * How many of the newest messages to read from history when the channel is first subscribed.
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
  /**
   * Oldest first, each once. Built from `chunks` when first read (then kept with this snapshot): a
   * list that reads only `chunks` and `count` never pays for the whole array.
   */
  readonly messages: readonly Message<T>[]
  /**
   * The same messages in chunks of at most `DEFAULTS.messageLog.chunk` (16), oldest first, none
   * empty. A chunk never changes (do not change it either): a new message replaces the last chunk,
   * the oldest going out at `max` the first, and every other chunk is the same array in the next
   * snapshot. Render one memoised component per chunk, keyed by its first message's id (only the
   * oldest chunk's changes, as messages leave it at `max`), and a new message re-renders one chunk,
   * not the list.
   */
  readonly chunks: readonly (readonly Message<T>[])[]
  /** How many messages: `messages.length`, without building it. */
  readonly count: number
  /** The first page has been read (or `initial` is 0): an empty list now means an empty channel. */
  readonly loaded: boolean
  /** History is being read (the first page, or an earlier one). */
  readonly loading: boolean
  /** The service may hold messages older than the first one here, and `max` leaves room for them. */
  readonly hasEarlier: boolean
  /** Why the last history read failed, or the channel did (cleared by the next read or subscription that succeeds). */
  readonly error?: RealtimeError
}

export interface MessageLog<T> extends ReadableStore<MessageLogSnapshot<T>> {
  /**
   * Reads up to `count` (default `initial`) messages older than the first one here, or the first
   * page again after it failed. Never throws for the service's reasons: see `error`.
   */
  loadEarlier: (count?: number) => Promise<void>
}

const checkCount = (field: string, n: number, max = Number.MAX_SAFE_INTEGER) => {
  if (!(Number.isSafeInteger(n) && n >= 0 && n <= max))
    throw new ValidationError(
      field,
      DEV && process.env.NODE_ENV !== 'production' && `must be an integer from 0 to ${max}`,
    )
  return n
}

/**
 * The paged message store behind `useMessages`. It holds the channel (a lease) while it has
 * listeners. It starts over from history, so that no gap goes unseen, when the last listener goes
 * and a new one comes, and when the channel reports a discontinuity (history expired, new epoch).
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
  const items = createChunkList<Message<T>>(MESSAGE_LOG.chunk)
  let snapshot: MessageLogSnapshot<T>
  let loading = 0
  let loaded = initial === 0
  /** Every message at or after this position (of any event) has been read: the next page ends before it. */
  let floor: Position | undefined
  let error: RealtimeError | undefined
  let cancel: (() => void) | undefined
  let listeners = 0
  let generation = 0 // bumped on reset: a history answer for a forgotten log is dropped
  let joined = false
  let offs: Unsubscribe[] = []

  const hasEarlier = () => floor !== undefined && floor.offset > 1 && items.count < max
  const take = () => {
    const chunks = items.seal()
    let messages: readonly Message<T>[] | undefined
    snapshot = {
      chunks,
      // Built on the first read (a spread reads it too), then kept: the chunks never change.
      get messages() {
        return (messages ??= flatten(chunks))
      },
      count: items.count,
      loaded,
      loading: loading > 0,
      // The first page failed: there may be earlier ones (loadEarlier reads the first page again).
      hasEarlier: (!loaded && joined === false && error !== undefined) || hasEarlier(),
      ...(error ? { error } : {}),
    }
  }
  take()
  const flush = () => {
    cancel = undefined
    take()
    emitter.emit('change')
  }
  const changed = (now = false) => {
    if (listeners === 0) return
    // A read starting is told at once: a list must never look "loaded and empty" for a frame.
    if (now) {
      cancel?.()
      return flush()
    }
    cancel ??= schedule(flush)
  }
  const wanted = (m: Message) => event === undefined || m.event === event

  const trim = () => {
    if (items.count <= max) return
    items.dropFront(items.count - max)
    const first = items.first() // none when `max` is 0: nothing is held, nothing read back
    floor = first && { epoch: first.epoch, offset: first.offset } // what went can be read again
  }

  const append = (m: Message<T>) => {
    const last = items.last()
    if (last && last.epoch === m.epoch && m.offset <= last.offset) return // history brought it already
    items.push(m)
    trim()
    changed()
  }

  /** One history read under `generation`; failures land in `error`, success clears it. */
  const read = async (run: (mine: number) => Promise<void>) => {
    const mine = generation
    loading++
    changed(loading === 1)
    try {
      await run(mine)
      if (mine === generation) error = undefined
    } catch (e) {
      if (mine !== generation) return
      error = e as RealtimeError
      throw e
    } finally {
      if (mine === generation) {
        loading--
        changed()
      }
    }
  }

  const join = () => {
    if (joined || loaded) return
    joined = true
    void read(async (mine) => {
      const page = await history(channel, { limit: initial }).catch((e: unknown) => {
        if (mine === generation) joined = false // the next subscription, or loadEarlier, tries again
        throw e
      })
      if (mine !== generation) return
      const first = items.first()
      const older = (page.messages as Message<T>[]).filter(
        (m) => wanted(m) && !(first && m.epoch === first.epoch && m.offset >= first.offset),
      )
      items.prepend(older)
      // Read from here on: the page's oldest (whatever the filter kept), or a live one before it.
      const raw = page.messages[0]
      const head = items.first()
      const oldest = raw && head && head.epoch === raw.epoch && head.offset < raw.offset ? head : (raw ?? head)
      // Fewer than asked: history holds nothing before them.
      floor = oldest && page.messages.length === initial ? { epoch: oldest.epoch, offset: oldest.offset } : undefined
      loaded = true
      trim()
    }).catch(() => {}) // in `error`
  }

  const reset = () => {
    generation++
    cancel?.()
    cancel = undefined
    items.clear()
    loading = 0
    loaded = initial === 0
    floor = undefined
    error = undefined
    joined = false
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
            if (current === 'subscribed') {
              if (error && !loading) error = undefined // the channel is back: its failure is over
              join()
              changed()
            } else if (current === 'failed' && why) {
              // A channel the service refused says why here too: a list must never just stay empty.
              error = why
              changed()
            }
          }),
          // Messages were lost (history expired) or the epoch changed: start over from history,
          // rather than show a list with a hole in it. Live messages after it are appended as usual.
          channel.on('discontinuity', () => {
            reset()
            changed(true)
            join()
          }),
          lease,
        ]
        if (channel.state === 'subscribed') join() // otherwise the state change will
        take()
      }
      return () => {
        off()
        if (--listeners > 0) return
        offs.forEach((o) => o())
        offs = []
        reset()
        take()
      }
    },
    getSnapshot: () => snapshot,
    async loadEarlier(count = initial || MESSAGE_LOG.initial) {
      checkCount('count', count, MESSAGE_LOG.maxPage)
      if (loading > 0) return
      if (!loaded) return join() // the first page failed: this is its retry
      const from = floor
      const room = Math.min(count, max - items.count)
      if (!from || from.offset <= 1 || room <= 0) return
      const since = { epoch: from.epoch, offset: Math.max(0, from.offset - 1 - room) }
      const first = items.first()
      await read(async (mine) => {
        const page = await history(channel, { since, limit: from.offset - 1 - since.offset })
        // Trimmed meanwhile (live messages pushed the oldest out): this page would leave a hole.
        if (mine !== generation || items.first() !== first || floor !== from) return
        const older = (page.messages as Message<T>[]).filter(
          (m) => wanted(m) && m.epoch === from.epoch && m.offset < from.offset,
        )
        items.prepend(older)
        // Everything from `since` on is read now, whatever the event filter kept. Incomplete:
        // history no longer reaches back (or the epoch moved on), so nothing earlier can come.
        floor =
          page.complete && page.epoch === from.epoch && since.offset > 0
            ? { ...from, offset: since.offset + 1 }
            : undefined
        trim()
      }).catch(() => {})
    },
  }
}
