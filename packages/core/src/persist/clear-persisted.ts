import { DEV } from '@tandem/contract/dev'
import { ValidationError } from '../errors.js'
import { safeStorage, type SafeStorage } from './storage.js'
import { openTabChannel } from './tab-channel.js'
import type { BroadcastChannelConstructor } from '../cross-tab/platform.js'
import type { PersistOptions } from './types.js'

/**
 * Where a key's session record, cache and outbox are stored (each held write: `<outbox>#<id>`; the
 * upload URLs of a held write with files: `<uploads>#<its idempotency key, encoded>`).
 */
export const storageKeys = (key: string) => ({
  session: `${key}:session`,
  cache: `${key}:cache`,
  outbox: `${key}:outbox`,
  uploads: `${key}:uploads`,
})

/** The keys of the held writes of `outbox` among `all`: another key's names add a `:` (`<outbox>#x:session` is key `<outbox>#x`'s). */
export const recordKeys = (all: unknown[], outbox: string): string[] =>
  all.filter((k): k is string => typeof k === 'string' && k.startsWith(`${outbox}#`) && !k.includes(':', outbox.length))

/**
 * Deletes what is stored for the key, the session record first: a write of any tab that comes after
 * that finds no session and writes nothing (key-session.ts), one that came before is deleted next.
 */
export async function clearKeys(storage: SafeStorage, keys: ReturnType<typeof storageKeys>): Promise<void> {
  await storage.del(keys.session)
  const all = await storage.keys()
  const records = [...recordKeys(all, keys.outbox), ...recordKeys(all, keys.uploads)]
  await Promise.all([keys.cache, keys.outbox, ...records].map((k) => storage.del(k)))
}

/** The key an option bag names (a string, not empty), else the `ValidationError` saying `why` (development only). */
export function keyOption(options: { key?: unknown } | undefined, why: string | false): string {
  const key = options?.key
  if (typeof key !== 'string' || key === '') throw new ValidationError('key', why)
  return key
}

/** Deletes what is stored for `key` (clearKeys) and tells the tabs of the key (`cleared`). */
export async function clearAndTell(
  storage: SafeStorage,
  key: string,
  Channel: BroadcastChannelConstructor | undefined,
): Promise<void> {
  await clearKeys(storage, storageKeys(key))
  const channel = openTabChannel(key, () => {}, Channel)
  channel.post({ t: 'cleared' })
  channel.close()
}

/**
 * Logout: removes everything stored for `key` (the session record, the saved cache and the durable
 * outbox), and tells the tabs of the key, whose persisters and outboxes end theirs (`cleared`, by
 * `another-tab`, also in this page). A persister's or an outbox's own `clearPersisted()` does the
 * same and ends that one as `this-tab`.
 */
export const clearPersisted = (options: PersistOptions): Promise<void> =>
  clearAndTell(
    safeStorage(options.storage, () => {}),
    keyOption(options, DEV && process.env.NODE_ENV !== 'production' && 'must name what to clear'),
    options.BroadcastChannel,
  )
