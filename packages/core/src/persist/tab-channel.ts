import type { DehydratedState } from '../cache/types.js'
import { openBus } from '../cross-tab/bus.js'
import type { BroadcastChannelConstructor } from '../cross-tab/platform.js'
import { checkEntry } from './outbox-entries.js'
import type { OutboxEntry } from './types.js'
import { isObject } from '@tandem/contract'

// What the tabs of one key say to each other (docs/persist.md, "Tabs agree"), on the cross-tab bus
// (the one the realtime connection's tabs also use). Each message is checked by `parse` before
// anything reads it (another version's, or a stranger's, is ignored).

/** A failure as it crosses tabs: what a typed error is rebuilt from. */
export interface WireError {
  name: string
  code: string
  message: string
  status?: number | undefined
  requestId?: string | undefined
}

export type TabMessage =
  /** Cache entries that changed in the sender's cache (checked one by one where they land: saved-entries.ts). */
  | { t: 'entries'; entries: DehydratedState['entries'] }
  /** The stored outbox changed: read it again. `added`: the write just stored (shown before the read). */
  | { t: 'outbox'; added?: OutboxEntry | undefined }
  /** A stored write was settled by the sender. */
  | { t: 'outcome'; id: string; result?: unknown; error?: WireError }
  /** Logout: everything stored for the key is gone. */
  | { t: 'cleared' }

export function parse(data: unknown): TabMessage | undefined {
  if (!isObject(data)) return undefined
  switch (data.t) {
    case 'entries':
      return Array.isArray(data.entries)
        ? { t: 'entries', entries: data.entries as DehydratedState['entries'] }
        : undefined
    case 'outbox': {
      const checked = checkEntry(data.added)
      return { t: 'outbox', added: checked && !checked.error ? checked.entry : undefined }
    }
    case 'cleared':
      return { t: 'cleared' }
    case 'outcome': {
      const e = data.error
      if (typeof data.id !== 'string') return undefined
      if (e === undefined) return { t: 'outcome', id: data.id, result: data.result }
      return isObject(e) && typeof e.name === 'string' && typeof e.code === 'string' && typeof e.message === 'string'
        ? { t: 'outcome', id: data.id, error: e as unknown as WireError }
        : undefined
    }
    default:
      return undefined
  }
}

export interface TabChannel {
  post(message: TabMessage): void
  close(): void
}

/** The name of the key's channel on the cross-tab bus. */
const channelName = (key: string) => `tandem:persist:${key}`

/** The key's channel, or a silent one where the platform has none. */
export function openTabChannel(
  key: string,
  onMessage: (message: TabMessage) => void,
  Channel?: BroadcastChannelConstructor,
): TabChannel {
  const bus = openBus(channelName(key), parse, onMessage, Channel)
  return {
    post(message) {
      // Data that cannot be cloned (a class instance) stays in this tab; a caller waiting in another
      // tab still hears that its write was applied.
      if (!bus.post(message) && message.t === 'outcome' && !message.error) bus.post({ t: 'outcome', id: message.id })
    },
    close: () => bus.close(),
  }
}

/**
 * Hears only the key's logout (`cleared`) on its channel: for what ends with a logout outside
 * persist (push), without the other messages' checks (or their bytes).
 */
export const onCleared = (
  key: string,
  listener: () => void,
  Channel?: BroadcastChannelConstructor,
): { close(): void } =>
  openBus(channelName(key), (data) => (isObject(data) && data.t === 'cleared' ? data : undefined), listener, Channel)
