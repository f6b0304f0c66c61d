// One registry per connection and collection: every `resourcePresence` handle of this client adds
// its claim (view, typing, lock), and the registry says them all as ONE member on the collection's
// presence channel, coalescing changes (at most one send per `throttleMs`). With a connection shared
// across tabs, the member is the connection's, so all its tabs write it: each registry keeps what
// the others wrote (an update of our member that is not one of our own echoes) and puts back its
// own claims if another tab's write dropped them. It leaves when its last handle closes.
import { MAX_PRESENCE_RESOURCES, resourcePresenceChannel, type PresenceCollection } from '@tandem/contract'
import type { ResourcePresenceData } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { createEmitter, ValidationError, type RealtimeError } from '../core.js'
import { RESOURCE_PRESENCE } from './defaults.js'
import { partsOf } from '../parts.js'
import { presence } from '../presence/presence.js'
import type { Realtime } from '../realtime.js'
import type { ReadableStore } from '@tandem/core'
import type { Channel, PresenceEvent } from '../types.js'
import { compose, dataOf, ownKey, sameData, type Claim } from './data.js'
import { createView, type Activity } from './view.js'

export interface Registry {
  readonly rt: Realtime
  readonly channel: Channel
  readonly view: ReadableStore<ReadonlyMap<string, Activity>>
  /** The last refusal of our member's data (cleared by the next success). */
  readonly error: RealtimeError | undefined
  /** Told when `error` changes. */
  onError(listener: () => void): () => void
  add(claim: Claim, name: string | null | undefined): void
  /** A claim changed (typing, lock): sent within `throttleMs`. */
  changed(): void
  remove(claim: Claim): void
}

const EMPTY: ResourcePresenceData = { name: null, viewing: [], typing: [], locks: [] }
/** Our own echoes we may still hear: a few suffice (sends are coalesced). */
const MAX_OUTSTANDING = 32

/** The registry of `rt` for `path` (one per connection and collection, made on first use). */
export function registryOf(rt: Realtime, path: PresenceCollection): Registry {
  const byPath = (partsOf(rt, 'resourcePresence').registries ??= new Map())
  let r = byPath.get(path) as Registry | undefined
  if (!r) byPath.set(path, (r = createRegistry(rt, path)))
  return r
}

function createRegistry(rt: Realtime, path: PresenceCollection): Registry {
  const channel = rt.channel(resourcePresenceChannel(path))
  const pres = presence(channel)
  const errors = createEmitter<{ change: () => void }>()
  const claims = new Set<Claim>()
  /** Every id this registry claimed since it entered: what another tab's write may hold of ours. */
  const ours = new Set<string>()
  let name: string | null | undefined
  let entered = false
  /** Our member's data as far as we know: what we sent last, or what another tab wrote since. */
  let current: ResourcePresenceData = EMPTY
  let outstanding: string[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastSentAt = 0
  let error: RealtimeError | undefined
  let off: (() => void) | undefined

  const setError = (e: RealtimeError | undefined) => {
    if (e === error) return
    error = e
    errors.emit('change')
  }
  const sent = (p: Promise<void>) =>
    p.then(
      () => setError(undefined),
      (e: RealtimeError) => setError(e),
    )

  function flush() {
    timer = undefined
    if (!claims.size) return
    const desired = compose(current, ours, claims, name)
    if (entered && sameData(desired, current)) return
    current = desired
    lastSentAt = Date.now()
    outstanding = [...outstanding, ownKey(desired)].slice(-MAX_OUTSTANDING)
    void sent(entered ? pres.update(desired) : pres.enter(desired))
    entered = true
  }
  function soon() {
    timer ??= setTimeout(flush, Math.max(0, lastSentAt + RESOURCE_PRESENCE.throttleMs - Date.now()))
  }
  /** Our member as the service has it: our echo, or another tab's write to merge with. */
  function heard({ action, member }: PresenceEvent) {
    if (action === 'leave' || member.connectionId !== rt.connectionId || !claims.size) return
    // The service stamps the name and the locks' acquiredAt: an echo is known by the rest.
    const echo = outstanding.indexOf(ownKey(member.data))
    if (echo >= 0) {
      outstanding = outstanding.slice(echo + 1)
      return
    }
    current = dataOf(member.data)
    soon()
  }

  return {
    rt,
    channel,
    view: createView(rt, channel),
    get error() {
      return error
    },
    onError: (listener) => errors.on('change', listener),
    add(claim, given) {
      const ids = new Set([...claims].map((c) => c.id))
      if (!ids.has(claim.id) && ids.size >= MAX_PRESENCE_RESOURCES)
        throw new ValidationError(
          'id',
          DEV &&
            process.env.NODE_ENV !== 'production' &&
            `one connection is on at most ${MAX_PRESENCE_RESOURCES} resources of a collection at once: close a handle first`,
          `max ${MAX_PRESENCE_RESOURCES}`,
        )
      if (given !== undefined) name = given
      claims.add(claim)
      ours.add(claim.id)
      off ??= pres.subscribe(heard)
      soon()
    },
    changed: soon,
    remove(claim) {
      if (!claims.delete(claim)) return
      if (claims.size) return soon()
      clearTimeout(timer)
      timer = undefined
      off?.()
      off = undefined
      if (entered) {
        // What other tabs of a shared connection hold stays theirs; the hub leaves only when none is present.
        const rest = compose(current, ours, [], name)
        if (rest.viewing.length || rest.locks.length) void sent(pres.update(rest))
        void sent(pres.leave())
      }
      entered = false
      current = EMPTY
      outstanding = []
      ours.clear()
    },
  }
}
