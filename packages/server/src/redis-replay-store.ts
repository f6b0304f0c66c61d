import type { WebhookReplayStore } from './replay-store.js'

// A webhook replay store in Redis, shared by every instance of an app. No Redis library is
// imported: pass your client. The official `redis` (node-redis v4+) and `ioredis` both work,
// told apart by shape (ioredis has `defineCommand`; node-redis takes SET options as an object).

/**
 * The part of a Redis client this store uses: node-redis (v4+: SET options as an object) or
 * ioredis (SET arguments in a row; it has `defineCommand`). Loose on purpose, so both clients'
 * own (overloaded) types fit.
 */
export interface RedisLike {
  set: (key: string, value: string, ...options: never[]) => Promise<unknown>
  get: (key: string) => Promise<unknown>
  del: (key: string) => Promise<unknown>
  eval: (script: string, ...args: never[]) => Promise<unknown>
  /** Both clients are event emitters: the store listens for `error` (see `onError`). */
  on?: (event: string, listener: (error: Error) => void) => unknown
  listenerCount?: (event: string) => number
}

type AnyCall = (...args: unknown[]) => Promise<unknown>

export interface RedisReplayStoreOptions {
  /** A connected client: `createClient()` from `redis` (after `connect()`), or `new Redis()` from `ioredis`. */
  client: RedisLike
  /**
   * Prefixed to every key, so one Redis can serve several apps.
   * @default 'tandem:webhook:'
   */
  prefix?: string
  /**
   * Called with each `error` the client emits (a lost connection, a refused reconnect). The store
   * listens for them either way, so a Redis outage never ends the process (an emitter with no
   * `error` listener throws); while it lasts, deliveries answer 503 and the sender retries.
   * @default one line on `console.error` per outage, unless the client has a listener of your own
   */
  onError?: (error: Error) => void
}

const DONE = 'done'
// The owner's claim: compare-and-set, so an instance renews or gives back only its own lease.
const RENEW =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"

/** Clients the default reporter listens on already (one listener per client, however many stores). */
const watched = new WeakSet<object>()

/** Credentials never reach a log: `redis://user:pass@host` keeps only the host. */
const redact = (error: unknown) =>
  String((error as Error | undefined)?.message ?? error).replace(/\/\/[^/\s@]*@/g, '//***@')

function listen(client: RedisLike, onError: ((error: Error) => void) | undefined): void {
  if (typeof client.on !== 'function') return
  if (onError) client.on('error', onError)
  if (watched.has(client)) return
  watched.add(client)
  let reported = false
  client.on('error', (error) => {
    // The app's own listener (or `onError`) reports it; otherwise once per outage, not per retry.
    if (reported || (client.listenerCount?.('error') ?? 1) > 1) return
    reported = true
    console.error(
      `[tandem] webhook replay store: Redis error (${redact(error)}); deliveries answer 503 until it is back`,
    )
  })
  client.on('ready', () => void (reported = false))
}

/**
 * A replay store every instance shares. Each event is claimed by one `SET key pending:<owner> NX
 * PX <lease>` (atomic: the first claimant wins), a lease the handler renews while it runs (a Lua
 * compare-and-set on the owner), marked `done` for the ttl once handled, and deleted (by its owner)
 * when the handler throws, so the sender's retry is accepted. A claim whose holder died, or whose
 * reply was lost, lapses with its lease. Keys expire: memory is bounded by one ttl's deliveries
 * (twice the signature tolerance, 10 minutes by default).
 */
export function createRedisReplayStore({
  client,
  prefix = 'tandem:webhook:',
  onError,
}: RedisReplayStoreOptions): WebhookReplayStore {
  if (
    !['set', 'get', 'del', 'eval'].every(
      (m) => typeof (client as unknown as Record<string, unknown>)?.[m] === 'function',
    )
  ) {
    throw new TypeError('client must be a redis (node-redis v4+) or ioredis client')
  }
  if (onError !== undefined && typeof onError !== 'function') throw new TypeError('onError must be a function')
  listen(client, onError)
  const io = typeof (client as { defineCommand?: unknown }).defineCommand === 'function'
  const key = (id: string) => prefix + id
  const ms = (seconds: number) => String(Math.max(1, Math.ceil(seconds * 1000)))
  const call = (name: 'set' | 'eval') => client[name].bind(client) as AnyCall
  /** A script on one key, in either client's dialect. */
  const script = (source: string, id: string, ...args: string[]) =>
    io ? call('eval')(source, 1, key(id), ...args) : call('eval')(source, { keys: [key(id)], arguments: args })
  return {
    async claim(id, leaseSeconds, owner) {
      const value = `pending:${owner}`
      const reply = io
        ? await call('set')(key(id), value, 'PX', ms(leaseSeconds), 'NX')
        : await call('set')(key(id), value, { NX: true, PX: Number(ms(leaseSeconds)) })
      return reply === 'OK'
    },
    renew: async (id, leaseSeconds, owner) =>
      Number(await script(RENEW, id, `pending:${owner}`, ms(leaseSeconds))) === 1,
    async complete(id, ttlSeconds) {
      // Whoever holds the key now, the event was handled: that is what copies must read.
      const ttl = Math.max(1, Math.ceil(ttlSeconds))
      await (io ? call('set')(key(id), DONE, 'EX', ttl) : call('set')(key(id), DONE, { EX: ttl }))
    },
    async release(id, owner) {
      await script(RELEASE, id, `pending:${owner}`)
    },
    completed: async (id) => (await client.get(key(id))) === DONE,
  }
}
