import { ValidationError } from '../errors.js'
import { safeStorage } from './storage.js'
import { openTabChannel } from './tab-channel.js'
import type { PersistOptions, PersistStorage } from './types.js'

/** Where a key's cache and outbox are stored. */
export const storageKeys = (key: string) => ({ cache: `${key}:cache`, outbox: `${key}:outbox` })

export async function clearKeys(storage: PersistStorage, keys: ReturnType<typeof storageKeys>): Promise<void> {
  await Promise.all([storage.del(keys.cache), storage.del(keys.outbox)])
}

/**
 * Logout: removes everything stored for `key` (the saved cache and the durable outbox), and tells
 * the other tabs of the key, whose persister and outbox drop theirs too. A persister's or an
 * outbox's own `clearPersisted()` does the same and also empties this tab's.
 */
export async function clearPersisted(options: PersistOptions): Promise<void> {
  const { key } = options ?? {}
  if (typeof key !== 'string' || key === '')
    throw new ValidationError('key', process.env.NODE_ENV !== 'production' && 'must name what to clear')
  await clearKeys(
    safeStorage(options.storage, () => {}),
    storageKeys(key),
  )
  const channel = openTabChannel(key, () => {}, options.BroadcastChannel)
  channel.post({ t: 'cleared' })
  channel.close()
}
