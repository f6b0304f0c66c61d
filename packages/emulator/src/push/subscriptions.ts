// The push subscriptions each subject registered, per app (docs/push.md). A subject holds at most
// PUSH.subscriptionsPerSubject: a new one past that replaces its oldest, so a browser that died
// without unsubscribing never locks out a new one. The same endpoint again is an update.
import { timingSafeEqual } from 'node:crypto'
import { PUSH, type PushKind, type PushSubscriptionRecord } from '@tandem/contract'
import { mulberry32, type Random } from '../prng.js'

export interface StoredSubscription {
  id: string
  app: string
  subject: string
  kind: PushKind
  endpoint: string
  keys: { p256dh: string; auth: string }
  mailboxIds: string[] | null
  url: string | null
  expirationTime: number | null
  createdAt: string
}

export type Registration = Omit<StoredSubscription, 'id' | 'createdAt'>

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789'

export class SubscriptionStore {
  /** By `app \0 subject`: oldest first. */
  private readonly bySubject = new Map<string, StoredSubscription[]>()
  /** By endpoint, in every app (what `renew` looks up, token-free); kept with `bySubject`. */
  private readonly byEndpoint = new Map<string, Set<StoredSubscription>>()
  private random: Random

  constructor(private readonly seed: number) {
    this.random = mulberry32(seed ^ 0x9057)
  }

  /** Adds or updates (same subject and endpoint); `created` says which. */
  register(input: Registration, now = new Date()): { subscription: StoredSubscription; created: boolean } {
    const key = keyOf(input.app, input.subject)
    const list = this.bySubject.get(key) ?? []
    const same = list.find((s) => s.endpoint === input.endpoint)
    if (same) {
      Object.assign(same, { ...input, id: same.id, createdAt: same.createdAt })
      return { subscription: same, created: false }
    }
    const subscription: StoredSubscription = { ...input, id: this.newId(), createdAt: now.toISOString() }
    list.push(subscription)
    this.index(subscription)
    if (list.length > PUSH.subscriptionsPerSubject)
      for (const old of list.splice(0, list.length - PUSH.subscriptionsPerSubject)) this.unindex(old)
    this.bySubject.set(key, list)
    return { subscription, created: true }
  }

  list(app: string, subject: string): StoredSubscription[] {
    return [...(this.bySubject.get(keyOf(app, subject)) ?? [])]
  }

  /** The subject's own subscription `id`, or undefined (another's is not found either). */
  get(app: string, subject: string, id: string): StoredSubscription | undefined {
    return this.bySubject.get(keyOf(app, subject))?.find((s) => s.id === id)
  }

  /** Every subscription of `app` of this kind (the agents' for a customer's message). */
  ofKind(app: string, kind: PushKind): StoredSubscription[] {
    const out: StoredSubscription[] = []
    for (const list of this.bySubject.values()) for (const s of list) if (s.app === app && s.kind === kind) out.push(s)
    return out
  }

  /** By id, in any app: a delivery looks its subscription up again when it is due. */
  byId(id: string): StoredSubscription | undefined {
    for (const list of this.bySubject.values()) for (const s of list) if (s.id === id) return s
    return undefined
  }

  /** Every subscription at `endpoint` whose auth secret is `auth` (what `renew` proves). */
  withSecret(endpoint: string, auth: string): StoredSubscription[] {
    const proof = Buffer.from(auth, 'base64url')
    return [...(this.byEndpoint.get(endpoint) ?? [])].filter((s) => sameSecret(s.keys.auth, proof))
  }

  /**
   * `renew`: each subscription at `oldEndpoint` with the secret `auth` moves to `next` (its id,
   * kind, mailboxes and url kept); one the subject already had at the new endpoint is dropped.
   */
  renew(
    oldEndpoint: string,
    auth: string,
    next: Pick<StoredSubscription, 'endpoint' | 'keys' | 'expirationTime'>,
  ): StoredSubscription[] {
    const moved = this.withSecret(oldEndpoint, auth)
    for (const s of moved) {
      for (const twin of this.list(s.app, s.subject))
        if (twin !== s && twin.endpoint === next.endpoint) this.remove(twin.id)
      this.unindex(s)
      Object.assign(s, { endpoint: next.endpoint, keys: { ...next.keys }, expirationTime: next.expirationTime })
      this.index(s)
    }
    return moved
  }

  remove(id: string): boolean {
    for (const [key, list] of this.bySubject) {
      const at = list.findIndex((s) => s.id === id)
      if (at < 0) continue
      const [gone] = list.splice(at, 1)
      if (gone) this.unindex(gone)
      if (list.length === 0) this.bySubject.delete(key)
      return true
    }
    return false
  }

  /**
   * Removes `id` only while it is still at `endpoint`: a late 404/410 from an endpoint the
   * subscription was renewed away from says nothing of the renewed one.
   */
  removeAt(id: string, endpoint: string): boolean {
    const s = this.byId(id)
    return s !== undefined && s.endpoint === endpoint && this.remove(id)
  }

  reset(): void {
    this.bySubject.clear()
    this.byEndpoint.clear()
    this.random = mulberry32(this.seed ^ 0x9057)
  }

  private index(s: StoredSubscription): void {
    const set = this.byEndpoint.get(s.endpoint) ?? new Set<StoredSubscription>()
    set.add(s)
    this.byEndpoint.set(s.endpoint, set)
  }

  private unindex(s: StoredSubscription): void {
    const set = this.byEndpoint.get(s.endpoint)
    set?.delete(s)
    if (set?.size === 0) this.byEndpoint.delete(s.endpoint)
  }

  private newId(): string {
    for (;;) {
      let id = 'psb_'
      for (let i = 0; i < 12; i++) id += ID_CHARS[Math.floor(this.random() * ID_CHARS.length)]
      if (!this.byId(id)) return id
    }
  }
}

/** What the REST face answers: never the keys. */
export const toRecord = (s: StoredSubscription): PushSubscriptionRecord => ({
  id: s.id,
  endpoint: s.endpoint,
  kind: s.kind,
  mailboxIds: s.mailboxIds,
  url: s.url,
  expirationTime: s.expirationTime,
  createdAt: s.createdAt,
})

const keyOf = (app: string, subject: string) => `${app}\u0000${subject}`

/** The stored secret against the one offered, as bytes and in constant time (lengths first: it needs equal ones). */
function sameSecret(stored: string, proof: Buffer): boolean {
  const mine = Buffer.from(stored, 'base64url')
  return mine.length === proof.length && timingSafeEqual(mine, proof)
}
