// The collection as its rows see it: for each resource id, who else views it, who types in it and
// who holds its soft lock and whose claims wait for it, from the members of the collection's one
// presence channel. Rebuilt when the members change, when this connection's id does, and when a
// claim lapses; a row whose activity did not change keeps its object, so a list re-renders only
// the rows that moved.
import type { ResourcePresenceData } from '@tandem/contract'
import { clampDelay, createEmitter, MAX_TIMER_MS } from '../core.js'
import { presenceStore } from '../presence/presence-store.js'
import type { Realtime } from '../realtime.js'
import type { ReadableStore } from '@tandem/core'
import type { Channel, Member } from '../types.js'
import { dataOf, queueOf, type Lock } from './data.js'

export type PresenceMember = Member<ResourcePresenceData>

/** One resource's activity: `viewers` and `typers` are the other connections (not this one). */
export interface Activity {
  viewers: readonly PresenceMember[]
  typers: readonly PresenceMember[]
  /** The soft lock's holder (this connection included) until `lockExpiresAt` (epoch ms, the service's clock). */
  lockHolder: PresenceMember | null
  lockExpiresAt: number | null
  /**
   * The connections whose claims wait for the lock (this one included), next first: each holds it
   * in turn as the one before lets go or lapses, unless its own claim lapses first.
   */
  lockQueue: readonly PresenceMember[]
}

/** The member with its data read as resource presence, one object per member object (`parsed`). */
function parse(parsed: WeakMap<Member, PresenceMember>, m: Member): PresenceMember {
  let p = parsed.get(m)
  if (!p) parsed.set(m, (p = { clientId: m.clientId, connectionId: m.connectionId, data: dataOf(m.data) }))
  return p
}

/** The same connection under the same name: what a row shows of a member (its other resources are other rows'). */
const sameMember = (a: PresenceMember | null, b: PresenceMember | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.connectionId === b.connectionId &&
    a.clientId === b.clientId &&
    a.data.name === b.data.name)
const sameList = (a: readonly PresenceMember[], b: readonly PresenceMember[]) =>
  a.length === b.length && a.every((x, i) => sameMember(x, b[i]!))
const sameActivity = (a: Activity, b: Activity) =>
  sameList(a.viewers, b.viewers) &&
  sameList(a.typers, b.typers) &&
  sameMember(a.lockHolder, b.lockHolder) &&
  a.lockExpiresAt === b.lockExpiresAt &&
  sameList(a.lockQueue, b.lockQueue)

/**
 * The lapse check waits at least this long: a lock that lapses sooner (or a clock that says it
 * has, give or take a millisecond) is looked at again then, never in a tight loop.
 */
const LAPSE_FLOOR_MS = 25

export function createView(rt: Realtime, channel: Channel): ReadableStore<ReadonlyMap<string, Activity>> {
  const members = presenceStore(channel)
  // Weak: keyed by the presence store's member objects, which a later snapshot replaces; an old one must not stay alive.
  const parsed = new WeakMap<Member, PresenceMember>()
  const emitter = createEmitter<{ change: () => void }>()
  let map: ReadonlyMap<string, Activity> = new Map()
  let listeners = 0
  let offs: (() => void)[] = []
  let lapse: ReturnType<typeof setTimeout> | undefined

  function rebuild() {
    clearTimeout(lapse)
    const me = rt.connectionId
    const now = Date.now()
    const rows = new Map<
      string,
      { viewers: PresenceMember[]; typers: PresenceMember[]; locks: [PresenceMember, Lock][] }
    >()
    const row = (id: string) => {
      let r = rows.get(id)
      if (!r) rows.set(id, (r = { viewers: [], typers: [], locks: [] }))
      return r
    }
    for (const raw of members.getSnapshot()) {
      const m = parse(parsed, raw)
      const other = m.connectionId !== me
      if (other) for (const id of m.data.viewing) row(id).viewers.push(m)
      if (other) for (const id of m.data.typing) row(id).typers.push(m)
      for (const l of m.data.locks) row(l.id).locks.push([m, l])
    }
    const next = new Map<string, Activity>()
    let lapsesAt = Infinity
    let same = true
    for (const [id, r] of rows) {
      const [lock, ...waiting] = queueOf(r.locks, now)
      if (!lock && !r.viewers.length && !r.typers.length) continue
      // The holder's lapse hands the lock on; a waiting claim's lapse takes it out of the queue.
      if (lock) lapsesAt = Math.min(lapsesAt, lock.expiresAt, ...waiting.map((w) => w.expiresAt))
      const fresh: Activity = {
        viewers: r.viewers,
        typers: r.typers,
        lockHolder: lock?.holder ?? null,
        lockExpiresAt: lock?.expiresAt ?? null,
        lockQueue: waiting.map((w) => w.holder),
      }
      const had = map.get(id)
      const kept = had && sameActivity(had, fresh) ? had : fresh
      if (kept !== had) same = false
      next.set(id, kept)
    }
    // A lapsed claim may leave the next one holding the lock: look again then (within a sane range:
    // never past 2^31-1 ms, when a timer would fire at once, nor below the floor).
    if (lapsesAt !== Infinity)
      lapse = setTimeout(rebuild, clampDelay(lapsesAt - now + 1, LAPSE_FLOOR_MS, MAX_TIMER_MS) ?? LAPSE_FLOOR_MS)
    if (same && next.size === map.size) return
    map = next
    emitter.emit('change')
  }

  return {
    subscribe(listener) {
      const off = emitter.on('change', listener)
      if (listeners++ === 0) {
        offs = [members.subscribe(rebuild), rt.on('state', ({ current }) => current === 'connected' && rebuild())]
        rebuild()
      }
      return () => {
        off()
        if (--listeners > 0) return
        offs.forEach((o) => o())
        clearTimeout(lapse)
      }
    },
    getSnapshot: () => map,
  }
}
