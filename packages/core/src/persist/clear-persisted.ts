import { DEV } from '@tandem/contract/dev'
import { ValidationError } from '../errors.js'
import { safeStorage } from './storage.js'
import { openTabChannel } from './tab-channel.js'
import type { PersistOptions, PersistStorage } from './types.js'

/** Where a key's session record, cache and outbox are stored. */
export const storageKeys = (key: string) => ({
  session: `${key}:session`,
  cache: `${key}:cache`,
  outbox: `${key}:outbox`,
})

/**
 * Deletes what is stored for the key, the session record first: a write of any tab that comes after
 * that finds no session and writes nothing (key-session.ts), one that came before is deleted next.
 */
export async function clearKeys(storage: PersistStorage, keys: ReturnType<typeof storageKeys>): Promise<void> {
  await storage.del(keys.session)
  await Promise.all([storage.del(keys.cache), storage.del(keys.outbox)])
}

/**
 * Logout: removes everything stored for `key` (the session record, the saved cache and the durable
 * outbox), and tells the tabs of the key, whose persisters and outboxes end theirs (`cleared`, by
 * `another-tab`, also in this page). A persister's or an outbox's own `clearPersisted()` does the
 * same and ends that one as `this-tab`.
 */
export async function clearPersisted(options: PersistOptions): Promise<void> {
  const { key } = options ?? {}
  if (typeof key !== 'string' || key === '')
    throw new ValidationError('key', DEV && process.env.NODE_ENV !== 'production' && 'must name what to clear')
  await clearKeys(
    safeStorage(options.storage, () => {}),
    storageKeys(key),
  )
  const channel = openTabChannel(key, () => {}, options.BroadcastChannel)
  channel.post({ t: 'cleared' })
  channel.close()
}
