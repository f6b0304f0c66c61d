// `resourcePresence(rt, path, id)`: this client on one resource (viewing it from creation until
// close, typing, a soft lock), and the others on it, as a store. Its claim joins the connection's
// registry, which sends them all as one member of the collection's presence channel.
import {
  LIMITS,
  LOCK_TTL_DEFAULT,
  LOCK_TTL_MAX,
  LOCK_TTL_MIN,
  PRESENCE_NAME,
  PRESENCE_NAME_RULE,
  type PresenceCollection,
} from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { createEmitter, ValidationError, type RealtimeError } from '../core.js'
import { RESOURCE_PRESENCE } from './defaults.js'
import type { Realtime } from '../realtime.js'
import type { ReadableStore } from '@tandem/core'
import type { Claim } from './data.js'
import { checkPath } from './path.js'
import { registryOf } from './registry.js'
import type { Activity, PresenceMember } from './view.js'

export interface ResourcePresenceOptions {
  /**
   * A hint of how the other agents see this connection (its member data's `name`; the last one
   * given wins). The service replaces it with the agent's VERIFIED name (the token's
   * `profile.name`, else its own agent record, else null): a member's name is never the client's
   * to choose. Show `clientId` when the name is null. At most `LIMITS.personName` characters,
   * without control or bidirectional-override characters (`PRESENCE_NAME`).
   */
  name?: string | null
}

export interface LockOptions {
  /**
   * How long the lock lasts unless renewed (`lock()` again), in ms, within the contract's
   * `LOCK_TTL_MIN`–`LOCK_TTL_MAX`.
   * @default LOCK_TTL_DEFAULT (60_000)
   */
  ttlMs?: number
}

/** `connecting` until the collection's channel is subscribed; `failed` when it or our member data was refused. */
export type ResourcePresenceStatus = 'connecting' | 'live' | 'failed' | 'closed'

export interface ResourceLock {
  holder: PresenceMember
  /** Epoch ms, by the service's clock (it stamps each claim's `acquiredAt`). */
  expiresAt: number
  /** Held by this connection. */
  mine: boolean
}

export interface ResourcePresenceSnapshot {
  /** The other connections viewing the resource (this one left out). */
  viewers: readonly PresenceMember[]
  /** The other connections typing in it. */
  typing: readonly PresenceMember[]
  lock: ResourceLock | null
  /**
   * This connection's claim while another holds the lock (`lock()` does not take a held lock: the
   * claim waits). `position` 1 holds it next, when the holder lets go or its claim lapses. null
   * when this connection claims nothing, holds the lock, or its claim lapsed while it waited.
   */
  waiting: { position: number } | null
  status: ResourcePresenceStatus
  /** Why it `failed`: the channel's or the member data's refusal. */
  error?: RealtimeError
}

export interface ResourcePresence extends ReadableStore<ResourcePresenceSnapshot> {
  readonly id: string
  /** Says this client types in the resource; `true` lapses after `DEFAULTS.resourcePresence.typingIdleMs` without another. */
  setTyping(typing: boolean): void
  /**
   * Claims the resource's soft lock, or renews this client's claim. ADVISORY: nothing stops
   * another client from writing; every observer computes the same holder: the earliest claim not
   * yet lapsed, by `acquiredAt`, which THE SERVICE STAMPS with its own clock when the claim is new
   * (unique per channel, so no two claims tie and a back-dated claim wins nothing). A claim lapses
   * at `acquiredAt + ttlMs` (an observer's skewed clock shifts when it sees that). A claim made
   * while another holds the lock waits: it holds once the other's lapses or is released. A renewal
   * keeps the claim's place while the whole span stays within `LOCK_TTL_MAX`, and starts a new
   * claim after that.
   */
  lock(options?: LockOptions): void
  unlock(): void
  /** Stops viewing (typing and lock go with it); when it was the connection's last handle, its member leaves. */
  close(): void
}

const NONE: Activity = { viewers: [], typers: [], lockHolder: null, lockExpiresAt: null, lockQueue: [] }

function checkId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > LIMITS.id)
    throw new ValidationError(
      'id',
      DEV && process.env.NODE_ENV !== 'production' && `is a resource id of 1 to ${LIMITS.id} characters`,
      `1..${LIMITS.id} characters`,
    )
}

function checkTtl(ttlMs: unknown): asserts ttlMs is number {
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < LOCK_TTL_MIN || ttlMs > LOCK_TTL_MAX)
    throw new ValidationError(
      'ttlMs',
      DEV && process.env.NODE_ENV !== 'production' && `is a whole number of ms from ${LOCK_TTL_MIN} to ${LOCK_TTL_MAX}`,
      `${LOCK_TTL_MIN}..${LOCK_TTL_MAX}`,
    )
}

function checkName(name: unknown): asserts name is string | null | undefined {
  if (name === undefined || name === null) return
  if (typeof name !== 'string' || name.length > LIMITS.personName || !PRESENCE_NAME.test(name))
    throw new ValidationError(
      'name',
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        `is a string of at most ${LIMITS.personName} characters that ${PRESENCE_NAME_RULE}`,
      `max ${LIMITS.personName}`,
    )
}

/**
 * This client on one resource of a collection, and who else is on it.
 *
 * @example
 * ```ts
 * const here = resourcePresence(rt, 'support/conversations', conversationId, { name: 'Ada' })
 * here.subscribe(() => render(here.getSnapshot())) // { viewers, typing, lock, status }
 * here.setTyping(true)
 * here.lock({ ttlMs: 120_000 })
 * here.close()
 * ```
 */
export function resourcePresence(
  rt: Realtime,
  path: PresenceCollection,
  id: string,
  options: ResourcePresenceOptions = {},
): ResourcePresence {
  checkPath(path)
  checkId(id)
  checkName(options.name)
  const registry = registryOf(rt, path)
  const { channel } = registry
  const claim: Claim = { id, typing: false, lock: undefined }
  registry.add(claim, options.name)
  const emitter = createEmitter<{ change: () => void }>()
  let closed = false
  let idle: ReturnType<typeof setTimeout> | undefined
  let memo: { of: readonly unknown[]; snap: ResourcePresenceSnapshot } | undefined

  const setTyping = (typing: boolean) => {
    if (closed) return
    clearTimeout(idle)
    if (typing) idle = setTimeout(() => setTyping(false), RESOURCE_PRESENCE.typingIdleMs)
    if (claim.typing === typing) return
    claim.typing = typing
    registry.changed()
  }

  function getSnapshot(): ResourcePresenceSnapshot {
    const a = registry.view.getSnapshot().get(id) ?? NONE
    const { error } = registry
    const status: ResourcePresenceStatus = closed
      ? 'closed'
      : channel.state === 'failed' || error
        ? 'failed'
        : channel.state === 'subscribed'
          ? 'live'
          : 'connecting'
    const of = [a, status, error, rt.connectionId]
    if (memo && of.every((x, i) => x === memo!.of[i])) return memo.snap
    const { lockHolder: holder, lockExpiresAt: expiresAt } = a
    const place = a.lockQueue.findIndex((m) => m.connectionId === rt.connectionId)
    const snap: ResourcePresenceSnapshot = {
      viewers: a.viewers,
      typing: a.typers,
      lock: holder && expiresAt !== null ? { holder, expiresAt, mine: holder.connectionId === rt.connectionId } : null,
      waiting: place >= 0 ? { position: place + 1 } : null,
      status,
      ...(error && status === 'failed' ? { error } : {}),
    }
    memo = { of, snap }
    return snap
  }

  return {
    id,
    subscribe(listener) {
      const offs = [
        emitter.on('change', listener),
        registry.view.subscribe(listener),
        channel.on('state', () => listener()),
        registry.onError(listener),
      ]
      return () => offs.forEach((o) => o())
    },
    getSnapshot,
    setTyping,
    lock({ ttlMs = LOCK_TTL_DEFAULT }: LockOptions = {}) {
      checkTtl(ttlMs)
      if (closed) return
      const now = Date.now()
      const had = claim.lock
      const keep = had && had.acquiredAt + had.ttlMs > now && now - had.acquiredAt + ttlMs <= LOCK_TTL_MAX
      claim.lock = keep
        ? { id, acquiredAt: had.acquiredAt, ttlMs: now - had.acquiredAt + ttlMs }
        : { id, acquiredAt: now, ttlMs }
      registry.changed()
    },
    unlock() {
      if (closed || !claim.lock) return
      claim.lock = undefined
      registry.changed()
    },
    close() {
      if (closed) return
      closed = true
      clearTimeout(idle)
      registry.remove(claim)
      emitter.emit('change')
    },
  }
}
