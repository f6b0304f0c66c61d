import type { ReadableStore, Unsubscribe } from '@tandem/core'
import { createEmitter, fullJitter } from '../core.js'
import { PRESENCE_RETRY_CAP_MS } from '../defaults.js'
import { presence, type PresenceImpl } from './presence.js'
import { applyEvent, sameList, tableOf, type MemberTable } from './presence-table.js'
import { nextFrame, type Schedule } from '../stores/feed.js'
import type { Channel, Member, PresenceEvent } from '../types.js'

export interface PresenceStoreOptions {
  /**
   * When listeners are told the members changed: once per tick, however many events came in it.
   * @default `nextFrame` (once per animation frame)
   */
  schedule?: Schedule
}

/**
 * A channel's presence members as a store: `presence.get()` on every (re)subscription, then the
 * events, applied to a table keyed by connectionId. The snapshot is a new array only when the
 * members changed, built once per `schedule` tick: 10,000 enters cost a frame's worth of copies and
 * notifications, not 10,000. Per frame rather than per microtask: a browser delivers each WebSocket
 * message as a task of its own, so a microtask would still mean one copy (and render) per event.
 */
export function presenceStore(
  channel: Channel,
  { schedule = nextFrame }: PresenceStoreOptions = {},
): ReadableStore<readonly Member[]> {
  const present = presence(channel) as PresenceImpl
  const emitter = createEmitter<{ change: () => void }>()
  let table: MemberTable = new Map()
  let members: readonly Member[] = []
  let listeners = 0
  let synced = false
  /** Events since the current sync's request went out, replayed on its answer (see `sync`); an
   * answer whose buffer is no longer this one is stale. */
  let pending: PresenceEvent[] | undefined
  let offs: Unsubscribe[] = []
  let retry: ReturnType<typeof setTimeout> | undefined
  let failures = 0
  let cancel: (() => void) | undefined
  const flush = () => {
    cancel = undefined
    if (sameList(table, members)) return // what changed in the tick changed back
    members = [...table.values()]
    emitter.emit('change')
  }
  const changed = () => {
    cancel ??= schedule(flush)
  }
  const sync = () => {
    const mine: PresenceEvent[] = (pending = [])
    synced = false
    clearTimeout(retry)
    present.get().then(
      (list) => {
        if (mine !== pending) return
        failures = 0
        synced = true
        // The answer is read a few microtasks after it arrived, and events can come in between.
        // Every event since the request is replayed on it: the last event about a member is its
        // state, so one the answer already holds changes nothing, and none is lost.
        table = tableOf(list, table)
        for (const e of mine) applyEvent(table, e)
        pending = undefined
        if (!sameList(table, members)) changed()
      },
      // A failed sync is tried again (the one backoff: 1 s, 2 s, … 30 s apart, each jittered down to
      // half, so stores of many tabs do not retry together) while someone listens on a subscribed
      // channel: the members are never left stale until some later resubscription.
      () => {
        if (mine !== pending) return
        pending = undefined
        if (channel.state === 'subscribed')
          retry = setTimeout(sync, fullJitter(failures++, 1000, PRESENCE_RETRY_CAP_MS, Math.random, 0.5))
      },
    )
  }
  /** The members as this store knows them, for `rt.channels()` while it tracks the channel. */
  const known = () => [...table.values()]
  const onEvent = (e: PresenceEvent) => {
    if (pending) pending.push(e)
    else if (synced && applyEvent(table, e)) changed()
  }
  return {
    subscribe(listener) {
      const off = emitter.on('change', listener)
      if (listeners++ === 0) {
        present.known.add(known)
        offs = [present.subscribe(onEvent), channel.on('state', ({ current }) => current === 'subscribed' && sync())]
        if (channel.state === 'subscribed') sync() // otherwise the 'subscribed' state change will
      }
      return () => {
        off()
        if (--listeners > 0) return
        present.known.delete(known)
        offs.forEach((o) => o())
        clearTimeout(retry)
        cancel?.()
        cancel = undefined
        failures = 0
        synced = false
        pending = undefined // an answer still on its way is nobody's
      }
    },
    getSnapshot: () => members,
  }
}
