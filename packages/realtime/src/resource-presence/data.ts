// A member's `ResourcePresenceData` (contract): read from other clients (untrusted: anything
// malformed counts as nothing), written from this connection's claims, and merged with what the
// other tabs sharing the connection wrote. Pure helpers: the lock rule here is every observer's.
import { LOCK_TTL_MAX, LOCK_TTL_MIN, type ResourcePresenceData } from '@tandem/contract'
import type { Member } from '../types.js'
import { isObject } from '@tandem/contract'

export type Lock = ResourcePresenceData['locks'][number]

/** What one handle of this connection claims on its resource. */
export interface Claim {
  readonly id: string
  typing: boolean
  lock: Lock | undefined
}

const field = (v: object, key: string): unknown => Reflect.get(v, key)
const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
/**
 * A lock within the contract: `acquiredAt` a safe integer ≥ 0 (the service's stamp), `ttlMs` a
 * whole number within LOCK_TTL_MIN..LOCK_TTL_MAX. Anything else (a forged `ttlMs: 9e15`) is absent.
 */
const isLock = (v: unknown): v is Lock => {
  if (!isObject(v)) return false
  const [id, at, ttl] = [field(v, 'id'), field(v, 'acquiredAt'), field(v, 'ttlMs')]
  return (
    typeof id === 'string' &&
    Number.isSafeInteger(at) &&
    (at as number) >= 0 &&
    Number.isInteger(ttl) &&
    (ttl as number) >= LOCK_TTL_MIN &&
    (ttl as number) <= LOCK_TTL_MAX
  )
}

/** A member's data as resource presence, or empty lists where it is not that. */
export function dataOf(data: unknown): ResourcePresenceData {
  if (!isObject(data)) return { name: null, viewing: [], typing: [], locks: [] }
  const [name, locks] = [field(data, 'name'), field(data, 'locks')]
  return {
    name: typeof name === 'string' ? name : null,
    viewing: ids(field(data, 'viewing')),
    typing: ids(field(data, 'typing')),
    locks: Array.isArray(locks) ? locks.filter(isLock) : [],
  }
}

const byId = (a: Lock, b: Lock) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * What the member should say: `base` (the member as another tab of this connection left it) without
 * anything this registry ever claimed (`ours`), plus the claims it holds now. Sorted, so that equal
 * data is equal text.
 */
export function compose(
  base: ResourcePresenceData,
  ours: ReadonlySet<string>,
  claims: Iterable<Claim>,
  name: string | null | undefined,
): ResourcePresenceData {
  const kept = (id: string) => !ours.has(id)
  const viewing = new Set(base.viewing.filter(kept))
  const typing = new Set(base.typing.filter(kept))
  const locks = new Map(base.locks.filter((l) => kept(l.id)).map((l) => [l.id, l]))
  for (const c of claims) {
    viewing.add(c.id)
    if (c.typing) typing.add(c.id)
    if (c.lock) locks.set(c.id, c.lock)
  }
  return {
    name: name === undefined ? (base.name ?? null) : name,
    viewing: [...viewing].sort(),
    typing: [...typing].sort(),
    locks: [...locks.values()].sort(byId),
  }
}

/**
 * What this connection says, without what the service owns: `name` (the service writes the
 * verified one) and each lock's `acquiredAt` (the service stamps it). So our echo, stamped, is
 * still known as ours, and a merge with another tab's write (stamped) is not taken for a change.
 */
export function ownKey(data: unknown): string {
  const d = dataOf(data)
  return JSON.stringify([d.viewing, d.typing, d.locks.map((l) => [l.id, l.ttlMs])])
}

/** Equal data as far as this connection says it (both sorted by `compose` or read the same way). */
export const sameData = (a: ResourcePresenceData, b: ResourcePresenceData): boolean => ownKey(a) === ownKey(b)

export interface Holder {
  holder: Member<ResourcePresenceData>
  expiresAt: number
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0)
/** The earlier claim first; a tie by clientId, then connectionId. */
const earlier = ([am, al]: [Member, Lock], [bm, bl]: [Member, Lock]) =>
  cmp(al.acquiredAt, bl.acquiredAt) || cmp(am.clientId, bm.clientId) || cmp(am.connectionId, bm.connectionId)

/**
 * `id`'s soft lock at `now`, as every observer computes it from the same members (give or take the
 * clocks): the claims not yet lapsed (acquiredAt + ttlMs), earliest acquiredAt first (a tie by
 * clientId, then connectionId). The first holds the lock; the rest wait in that order.
 */
export function queueOf(claims: readonly [Member<ResourcePresenceData>, Lock][], now: number): Holder[] {
  return claims
    .filter(([, l]) => l.acquiredAt + l.ttlMs > now)
    .sort(earlier)
    .map(([holder, l]) => ({ holder, expiresAt: l.acquiredAt + l.ttlMs }))
}
