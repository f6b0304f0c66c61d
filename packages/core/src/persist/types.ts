import type { BroadcastChannelConstructor, LockManagerLike } from '../cross-tab/platform.js'
import type { TandemError } from '../errors.js'
import type { OutboxLink, OutboxPublish } from '../outbox-link.js'
import type { RequestOptions, Unsubscribe } from '../types.js'
import type { StoredFile } from '../uploads/types.js'

/**
 * Where things are saved: the shape of `idb-keyval` (`import * as idb from 'idb-keyval'` is one).
 * `update`, when there, changes a value atomically (idb-keyval's runs in one IndexedDB transaction),
 * so two tabs changing the outbox at once never lose each other's writes. An updater that returns
 * `undefined` means "no value": the default storages delete the key then (idb-keyval's own `update`
 * stores `undefined`, which reads back as absent).
 */
export interface PersistStorage {
  get(key: string): Promise<unknown>
  set(key: string, value: unknown): Promise<void>
  del(key: string): Promise<void>
  update?(key: string, updater: (old: unknown) => unknown): Promise<void>
  /**
   * Like `update`, with the value of `guard` read in the same transaction: `updater(old, guardValue)`.
   * Tandem passes the key's session record (`<key>:session`) as `guard`, so a write that races a
   * logout in another tab writes nothing (the default storages have it). Without it, `guard` is
   * read just before the update, and a write that lands just after a logout is deleted again.
   */
  updateWith?(key: string, guard: string, updater: (old: unknown, guard: unknown) => unknown): Promise<void>
  /**
   * Every key stored. The durable outbox needs it (a storage without it is refused at creation with
   * a `ValidationError`): it stores each held write under a key of its own (`<key>:outbox#<id>`), so
   * a change writes that one write, not the whole list, and finds them again by listing the keys.
   */
  keys?(): Promise<unknown[]>
  /** The values of `keys`, in one go (a restore reads every held write): else one `get` each. */
  getMany?(keys: string[]): Promise<unknown[]>
}

/** The two browser APIs tabs agree through (stand-ins in tests and other runtimes): see cross-tab/platform.ts. */
export type { BroadcastChannelConstructor, BroadcastChannelLike, LockManagerLike } from '../cross-tab/platform.js'

export interface PersistOptions {
  /**
   * What is saved is saved under this key, and the tabs with the same key agree. Put the signed-in
   * user's id in it: two users must never share one.
   */
  key: string
  /**
   * @default IndexedDB through idb-keyval (database `tandem`); in memory where there is none (Node)
   */
  storage?: PersistStorage
  /** @default globalThis.BroadcastChannel (without one, tabs do not hear each other) */
  BroadcastChannel?: BroadcastChannelConstructor
}

/** `storage`: saving works; `memory`: storage is full or refused (a private window), kept in memory only. */
export type StorageMode = 'storage' | 'memory'

// ---- The saved cache ------------------------------------------------------------

export interface PersistCacheOptions extends PersistOptions {
  /**
   * Saved data older than this (ms) is not restored.
   * @default PERSIST_DEFAULTS.maxAgeMs (24 h)
   */
  maxAgeMs?: number
  /**
   * Your app's version (a build id): a cache saved under another buster is discarded.
   * @default ''
   */
  buster?: string
  /**
   * The cache is saved at most once per this many ms after a change (and at once when the page is hidden).
   * @default PERSIST_DEFAULTS.throttleMs (1 s)
   */
  throttleMs?: number
  /**
   * The app's durable outbox: once the last held write of a collection is applied or refused, the
   * collection's entries are invalidated, so they show the service's truth (a refused write's
   * optimistic change is rolled back, also after a reload).
   */
  outbox?: DurableOutbox
}

/** Why nothing (or less) was restored. */
export type RestoreReason = 'restored' | 'empty' | 'expired' | 'busted' | 'unreadable'

export interface RestoreResult {
  /** Entries put in the cache. */
  entries: number
  /** `restored` when any entry was; `unreadable` when none was and some were of the wrong shape. */
  reason: RestoreReason
  /**
   * Saved entries left out because they are of the wrong shape (each on its own: the others are
   * restored); the saved cache is written again without them. Entries older than `maxAgeMs` are
   * not counted.
   */
  dropped: number
  /** Why each dropped entry was: its key (`cache.inspect()`'s `hash`) and what is wrong (`$.pages: not an array`). */
  problems: RestoreProblem[]
}

/** A saved entry that was not restored, and why. */
export interface RestoreProblem {
  key: string
  why: string
}

/** The saved cache's phases (persist-cache-machine.ts) as the app sees them: the restore is under way, or done. */
export type PersistStatus = 'restoring' | 'restored'

/**
 * Where the key's session was ended: `this-tab` (this object's `clearPersisted()`, or, for a saved
 * cache, that of the outbox it was given), or `another-tab` (another tab's logout, heard on the
 * tabs' channel, or found on waking: the key's session record was gone or another).
 */
export type LogoutSource = 'this-tab' | 'another-tab'

/** A logout of the key, here or in another tab: everything stored for it is gone, and this object writes nothing more. */
export interface LogoutEvent {
  by: LogoutSource
}

export interface PersistSnapshot {
  status: PersistStatus
  mode: StorageMode
  /** What the restore found (undefined while restoring). */
  restore: RestoreResult | undefined
  /** Set once the key's session is logged out (here or in another tab): nothing is saved any more. */
  loggedOut?: LogoutSource
}

export interface PersistEvents {
  /** The saved cache is in the client's cache (or there was none). */
  restore: (result: RestoreResult) => void
  save: (saved: { entries: number }) => void
  /** Storage is full or refused: from now on everything is kept in memory only. Said once. */
  fallback: (error: TandemError) => void
  /** Another tab's cache update landed here (`dropped`: its entries of the wrong shape, left out). */
  remote: (update: { entries: number; dropped: number }) => void
  /**
   * The key's session was logged out: by `clearPersisted()` here or in another tab of the key, or
   * found gone when this page woke. The cache is emptied and nothing is saved any more: end what
   * else the session holds (its realtime connection, the signed-in UI). Said once.
   */
  cleared: (logout: LogoutEvent) => void
}

export interface CachePersister {
  /** Resolves once the saved cache is in the client's cache; never rejects. Render after it. */
  readonly restored: Promise<RestoreResult>
  /** For `useSyncExternalStore`. The same object until something changes. */
  getSnapshot(): PersistSnapshot
  subscribe(listener: () => void): Unsubscribe
  on<E extends keyof PersistEvents>(event: E, callback: PersistEvents[E]): Unsubscribe
  /** Saves now what the throttle would save later. */
  flush(): Promise<void>
  /**
   * Logout: removes everything saved for the key (the session record, cache and outbox), empties
   * this tab's cache (and ends the `outbox` it was given), and tells the other tabs of the key,
   * which end theirs. The persister saves nothing after it. Navigate away once it resolves.
   */
  clearPersisted(): Promise<void>
  /** Stops saving and listening to other tabs (what is saved stays). */
  stop(): void
}

// ---- The durable outbox ---------------------------------------------------------

export interface DurableOutboxOptions extends PersistOptions {
  /**
   * The most writes held; one more is refused with an `OutboxFullError`.
   * @default PERSIST_DEFAULTS.maxEntries (1000)
   */
  maxEntries?: number
  /**
   * The most bytes (their JSON) held.
   * @default PERSIST_DEFAULTS.maxBytes (5 MB)
   */
  maxBytes?: number
  /**
   * At most this many bytes of files held with the writes (their `files`, stored as they are and
   * not counted in `maxBytes`); a write whose files would pass it is refused (`OutboxFullError`).
   * @default PERSIST_DEFAULTS.maxFileBytes (100 MiB)
   */
  maxFileBytes?: number
  /** @default navigator.locks: they elect the one tab that sends what is stored */
  locks?: LockManagerLike
  /**
   * The wait before a write that failed for now goes again: the one backoff (full jitter), up to
   * `min(maxMs, baseMs · 2^(attempts - 1))` (and at once when the page comes back online).
   * @default { baseMs: 1_000, maxMs: 30_000 } (PERSIST_DEFAULTS.retryBaseMs, retryMaxMs)
   */
  retry?: { baseMs?: number; maxMs?: number }
  /** Randomness for the backoff (tests). @default Math.random */
  random?: () => number
}

/** A REST write as stored: never a token (the pipeline adds it per attempt), never its signal. */
export type OutboxRequest = Pick<RequestOptions, 'service' | 'method' | 'path' | 'query' | 'body' | 'headers'>

interface EntryBase {
  /** The outbox's id for it. */
  id: string
  /**
   * Writes of one lane are applied one after the other, in order: one per resource
   * (`support /v1/conversations/c_1`) and one per channel (`realtime chat:lobby`).
   */
  lane: string
  idempotencyKey: string
  /** When it was made (ms since epoch). */
  createdAt: number
  /** Attempts that failed for now. */
  attempts: number
  /** Its size as counted against `maxBytes` (its JSON). */
  bytes: number
  /** Why the last attempt failed, while it waits to go again. */
  lastError?: { name: string; code: string; message: string }
}

export type OutboxEntry =
  | (EntryBase & {
      kind: 'rest'
      request: OutboxRequest
      /**
       * A write's files (`RequestOptions.files`), stored with it (structured-cloned: IndexedDB keeps
       * Blobs), uploaded before it is sent; not counted in `bytes`.
       */
      files?: readonly StoredFile[]
    })
  | (EntryBase & { kind: 'publish'; publish: OutboxPublish })

/**
 * `idle`: nothing held; `sending`: some are being sent; `waiting`: held until a backoff ends or
 * another tab sends them; `offline`: held until the page is online.
 */
export type OutboxStatus = 'idle' | 'sending' | 'waiting' | 'offline'

export interface OutboxSnapshot {
  status: OutboxStatus
  mode: StorageMode
  /** Every write held (this tab's and the other tabs'), oldest first. */
  entries: readonly OutboxEntry[]
  /** Set once the key's session is logged out (here or in another tab): nothing is stored or sent any more. */
  loggedOut?: LogoutSource
}

export interface OutboxEvents {
  /** Writes found in storage when the outbox started (made before a reload, a crash). */
  restore: (restored: { entries: readonly OutboxEntry[] }) => void
  queued: (entry: OutboxEntry) => void
  /** A stored write goes again (after a reload, or after it failed for now). */
  replay: (entry: OutboxEntry) => void
  /** The service applied it (`result`: its answer, or the publish's ack). */
  applied: (applied: { entry: OutboxEntry; result: unknown }) => void
  /** The service refused it: it is dropped, and what it showed should be rolled back. */
  refused: (refused: { entry: OutboxEntry; error: TandemError }) => void
  /** It failed for now; it goes again in `delayMs` (or when the page is back online). */
  retry: (retry: { entry: OutboxEntry; error: TandemError; delayMs: number }) => void
  full: (error: TandemError) => void
  fallback: (error: TandemError) => void
  /** The key's session was logged out, here or in another tab (as the saved cache's `cleared`). Said once. */
  cleared: (logout: LogoutEvent) => void
}

/** Pass it as `createClient({ outbox })` and `createRealtime(source, { outbox })`. */
export interface DurableOutbox extends OutboxLink {
  /** Resolves once what was stored is loaded (and sending has started). Never rejects. */
  readonly ready: Promise<void>
  getSnapshot(): OutboxSnapshot
  subscribe(listener: () => void): Unsubscribe
  on<E extends keyof OutboxEvents>(event: E, callback: OutboxEvents[E]): Unsubscribe
  /** Drops a held write that is not being sent (its caller, if waiting, gets an AbortError); false if it could not. */
  remove(id: string): Promise<boolean>
  /**
   * Logout: removes everything stored for the key (the session record, outbox and cache), here and
   * in the other tabs; callers still waiting reject with `outbox_cleared`, and so does every write
   * after it. Navigate away once it resolves.
   */
  clearPersisted(): Promise<void>
  /** Stops sending and listening (what is stored stays, for the next page). */
  stop(): void
}
