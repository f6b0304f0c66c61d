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
}

const PENDING = 'pending'
const DONE = 'done'

/**
 * A replay store every instance shares: each event is claimed by one `SET key pending NX EX ttl`
 * (atomic: the first claimant wins), marked `done` once handled, and deleted when the handler
 * throws, so the sender's retry is accepted. Keys expire with the ttl: memory is bounded by the
 * deliveries of one ttl (twice the signature tolerance, 10 minutes by default).
 */
export function createRedisReplayStore({
  client,
  prefix = 'tandem:webhook:',
}: RedisReplayStoreOptions): WebhookReplayStore {
  if (typeof client?.set !== 'function' || typeof client.get !== 'function' || typeof client.del !== 'function') {
    throw new TypeError('client must be a redis (node-redis v4+) or ioredis client')
  }
  const io = typeof (client as { defineCommand?: unknown }).defineCommand === 'function'
  const key = (id: string) => prefix + id
  /** `SET key value <mode> EX ttl`, in either client's dialect; true when it was set. */
  const set = async (id: string, value: string, mode: 'NX' | 'XX', ttlSeconds: number): Promise<boolean> => {
    const ttl = Math.max(1, Math.ceil(ttlSeconds))
    const set = client.set.bind(client) as AnyCall
    const reply = io ? await set(key(id), value, 'EX', ttl, mode) : await set(key(id), value, { [mode]: true, EX: ttl })
    return reply === 'OK'
  }
  return {
    claim: (id, ttlSeconds) => set(id, PENDING, 'NX', ttlSeconds),
    async complete(id, ttlSeconds) {
      await set(id, DONE, 'XX', ttlSeconds)
    },
    async release(id) {
      await client.del(key(id))
    },
    completed: async (id) => (await client.get(key(id))) === DONE,
  }
}
