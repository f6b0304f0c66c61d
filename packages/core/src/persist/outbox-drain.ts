import { DEV } from '@tandem/contract/dev'
import type { SafeEmitter } from '../events.js'
import { ValidationError, type TandemError } from '../errors.js'
import { PERSIST_DEFAULTS } from './defaults.js'
import { checkEntry, heads } from './outbox-entries.js'
import { isRetryable, toTandemError } from './outbox-classify.js'
import type { LockManagerLike, OutboxEntry, OutboxEvents } from './types.js'

export interface DrainContext {
  key: string
  locks: LockManagerLike | undefined
  random: (() => number) | undefined
  retry: { baseMs?: number; maxMs?: number } | undefined
  online: () => boolean
  stopped: () => boolean
  entries: () => OutboxEntry[]
  reload: () => Promise<void>
  change: (fn: (stored: OutboxEntry[]) => OutboxEntry[]) => Promise<void>
  notify: () => void
  events: SafeEmitter<OutboxEvents>
  /** The write is done with: tell its caller here and in the other tabs. */
  settle: (entry: OutboxEntry, outcome: { result?: unknown; error?: TandemError }) => void
}

export interface Drain {
  /** Sends what may go (again); a call while sending makes the running pass look once more. */
  wake: () => void
  /** The page is back online: lanes waiting out a backoff go now. */
  retryNow: () => void
  /** How entries of `kind` are sent (each client gives its own). */
  run: (kind: OutboxEntry['kind'], send: (entry: OutboxEntry) => Promise<unknown>) => void
  sending: () => boolean
  inFlight: (id: string) => boolean
  stop: () => void
}

/**
 * Sends the stored writes: the first of each lane, the next once it is settled. One tab at a time
 * (a Web Lock per key), so the tabs of a key do not send the same write twice; the lock is let go
 * whenever nothing can go, so a tab that waits (offline, a backoff) never holds up another.
 */
export function createDrain(ctx: DrainContext): Drain {
  const d = PERSIST_DEFAULTS
  const random = ctx.random ?? Math.random
  const senders = new Map<OutboxEntry['kind'], (entry: OutboxEntry) => Promise<unknown>>()
  const inFlight = new Set<string>()
  /** A lane that failed for now waits until then (ms since epoch). */
  const blocked = new Map<string, number>()
  /** Lane loops running, by lane. */
  const lanes = new Map<string, Promise<void>>()
  let running = false
  /** The lock is ours (a pass runs). */
  let holding = false
  /** Woken while waiting for the lock: nothing to do but keep going. */
  let again = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const locks = ctx.locks ?? (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks ?? undefined

  const runnable = (now: number) =>
    heads(ctx.entries()).filter((e) => senders.has(e.kind) && !inFlight.has(e.id) && (blocked.get(e.lane) ?? 0) <= now)

  // A send outlives a logout (or another tab's outcome for the same write): once its write is no
  // longer held, it writes nothing, or the list a logout deleted would be stored again.
  const held = (entry: OutboxEntry) => ctx.entries().some((e) => e.id === entry.id)
  const drop = async (entry: OutboxEntry) => {
    if (held(entry)) await ctx.change((stored) => stored.filter((e) => e.id !== entry.id))
  }

  /** Dropped without a send, as refused: what the contract would not have the write be. */
  async function refuse(entry: OutboxEntry, error: TandemError): Promise<void> {
    await drop(entry)
    ctx.settle(entry, { error })
    ctx.events.emit('refused', { entry, error })
  }

  async function send(entry: OutboxEntry): Promise<void> {
    inFlight.add(entry.id)
    ctx.notify()
    try {
      // Checked again right before it goes: whatever put it in the list, only a write of the contract is sent.
      const checked = checkEntry(entry)
      if (!checked || checked.error)
        return await refuse(
          entry,
          checked?.error ??
            new ValidationError('entry', DEV && process.env.NODE_ENV !== 'production' && 'not an outbox entry'),
        )
      if (entry.attempts > 0 || entry.createdAt < startedAt) ctx.events.emit('replay', entry)
      const result = await senders.get(entry.kind)!(entry)
      await drop(entry)
      ctx.settle(entry, { result })
      ctx.events.emit('applied', { entry, result })
    } catch (thrown) {
      const error = toTandemError(thrown)
      if (isRetryable(error)) return await failedForNow(entry, error)
      await refuse(entry, error)
    } finally {
      inFlight.delete(entry.id)
      ctx.notify()
    }
  }

  async function failedForNow(entry: OutboxEntry, error: TandemError): Promise<void> {
    const attempts = entry.attempts + 1
    // Never less than half the step: a write failing at once (offline) must not spin.
    const step = Math.min(
      ctx.retry?.maxMs ?? d.retryMaxMs,
      (ctx.retry?.baseMs ?? d.retryBaseMs) * 2 ** Math.min(attempts - 1, 16),
    )
    const delayMs = Math.round(step * (0.5 + random() / 2))
    blocked.set(entry.lane, Date.now() + delayMs)
    const lastError = { name: error.name, code: error.code, message: error.message }
    if (held(entry))
      await ctx.change((stored) => stored.map((e) => (e.id === entry.id ? { ...e, attempts, lastError } : e)))
    ctx.events.emit('retry', { entry: { ...entry, attempts, lastError }, error, delayMs })
  }

  /** One lane, write after write, while its head may go. */
  async function lane(first: OutboxEntry): Promise<void> {
    for (let next: OutboxEntry | undefined = first; next && !ctx.stopped() && ctx.online();) {
      await send(next)
      next = runnable(Date.now()).find((e) => e.lane === first.lane)
    }
  }

  /** Starts a loop for each lane whose head may go and that has none running. */
  function startLanes(): void {
    if (!ctx.online() || ctx.stopped()) return
    for (const head of runnable(Date.now())) {
      if (lanes.has(head.lane)) continue
      const done = lane(head).finally(() => lanes.delete(head.lane))
      lanes.set(head.lane, done)
    }
  }

  /** Holding the lock: runs lanes until none can go; a wake meanwhile starts the new ones at once. */
  async function pass(): Promise<void> {
    await ctx.reload() // within the lock, storage is the truth: another tab may have sent or added some
    holding = true
    try {
      for (startLanes(); lanes.size; startLanes()) await Promise.race(lanes.values())
    } finally {
      holding = false
    }
  }

  function schedule() {
    clearTimeout(timer)
    const now = Date.now()
    const held = new Set(ctx.entries().map((e) => e.lane))
    for (const lane of blocked.keys()) if (!held.has(lane)) blocked.delete(lane)
    const waits = ctx
      .entries()
      .map((e) => blocked.get(e.lane) ?? 0)
      .filter((until) => until > now)
    if (waits.length && !ctx.stopped()) timer = setTimeout(wake, Math.min(...waits) - now)
  }

  function wake() {
    if (ctx.stopped() || !senders.size) return
    if (running) {
      // Holding the lock: new heads start now. Waiting for it: the pass will read everything.
      if (holding) startLanes()
      else again = true
      return
    }
    running = true
    again = false
    const done = () => {
      running = false
      ctx.notify()
      if (again && !ctx.stopped()) wake()
      else schedule()
    }
    // A throw here is a bug of ours, not a write's failure: said where the page's errors go, never swallowed.
    const work = () =>
      pass().catch((error: unknown) =>
        queueMicrotask(() => {
          throw error
        }),
      )
    const held = locks ? locks.request(`tandem:outbox:${ctx.key}`, {}, work) : work()
    void held.then(done, done)
  }

  const startedAt = Date.now()
  return {
    wake,
    retryNow() {
      blocked.clear()
      wake()
    },
    run(kind, send) {
      senders.set(kind, send)
      wake()
    },
    sending: () => inFlight.size > 0,
    inFlight: (id) => inFlight.has(id),
    stop() {
      clearTimeout(timer)
    },
  }
}
